CREATE TABLE `traces` (
	`turn_id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`lines` integer NOT NULL,
	`bytes` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `session_meta` ADD `cache_write_tokens` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `session_meta` ADD `cost_micros` integer DEFAULT 0 NOT NULL;