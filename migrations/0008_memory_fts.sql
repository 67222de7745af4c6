-- Full-text index of memories that finds Chinese: FTS5 with the trigram tokenizer (any 3+ character
-- substring, CJK included; case-insensitive, so LIKE/GLOB can use it too). Two-character words are
-- matched through `keywords`, stored space-padded (` 回踩 `), which makes them 4-character phrases.
-- External content on memories.seq, kept in sync by the triggers below. If this SQLite lacks the
-- trigram tokenizer, this migration fails (loudly) instead of indexing Chinese as one unsearchable token.
CREATE VIRTUAL TABLE `memories_fts` USING fts5(content, keywords, content='memories', content_rowid='seq', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `memories_fts_insert` AFTER INSERT ON `memories` BEGIN
  INSERT INTO memories_fts(rowid, content, keywords) VALUES (new.seq, new.content, new.keywords);
END;
--> statement-breakpoint
CREATE TRIGGER `memories_fts_delete` AFTER DELETE ON `memories` BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, content, keywords) VALUES ('delete', old.seq, old.content, old.keywords);
END;
--> statement-breakpoint
CREATE TRIGGER `memories_fts_update` AFTER UPDATE OF content, keywords ON `memories` BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, content, keywords) VALUES ('delete', old.seq, old.content, old.keywords);
  INSERT INTO memories_fts(rowid, content, keywords) VALUES (new.seq, new.content, new.keywords);
END;
