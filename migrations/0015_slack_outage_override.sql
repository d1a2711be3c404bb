CREATE TABLE `slack_response_url_use` (
	`url_hash` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`first_used_at` integer NOT NULL,
	`uses` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `slack_delivery_health` ADD `override_requested_by` text;--> statement-breakpoint
ALTER TABLE `slack_delivery_health` ADD `override_requested_at` integer;--> statement-breakpoint
ALTER TABLE `slack_delivery_health` ADD `override_reason` text;--> statement-breakpoint
ALTER TABLE `slack_delivery_health` ADD `override_ttl_ms` integer;--> statement-breakpoint
ALTER TABLE `slack_delivery_health` ADD `override_confirmed_by` text;--> statement-breakpoint
ALTER TABLE `slack_delivery_health` ADD `override_until` integer;