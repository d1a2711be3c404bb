CREATE TABLE `slack_change_request` (
	`team_id` text NOT NULL,
	`version` integer NOT NULL,
	`status` text NOT NULL,
	`workspace_id` text NOT NULL,
	`bot_token_enc` text NOT NULL,
	`channels` text NOT NULL,
	`approvers` text NOT NULL,
	`settings` text NOT NULL,
	`proposed_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`activated_at` integer,
	PRIMARY KEY(`team_id`, `version`)
);
--> statement-breakpoint
ALTER TABLE `slack_installation` ADD `settings` text DEFAULT '{}' NOT NULL;