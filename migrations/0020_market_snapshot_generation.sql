-- The store generation of each market (market_snapshots.generation): every write to a stored series'
-- bars (insert, upsert-update, delete of a market_bar_chunks row) and every change of which stocks a
-- market holds bumps it, whichever code path writes. A snapshot built at another generation is not
-- served (worker/storage/market-snapshot-repo.ts).
CREATE TRIGGER `market_bar_chunks_gen_insert` AFTER INSERT ON `market_bar_chunks` BEGIN
  INSERT INTO market_snapshots (market, generation) SELECT market, 1 FROM market_symbols WHERE id = new.symbol_id
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `market_bar_chunks_gen_update` AFTER UPDATE ON `market_bar_chunks` BEGIN
  INSERT INTO market_snapshots (market, generation) SELECT market, 1 FROM market_symbols WHERE id = new.symbol_id
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `market_bar_chunks_gen_delete` AFTER DELETE ON `market_bar_chunks` BEGIN
  INSERT INTO market_snapshots (market, generation) SELECT market, 1 FROM market_symbols WHERE id = old.symbol_id
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `market_symbols_gen_insert` AFTER INSERT ON `market_symbols` BEGIN
  INSERT INTO market_snapshots (market, generation) VALUES (new.market, 1)
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `market_symbols_gen_delete` AFTER DELETE ON `market_symbols` BEGIN
  INSERT INTO market_snapshots (market, generation) VALUES (old.market, 1)
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `market_symbols_gen_move` AFTER UPDATE OF market, kind ON `market_symbols`
  WHEN old.market IS NOT new.market OR old.kind IS NOT new.kind BEGIN
  INSERT INTO market_snapshots (market, generation) VALUES (old.market, 1)
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1;
  INSERT INTO market_snapshots (market, generation) VALUES (new.market, 1)
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1;
END;
