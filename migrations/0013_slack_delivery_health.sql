CREATE TABLE `slack_delivery_health` (
	`team_id` text PRIMARY KEY NOT NULL,
	`consecutive_failures` integer NOT NULL,
	`outage_since` integer,
	`last_error` text,
	`updated_at` integer NOT NULL
);
