-- Each posting carries its memory's length (the tf of its '' row), so recall's bm25 reads one
-- range of the primary key per query term instead of seeking the length row for every posting
-- (the cost that grows when one person holds thousands of matching memories).
ALTER TABLE `memory_terms` ADD `len` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `memory_terms` SET `len` = (
  SELECT l.tf FROM memory_terms l WHERE l.owner_id = memory_terms.owner_id AND l.term = '' AND l.seq = memory_terms.seq
);
