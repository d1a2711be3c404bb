CREATE TABLE `api_key` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`prefix` text NOT NULL,
	`secret_hash` text NOT NULL,
	`subject` text NOT NULL,
	`scopes` text NOT NULL,
	`run_id` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_key_prefix` ON `api_key` (`prefix`);--> statement-breakpoint
CREATE INDEX `api_key_team` ON `api_key` (`team_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `team_limit` (
	`team_id` text NOT NULL,
	`route_class` text NOT NULL,
	`per_team` integer NOT NULL,
	`per_subject` integer NOT NULL,
	`period_s` integer DEFAULT 60 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `route_class`)
);
