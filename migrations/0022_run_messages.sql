CREATE TABLE `run_message` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` text NOT NULL,
	`team_id` text NOT NULL,
	`run_id` text NOT NULL,
	`author_kind` text NOT NULL,
	`author` text NOT NULL,
	`source` text NOT NULL,
	`task_id` text,
	`text` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `run_message_id` ON `run_message` (`message_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `run_message_dedupe` ON `run_message` (`run_id`,`dedupe_key`);--> statement-breakpoint
CREATE INDEX `run_message_run_seq` ON `run_message` (`run_id`,`seq`);--> statement-breakpoint
CREATE INDEX `slack_message_channel_ts` ON `slack_message` (`channel`,`ts`);--> statement-breakpoint
CREATE INDEX `work_order_team_task` ON `work_order` (`team_id`,`task_id`);