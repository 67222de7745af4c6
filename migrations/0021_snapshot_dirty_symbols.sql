CREATE TABLE `market_symbol_generation` (
	`symbol_id` text PRIMARY KEY NOT NULL,
	`market` text NOT NULL,
	`generation` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `market_symbol_generation_market_gen` ON `market_symbol_generation` (`market`,`generation`);--> statement-breakpoint
ALTER TABLE `market_snapshots` ADD `membership` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `market_snapshots` ADD `built_membership` integer;--> statement-breakpoint
-- Per-symbol staleness (worker/storage/market-snapshot-repo.ts). Every bars write (insert,
-- upsert-update, delete of a market_bar_chunks row) still bumps the market's `generation` and now
-- records it as the symbol's last write generation; a snapshot built at G is stale exactly for the
-- symbols whose row is > G. Changes of which stocks a market holds bump `generation` and
-- `membership`: a snapshot built at another membership is not served at all.
DROP TRIGGER IF EXISTS `market_bar_chunks_gen_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `market_bar_chunks_gen_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `market_bar_chunks_gen_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `market_symbols_gen_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `market_symbols_gen_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `market_symbols_gen_move`;
--> statement-breakpoint
CREATE TRIGGER `market_bar_chunks_gen_insert` AFTER INSERT ON `market_bar_chunks` BEGIN
  INSERT INTO market_snapshots (market, generation) SELECT market, 1 FROM market_symbols WHERE id = new.symbol_id
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1;
  INSERT INTO market_symbol_generation (symbol_id, market, generation)
    SELECT m.id, m.market, s.generation FROM market_symbols m JOIN market_snapshots s ON s.market = m.market
    WHERE m.id = new.symbol_id
    ON CONFLICT(symbol_id) DO UPDATE SET market = excluded.market, generation = excluded.generation;
END;
--> statement-breakpoint
CREATE TRIGGER `market_bar_chunks_gen_update` AFTER UPDATE ON `market_bar_chunks` BEGIN
  INSERT INTO market_snapshots (market, generation) SELECT market, 1 FROM market_symbols WHERE id = new.symbol_id
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1;
  INSERT INTO market_symbol_generation (symbol_id, market, generation)
    SELECT m.id, m.market, s.generation FROM market_symbols m JOIN market_snapshots s ON s.market = m.market
    WHERE m.id = new.symbol_id
    ON CONFLICT(symbol_id) DO UPDATE SET market = excluded.market, generation = excluded.generation;
END;
--> statement-breakpoint
CREATE TRIGGER `market_bar_chunks_gen_delete` AFTER DELETE ON `market_bar_chunks` BEGIN
  INSERT INTO market_snapshots (market, generation) SELECT market, 1 FROM market_symbols WHERE id = old.symbol_id
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1;
  INSERT INTO market_symbol_generation (symbol_id, market, generation)
    SELECT m.id, m.market, s.generation FROM market_symbols m JOIN market_snapshots s ON s.market = m.market
    WHERE m.id = old.symbol_id
    ON CONFLICT(symbol_id) DO UPDATE SET market = excluded.market, generation = excluded.generation;
END;
--> statement-breakpoint
CREATE TRIGGER `market_symbols_gen_insert` AFTER INSERT ON `market_symbols` BEGIN
  INSERT INTO market_snapshots (market, generation, membership) VALUES (new.market, 1, 1)
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1, membership = membership + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `market_symbols_gen_delete` AFTER DELETE ON `market_symbols` BEGIN
  INSERT INTO market_snapshots (market, generation, membership) VALUES (old.market, 1, 1)
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1, membership = membership + 1;
  DELETE FROM market_symbol_generation WHERE symbol_id = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `market_symbols_gen_move` AFTER UPDATE OF market, kind ON `market_symbols`
  WHEN old.market IS NOT new.market OR old.kind IS NOT new.kind BEGIN
  INSERT INTO market_snapshots (market, generation, membership) VALUES (old.market, 1, 1)
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1, membership = membership + 1;
  INSERT INTO market_snapshots (market, generation, membership) VALUES (new.market, 1, 1)
    ON CONFLICT(market) DO UPDATE SET generation = generation + 1, membership = membership + 1;
  UPDATE market_symbol_generation SET market = new.market WHERE symbol_id = new.id;
END;
--> statement-breakpoint
-- A snapshot current at this migration has no writes after it, so it stays servable; a stale one
-- (writes not recorded per symbol) waits for the next build.
UPDATE market_snapshots SET built_membership = membership WHERE key IS NOT NULL AND built_generation = generation;
