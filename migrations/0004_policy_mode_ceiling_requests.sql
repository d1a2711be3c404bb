CREATE TABLE `mode_ceiling_request` (
	`team_id` text NOT NULL,
	`version` integer NOT NULL,
	`ceiling` text NOT NULL,
	`status` text NOT NULL,
	`requested_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`applied_at` integer,
	PRIMARY KEY(`team_id`, `version`)
);
