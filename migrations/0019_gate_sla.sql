CREATE TABLE `gate_sla_alert` (
	`gate_id` text NOT NULL,
	`breach` text NOT NULL,
	`team_id` text NOT NULL,
	`alerted_at` integer NOT NULL,
	PRIMARY KEY(`gate_id`, `breach`)
);
--> statement-breakpoint
CREATE TABLE `team_gate_sla` (
	`team_id` text PRIMARY KEY NOT NULL,
	`settings` text NOT NULL,
	`updated_by` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `gate_status_opened` ON `gate` (`status`,`opened_at`);