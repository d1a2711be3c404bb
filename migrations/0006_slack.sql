CREATE TABLE `slack_approver` (
	`team_id` text NOT NULL,
	`slack_user_id` text NOT NULL,
	`subject` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `slack_user_id`)
);
--> statement-breakpoint
CREATE TABLE `slack_inbound` (
	`key` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `slack_installation` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`bot_token_enc` text NOT NULL,
	`channels` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `slack_installation_team` ON `slack_installation` (`team_id`);--> statement-breakpoint
CREATE TABLE `slack_message` (
	`key` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`channel` text NOT NULL,
	`ts` text NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
