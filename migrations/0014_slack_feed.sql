CREATE TABLE `slack_alert_occurrence` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`kind` text NOT NULL,
	`window_start` integer NOT NULL,
	`detail` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `slack_alert_occurrence_window` ON `slack_alert_occurrence` (`team_id`,`kind`,`window_start`);--> statement-breakpoint
CREATE TABLE `slack_feed_run` (
	`run_id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`steps` text NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`muted_at` integer,
	`muted_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
