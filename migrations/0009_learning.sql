CREATE TABLE `route_override` (
	`team_id` text NOT NULL,
	`need_fingerprint` text NOT NULL,
	`route_id` text NOT NULL,
	`state` text NOT NULL,
	`set_by` text NOT NULL,
	`set_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `need_fingerprint`, `route_id`)
);
--> statement-breakpoint
CREATE TABLE `route_pin_request` (
	`team_id` text NOT NULL,
	`version` integer NOT NULL,
	`need_fingerprint` text NOT NULL,
	`route_id` text NOT NULL,
	`status` text NOT NULL,
	`requested_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`applied_at` integer,
	PRIMARY KEY(`team_id`, `version`)
);
--> statement-breakpoint
ALTER TABLE `session_event` ADD `activation_id` text;--> statement-breakpoint
ALTER TABLE `session_event` ADD `route_source` text;