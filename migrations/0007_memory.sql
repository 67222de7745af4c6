CREATE TABLE `memories` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`owner_id` text NOT NULL,
	`type` text NOT NULL,
	`content` text NOT NULL,
	`keywords` text DEFAULT '' NOT NULL,
	`codes` text DEFAULT '' NOT NULL,
	`relevance` real DEFAULT 1 NOT NULL,
	`origin` text NOT NULL,
	`source_ref` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`last_hit_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memories_id_unique` ON `memories` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `memories_owner_dedupe` ON `memories` (`owner_id`,`type`,`content`,`codes`);--> statement-breakpoint
CREATE INDEX `memories_owner_type_updated` ON `memories` (`owner_id`,`type`,`updated_at`);