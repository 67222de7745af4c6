CREATE TABLE `market_sync_batches` (
	`run_id` text NOT NULL,
	`batch` integer NOT NULL,
	`mode` text NOT NULL,
	`items` text NOT NULL,
	`state` text NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`run_id`, `batch`)
);
--> statement-breakpoint
CREATE TABLE `market_sync_failures` (
	`symbol_id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`reason` text NOT NULL,
	`failures` integer DEFAULT 1 NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `market_sync_failures_at` ON `market_sync_failures` (`at`);--> statement-breakpoint
CREATE TABLE `market_sync_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`market` text NOT NULL,
	`status` text NOT NULL,
	`as_of` text,
	`universe` integer DEFAULT 0 NOT NULL,
	`listed` integer DEFAULT 0 NOT NULL,
	`delisted` integer DEFAULT 0 NOT NULL,
	`batches_total` integer DEFAULT 0 NOT NULL,
	`batches_done` integer DEFAULT 0 NOT NULL,
	`appended` integer DEFAULT 0 NOT NULL,
	`fetched` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`list_requests` integer DEFAULT 0 NOT NULL,
	`error` text,
	`started_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `market_sync_runs_market_started` ON `market_sync_runs` (`market`,`started_at`);--> statement-breakpoint
ALTER TABLE `market_symbols` ADD `st` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `market_symbols` ADD `listed_on` text;--> statement-breakpoint
ALTER TABLE `market_symbols` ADD `total_cap` real;--> statement-breakpoint
ALTER TABLE `market_symbols` ADD `float_cap` real;--> statement-breakpoint
ALTER TABLE `market_symbols` ADD `last_seen` text;