CREATE TABLE `market_snapshots` (
	`market` text PRIMARY KEY NOT NULL,
	`generation` integer DEFAULT 0 NOT NULL,
	`built_generation` integer,
	`key` text,
	`run_id` text,
	`as_of` text,
	`bytes` integer,
	`series` integer,
	`built_at` integer
);
