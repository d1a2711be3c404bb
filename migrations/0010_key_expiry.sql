ALTER TABLE `api_key` ADD `expires_at` integer;--> statement-breakpoint
ALTER TABLE `api_key` ADD `last_used_at` integer;