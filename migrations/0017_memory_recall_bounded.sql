-- Recall whose cost depends on the query's terms, not on how many memories the person holds
-- (issue 21): the bm25 statistics (memories per person, their total length, memories per term) are
-- kept per (owner, term) in memory_term_stats by triggers instead of counted over the person's
-- postings on every recall, and each posting carries an impact (its bm25 term weight at a reference
-- length of 40, `storage/memory-terms.ts` impactSql) indexed per (owner, term), so recall reads a
-- bounded number of each query term's best postings.
CREATE TABLE `memory_term_stats` (
	`owner_id` text NOT NULL,
	`term` text NOT NULL,
	`df` integer NOT NULL,
	`total` integer NOT NULL,
	PRIMARY KEY (`owner_id`, `term`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `memory_term_stats` (`owner_id`, `term`, `df`, `total`)
  SELECT `owner_id`, `term`, count(*), sum(`tf`) FROM `memory_terms` GROUP BY `owner_id`, `term`;
--> statement-breakpoint
CREATE TRIGGER `memory_term_stats_insert` AFTER INSERT ON `memory_terms` BEGIN
  INSERT OR IGNORE INTO memory_term_stats (owner_id, term, df, total) VALUES (new.owner_id, new.term, 0, 0);
  UPDATE memory_term_stats SET df = df + 1, total = total + new.tf WHERE owner_id = new.owner_id AND term = new.term;
END;
--> statement-breakpoint
CREATE TRIGGER `memory_term_stats_delete` AFTER DELETE ON `memory_terms` BEGIN
  UPDATE memory_term_stats SET df = df - 1, total = total - old.tf WHERE owner_id = old.owner_id AND term = old.term;
  DELETE FROM memory_term_stats WHERE owner_id = old.owner_id AND term = old.term AND df <= 0;
END;
--> statement-breakpoint
ALTER TABLE `memory_terms` ADD `impact` real DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `memory_terms` SET `impact` = `tf` * 1.0 / (`tf` + 1.2 * (0.25 + 0.75 * `len` / 40.0));
--> statement-breakpoint
CREATE INDEX `memory_terms_impact` ON `memory_terms` (`owner_id`, `term`, `impact`, `seq`, `tf`, `len`);
