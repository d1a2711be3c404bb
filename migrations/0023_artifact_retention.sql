CREATE TABLE `artifact_retention` (
	`team_id` text NOT NULL,
	`kind` text NOT NULL,
	`days` integer NOT NULL,
	`updated_by` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `kind`)
);
--> statement-breakpoint
CREATE INDEX `artifact_team_kind` ON `artifact` (`team_id`,`kind`,`created_at`);