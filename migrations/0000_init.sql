CREATE TABLE `approval_event` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`run_id` text NOT NULL,
	`op_id` text NOT NULL,
	`gate_id` text NOT NULL,
	`policy_key` text NOT NULL,
	`decision` text NOT NULL,
	`approver` text NOT NULL,
	`reason` text,
	`note` text,
	`dedupe_key` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `approval_event_run_op` ON `approval_event` (`run_id`,`op_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `approval_event_dedupe` ON `approval_event` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `approval_event_team_created` ON `approval_event` (`team_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `attempt` (
	`attempt_id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`order_id` text NOT NULL,
	`op_id` text NOT NULL,
	`outcome` text NOT NULL,
	`failure_class` text,
	`next` text NOT NULL,
	`tokens_in` integer DEFAULT 0 NOT NULL,
	`tokens_out` integer DEFAULT 0 NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attempt_run_op` ON `attempt` (`run_id`,`op_id`);--> statement-breakpoint
CREATE INDEX `attempt_run` ON `attempt` (`run_id`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` text NOT NULL,
	`metadata` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_team_created` ON `audit_log` (`team_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `dead_letter` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`run_id` text NOT NULL,
	`op_id` text NOT NULL,
	`reason_code` text NOT NULL,
	`payload` text,
	`created_at` integer NOT NULL,
	`resolved_at` integer,
	`resolver` text
);
--> statement-breakpoint
CREATE INDEX `dead_letter_run` ON `dead_letter` (`run_id`);--> statement-breakpoint
CREATE TABLE `gate_rule` (
	`team_id` text NOT NULL,
	`version` integer NOT NULL,
	`status` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `version`)
);
--> statement-breakpoint
CREATE TABLE `idempotency` (
	`key` text PRIMARY KEY NOT NULL,
	`request_digest` text NOT NULL,
	`response` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `mem_actor_importance` (
	`doc_id` text NOT NULL,
	`actor_key` text NOT NULL,
	`raw_score` real NOT NULL,
	`last_update_at` integer NOT NULL,
	`last_used_at` integer,
	`use_7d` integer DEFAULT 0 NOT NULL,
	`use_30d` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`doc_id`, `actor_key`)
);
--> statement-breakpoint
CREATE TABLE `mem_doc` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`namespace` text NOT NULL,
	`class` text NOT NULL,
	`text` text NOT NULL,
	`tags` text NOT NULL,
	`metadata` text NOT NULL,
	`pinned` integer DEFAULT false NOT NULL,
	`tier` text DEFAULT 'hot' NOT NULL,
	`quality_score` real DEFAULT 0 NOT NULL,
	`supersedes` text,
	`tier_changed_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer
);
--> statement-breakpoint
CREATE INDEX `mem_doc_team_ns` ON `mem_doc` (`team_id`,`namespace`);--> statement-breakpoint
CREATE INDEX `mem_doc_tier` ON `mem_doc` (`tier`,`tier_changed_at`);--> statement-breakpoint
CREATE INDEX `mem_doc_expires` ON `mem_doc` (`expires_at`);--> statement-breakpoint
CREATE TABLE `mem_use_event` (
	`id` text PRIMARY KEY NOT NULL,
	`doc_id` text NOT NULL,
	`actor_key` text NOT NULL,
	`run_id` text,
	`ts` integer NOT NULL,
	`weight` real NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mem_use_event_doc` ON `mem_use_event` (`doc_id`);--> statement-breakpoint
CREATE TABLE `policy_decision` (
	`decision_id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`run_id` text,
	`task_id` text,
	`inputs_digest` text NOT NULL,
	`inputs` text NOT NULL,
	`profile_version` integer NOT NULL,
	`requested_mode` text NOT NULL,
	`effective_mode` text NOT NULL,
	`failure_class` text,
	`attempt_bucket` text,
	`rule_id` text NOT NULL,
	`raw_action` text NOT NULL,
	`selected_action` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `policy_decision_team_created` ON `policy_decision` (`team_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `policy_memory_entry` (
	`entry_id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`skill_name` text NOT NULL,
	`context_hash` text NOT NULL,
	`success_count` integer DEFAULT 0 NOT NULL,
	`failure_count` integer DEFAULT 0 NOT NULL,
	`avg_cost_units` real DEFAULT 0 NOT NULL,
	`avg_steps` real DEFAULT 0 NOT NULL,
	`base_weight` real DEFAULT 1 NOT NULL,
	`recent_outcomes` text NOT NULL,
	`learning_stopped` integer DEFAULT false NOT NULL,
	`archived` integer DEFAULT false NOT NULL,
	`last_used` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `policy_memory_entry_team_skill_ctx` ON `policy_memory_entry` (`team_id`,`skill_name`,`context_hash`);--> statement-breakpoint
CREATE TABLE `policy_memory_ledger` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`run_id` text NOT NULL,
	`entry_id` text NOT NULL,
	`skill_name` text NOT NULL,
	`change` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `policy_memory_ledger_run_skill` ON `policy_memory_ledger` (`run_id`,`skill_name`);--> statement-breakpoint
CREATE TABLE `policy_profile` (
	`team_id` text NOT NULL,
	`version` integer NOT NULL,
	`status` text NOT NULL,
	`body` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`activated_at` integer,
	PRIMARY KEY(`team_id`, `version`)
);
--> statement-breakpoint
CREATE INDEX `policy_profile_team_status` ON `policy_profile` (`team_id`,`status`);--> statement-breakpoint
CREATE TABLE `processed_event` (
	`event_id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`processed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `retry_adjustment` (
	`team_id` text NOT NULL,
	`failure_class` text NOT NULL,
	`backoff_multiplier` real DEFAULT 1 NOT NULL,
	`max_attempts_override` integer,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `failure_class`)
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`run_id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`goal` text NOT NULL,
	`status` text NOT NULL,
	`kind` text DEFAULT 'agent' NOT NULL,
	`slack_channel_id` text,
	`slack_thread_ts` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `runs_team_created` ON `runs` (`team_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `session_event` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`session_kind` text NOT NULL,
	`command` text NOT NULL,
	`outcome` text NOT NULL,
	`need_fingerprint` text NOT NULL,
	`route_id` text NOT NULL,
	`agent_id` text NOT NULL,
	`session_id` text NOT NULL,
	`diagnostic_codes` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `session_event_team_fp` ON `session_event` (`team_id`,`need_fingerprint`,`created_at`);--> statement-breakpoint
CREATE TABLE `sweep_lease` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `team_mode` (
	`team_id` text PRIMARY KEY NOT NULL,
	`ceiling` text NOT NULL,
	`reason` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `work_order` (
	`order_id` text NOT NULL,
	`run_id` text NOT NULL,
	`team_id` text NOT NULL,
	`task_id` text NOT NULL,
	`goal` text NOT NULL,
	`status` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`run_id`, `order_id`)
);
