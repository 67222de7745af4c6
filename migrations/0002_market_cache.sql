CREATE TABLE `market_bar_chunks` (
	`symbol_id` text NOT NULL,
	`year` integer NOT NULL,
	`bars` text NOT NULL,
	PRIMARY KEY(`symbol_id`, `year`)
);
--> statement-breakpoint
CREATE TABLE `market_series` (
	`symbol_id` text PRIMARY KEY NOT NULL,
	`adjust` text NOT NULL,
	`origin` text NOT NULL,
	`first_date` text NOT NULL,
	`last_date` text NOT NULL,
	`bar_count` integer NOT NULL,
	`simulated` integer DEFAULT false NOT NULL,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `market_symbols` (
	`id` text PRIMARY KEY NOT NULL,
	`market` text NOT NULL,
	`exchange` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`pinyin` text DEFAULT '' NOT NULL,
	`kind` text NOT NULL,
	`board` text,
	`industry` text,
	`status` text DEFAULT 'listed' NOT NULL,
	`currency` text NOT NULL,
	`simulated` integer DEFAULT false NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `market_symbols_code` ON `market_symbols` (`code`);--> statement-breakpoint
CREATE INDEX `market_symbols_pinyin` ON `market_symbols` (`pinyin`);--> statement-breakpoint
CREATE INDEX `market_symbols_market_kind` ON `market_symbols` (`market`,`kind`);