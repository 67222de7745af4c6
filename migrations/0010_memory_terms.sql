-- Owner-scoped term table for recall: one row per (owner, term, memory) with the term's frequency,
-- written by D1MemoryStore from `memory/index-terms.ts` (codes, Latin words, CJK trigrams, CJK
-- bigram keywords) plus the reserved term '' whose tf is the memory's length. Recall ranks by bm25
-- from this table through the primary key (owner_id, term) — an indexed lookup over one person's
-- rows — instead of the trigram FTS index over everyone's. memories_fts stays for the API search.
-- Deleting a memory (API, pruning) deletes its terms here; memories that predate this table have no
-- '' row and are indexed by D1MemoryStore.indexPending (run by the daily pruning).
CREATE TABLE `memory_terms` (
	`owner_id` text NOT NULL,
	`term` text NOT NULL,
	`seq` integer NOT NULL,
	`tf` integer NOT NULL,
	PRIMARY KEY (`owner_id`, `term`, `seq`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `memory_terms_seq` ON `memory_terms` (`seq`);
--> statement-breakpoint
CREATE TRIGGER `memory_terms_delete` AFTER DELETE ON `memories` BEGIN
  DELETE FROM memory_terms WHERE seq = old.seq;
END;
