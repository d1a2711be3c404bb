CREATE TABLE `deploy_approver_request` (
	`team_id` text NOT NULL,
	`version` integer NOT NULL,
	`subjects` text NOT NULL,
	`status` text NOT NULL,
	`requested_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`applied_at` integer,
	PRIMARY KEY(`team_id`, `version`)
);
--> statement-breakpoint
CREATE TABLE `deploy_approver` (
	`team_id` text NOT NULL,
	`subject` text NOT NULL,
	`version` integer NOT NULL,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `subject`)
);
--> statement-breakpoint
CREATE TABLE `team_limit_request` (
	`team_id` text NOT NULL,
	`version` integer NOT NULL,
	`limits` text NOT NULL,
	`status` text NOT NULL,
	`requested_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`applied_at` integer,
	PRIMARY KEY(`team_id`, `version`)
);
--> statement-breakpoint
CREATE INDEX `runs_status_updated` ON `runs` (`status`,`updated_at`);