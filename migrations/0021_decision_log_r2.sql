CREATE TABLE `decision_counter` (
	`team_id` text NOT NULL,
	`hour` integer NOT NULL,
	`failure_class` text NOT NULL,
	`mode` text NOT NULL,
	`action` text NOT NULL,
	`decisions` integer NOT NULL,
	`unknown_class` integer NOT NULL,
	`missing_metadata` integer NOT NULL,
	PRIMARY KEY(`team_id`, `hour`, `failure_class`, `mode`, `action`)
);
--> statement-breakpoint
CREATE INDEX `decision_counter_hour` ON `decision_counter` (`hour`);--> statement-breakpoint
CREATE TABLE `decision_log_batch` (
	`batch_id` text PRIMARY KEY NOT NULL,
	`decisions` integer NOT NULL,
	`objects` integer NOT NULL,
	`written_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `decision_log_outage` (
	`hour` integer PRIMARY KEY NOT NULL,
	`failures` integer NOT NULL,
	`last_error` text NOT NULL,
	`last_at` integer NOT NULL
);
--> statement-breakpoint
-- Counters for the decisions already logged in policy_decision (issue 27): GET /v1/metrics and the rollback matrix read
-- counters from now on, so the old rows are counted once here. policy_decision stays, read only, for replay.
INSERT INTO `decision_counter` (`team_id`, `hour`, `failure_class`, `mode`, `action`, `decisions`, `unknown_class`, `missing_metadata`)
SELECT `team_id`, (`created_at` / 3600000) * 3600000, coalesce(`failure_class`, ''), `effective_mode`, `selected_action`, count(*),
	sum(`rule_id` = 'default.unknown_failure_class'), sum(`rule_id` = 'default.missing_metadata')
FROM `policy_decision`
GROUP BY 1, 2, 3, 4, 5;
