CREATE TABLE `always_allowed` (
	`tool_name` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE `approvals` (
	`id` text PRIMARY KEY NOT NULL,
	`turn_id` text NOT NULL,
	`tool_call_id` text NOT NULL,
	`tool_name` text NOT NULL,
	`input` text,
	`status` text NOT NULL,
	`edited_input` text,
	`reason` text,
	`created_at` integer NOT NULL,
	`decided_at` integer
);
--> statement-breakpoint
CREATE TABLE `model_messages` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`turn_id` text NOT NULL,
	`message` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `stream_events` (
	`idx` integer PRIMARY KEY NOT NULL,
	`turn_id` text NOT NULL,
	`chunk` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `turns` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`status` text NOT NULL,
	`user_message_id` text NOT NULL,
	`assistant_message_id` text NOT NULL,
	`lang` text NOT NULL,
	`model_id` text,
	`rounds` integer DEFAULT 0 NOT NULL,
	`error` text,
	`started_at` integer NOT NULL,
	`ended_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `turns_id_unique` ON `turns` (`id`);