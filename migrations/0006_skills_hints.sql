CREATE TABLE `prompt_hints` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`keywords` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `prompt_hints_owner` ON `prompt_hints` (`owner_id`);--> statement-breakpoint
CREATE TABLE `user_skills` (
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`owner_id`, `name`)
);
--> statement-breakpoint
INSERT OR IGNORE INTO `prompt_hints` (`id`, `owner_id`, `keywords`, `text`, `created_at`) VALUES
  ('h_spring', '*', 'spring,弹簧,shakeout,震仓', 'Spring types: #1 deep break on heavy volume (wait for a Test), #2 moderate break, #3 shallow break on low volume (the strongest); a Spring needs a Test on lower volume before it counts.', 0),
  ('h_utad', '*', 'utad,upthrust,上冲回落,假突破', 'UTAD: a break above resistance in Phase C that fails back into the range; confirm with a SOW or LPSY on expanding volume before calling distribution.', 0),
  ('h_volume', '*', 'volume,成交量,放量,缩量,量价', 'Effort vs result: a wide spread on low volume (no demand/supply) or heavy volume with little progress (absorption) are the tells; compare with the 20-day average.', 0),
  ('h_stop', '*', 'stop,止损,风控,risk', 'Stops: structural stops go below the Spring/LPS low (accumulation) or above the UTAD/LPSY high (distribution); trailing stops only tighten.', 0),
  ('h_limit', '*', '涨停,跌停,一字,limit up,limit down', 'A-share limit-locked bars carry no information about supply and demand: never read their volume as an event.', 0);
