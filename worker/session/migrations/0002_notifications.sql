CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	`delivered_at` integer
);
