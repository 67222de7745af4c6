CREATE TABLE `audit_tombstones` (
	`session_id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`head_hash` text NOT NULL,
	`entries` integer NOT NULL,
	`signed` integer NOT NULL,
	`deleted_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_tombstones_owner` ON `audit_tombstones` (`owner_id`,`deleted_at`);--> statement-breakpoint
ALTER TABLE `shares` ADD `expose_audit` integer DEFAULT false NOT NULL;