CREATE TABLE `tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`owner_id` text NOT NULL,
	`session_id` text,
	`status` text NOT NULL,
	`progress_stage` text DEFAULT '' NOT NULL,
	`progress_detail` text DEFAULT '' NOT NULL,
	`progress_pct` integer DEFAULT 0 NOT NULL,
	`input` text,
	`result` text,
	`result_ref` text,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`idempotency_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_idempotency_key_unique` ON `tasks` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `tasks_owner_session` ON `tasks` (`owner_id`,`session_id`,`created_at`);