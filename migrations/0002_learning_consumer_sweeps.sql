CREATE TABLE `event_dead_letter` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text,
	`event_id` text,
	`type` text,
	`body` text NOT NULL,
	`attempts` integer NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `event_dead_letter_team_received` ON `event_dead_letter` (`team_id`,`received_at`);--> statement-breakpoint
CREATE TABLE `failure_signature` (
	`team_id` text NOT NULL,
	`signature` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`task_key` text,
	`reason` text,
	`exit_code_bucket` text,
	`first_seen_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `signature`)
);
--> statement-breakpoint
CREATE TABLE `gate_metric` (
	`gate_id` text NOT NULL,
	`team_id` text NOT NULL,
	`run_id` text NOT NULL,
	`policy_key` text,
	`kind` text,
	`opened_at` integer,
	`decided_at` integer,
	`decision` text,
	`decided_by` text,
	`latency_ms` integer,
	PRIMARY KEY(`team_id`, `gate_id`)
);
--> statement-breakpoint
CREATE INDEX `gate_metric_team_opened` ON `gate_metric` (`team_id`,`opened_at`);--> statement-breakpoint
CREATE TABLE `run_task_outcome` (
	`team_id` text NOT NULL,
	`run_id` text NOT NULL,
	`task_id` text NOT NULL,
	`skill` text,
	`context` text,
	`succeeded` integer DEFAULT 0 NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`blocks` integer DEFAULT 0 NOT NULL,
	`first_failure_class` text,
	`last_failure_class` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`cost_units` real DEFAULT 0 NOT NULL,
	`steps` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `run_id`, `task_id`)
);
--> statement-breakpoint
CREATE INDEX `run_task_outcome_updated` ON `run_task_outcome` (`updated_at`);--> statement-breakpoint
DROP INDEX `policy_memory_ledger_run_skill`;--> statement-breakpoint
ALTER TABLE `policy_memory_ledger` ADD `seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `policy_memory_ledger_team_run_skill` ON `policy_memory_ledger` (`team_id`,`run_id`,`skill_name`);--> statement-breakpoint
CREATE INDEX `policy_memory_ledger_entry_seq` ON `policy_memory_ledger` (`entry_id`,`seq`);--> statement-breakpoint
ALTER TABLE `policy_memory_entry` ADD `ledger_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `policy_memory_entry_archive` ON `policy_memory_entry` (`archived`,`last_used`);--> statement-breakpoint
ALTER TABLE `retry_adjustment` ADD `recovered_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `retry_adjustment` ADD `exhausted_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `retry_adjustment` ADD `recovery_attempts_sum` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `retry_adjustment` ADD `ledger_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `policy_decision_created` ON `policy_decision` (`created_at`);