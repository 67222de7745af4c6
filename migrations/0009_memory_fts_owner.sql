-- Owner-scoped full-text search: the FTS index also holds owner_id, so recall matches
-- `owner_id : "<owner>" AND (terms)` and bm25 ranks only that owner's rows, however many memories
-- other people keep in the same database. Rebuilt from memories; the triggers are re-created.
DROP TRIGGER IF EXISTS `memories_fts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `memories_fts_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `memories_fts_update`;
--> statement-breakpoint
DROP TABLE IF EXISTS `memories_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `memories_fts` USING fts5(content, keywords, owner_id, content='memories', content_rowid='seq', tokenize='trigram');
--> statement-breakpoint
INSERT INTO memories_fts(memories_fts) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `memories_fts_insert` AFTER INSERT ON `memories` BEGIN
  INSERT INTO memories_fts(rowid, content, keywords, owner_id) VALUES (new.seq, new.content, new.keywords, new.owner_id);
END;
--> statement-breakpoint
CREATE TRIGGER `memories_fts_delete` AFTER DELETE ON `memories` BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, content, keywords, owner_id) VALUES ('delete', old.seq, old.content, old.keywords, old.owner_id);
END;
--> statement-breakpoint
CREATE TRIGGER `memories_fts_update` AFTER UPDATE OF content, keywords, owner_id ON `memories` BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, content, keywords, owner_id) VALUES ('delete', old.seq, old.content, old.keywords, old.owner_id);
  INSERT INTO memories_fts(rowid, content, keywords, owner_id) VALUES (new.seq, new.content, new.keywords, new.owner_id);
END;
