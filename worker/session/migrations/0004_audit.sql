CREATE TABLE `audit_entries` (
	`seq` integer PRIMARY KEY NOT NULL,
	`turn_id` text NOT NULL,
	`hash` text NOT NULL,
	`line` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `approvals` ADD `decided_by` text;