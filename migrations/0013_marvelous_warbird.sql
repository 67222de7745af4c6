PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_usage_daily` (
	`owner_id` text NOT NULL,
	`day` text NOT NULL,
	`model` text NOT NULL,
	`purpose` text DEFAULT 'turn' NOT NULL,
	`turns` integer DEFAULT 0 NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`cache_read_tokens` integer DEFAULT 0 NOT NULL,
	`cache_write_tokens` integer DEFAULT 0 NOT NULL,
	`cost_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`owner_id`, `day`, `model`, `purpose`)
);
--> statement-breakpoint
INSERT INTO `__new_usage_daily`("owner_id", "day", "model", "purpose", "turns", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros") SELECT "owner_id", "day", "model", 'turn', "turns", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros" FROM `usage_daily`;--> statement-breakpoint
DROP TABLE `usage_daily`;--> statement-breakpoint
ALTER TABLE `__new_usage_daily` RENAME TO `usage_daily`;--> statement-breakpoint
PRAGMA foreign_keys=ON;