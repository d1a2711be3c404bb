CREATE TABLE `gate` (
	`gate_id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`run_id` text NOT NULL,
	`op_id` text NOT NULL,
	`policy_key` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`opened_by` text NOT NULL,
	`opened_at` integer NOT NULL,
	`deadline_at` integer,
	`decided_by` text,
	`decided_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `gate_team_status_opened` ON `gate` (`team_id`,`status`,`opened_at`);--> statement-breakpoint
ALTER TABLE `work_order` ADD `skill` text;--> statement-breakpoint
CREATE INDEX `work_order_team_status_created` ON `work_order` (`team_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `runs_team_status_created` ON `runs` (`team_id`,`status`,`created_at`);