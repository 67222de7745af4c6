CREATE TABLE `recommendations` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`task_id` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`recommend_date` text NOT NULL,
	`recommend_price` real NOT NULL,
	`camp` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `recommendations_owner_date` ON `recommendations` (`owner_id`,`recommend_date`);--> statement-breakpoint
CREATE TABLE `signals` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`task_id` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`signal_type` text NOT NULL,
	`signal_date` text NOT NULL,
	`status` text NOT NULL,
	`ttl_days` integer NOT NULL,
	`score` real DEFAULT 0 NOT NULL,
	`snap_close` real NOT NULL,
	`regime` text,
	`industry` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `signals_owner_date` ON `signals` (`owner_id`,`signal_date`);