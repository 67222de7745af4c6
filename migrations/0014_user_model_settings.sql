CREATE TABLE `user_model_settings` (
	`owner_id` text PRIMARY KEY NOT NULL,
	`base_url` text NOT NULL,
	`model` text NOT NULL,
	`provider` text,
	`api_key` text,
	`api_key_hint` text,
	`fallback_base_url` text,
	`fallback_model` text,
	`fallback_provider` text,
	`fallback_api_key` text,
	`fallback_api_key_hint` text,
	`context_window` integer,
	`updated_at` integer NOT NULL
);
