CREATE TABLE `tail_buys` (
	`owner_id` text NOT NULL,
	`run_date` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`decision` text NOT NULL,
	`score` real NOT NULL,
	`classification` text NOT NULL,
	`reason` text NOT NULL,
	`price` real NOT NULL,
	`vwap` real,
	`simulated` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`owner_id`, `run_date`, `code`)
);
--> statement-breakpoint
CREATE INDEX `tail_buys_owner_date` ON `tail_buys` (`owner_id`,`run_date`);