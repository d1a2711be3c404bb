CREATE TABLE `artifact` (
	`artifact_id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`run_id` text NOT NULL,
	`op_id` text,
	`kind` text NOT NULL,
	`uri` text NOT NULL,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`status` text NOT NULL,
	`gate_id` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `artifact_run` ON `artifact` (`run_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `artifact_team` ON `artifact` (`team_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `artifact_expiry` ON `artifact` (`expires_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `artifact_uri` ON `artifact` (`uri`);