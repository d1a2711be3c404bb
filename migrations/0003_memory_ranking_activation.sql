CREATE TABLE `mem_activation` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`session_kind` text NOT NULL,
	`agent_id` text,
	`need_fingerprint` text,
	`route_id` text,
	`llm_calls_avoided` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mem_activation_team_created` ON `mem_activation` (`team_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `mem_doc` ADD `importance` real DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE `mem_doc` ADD `last_used_at` integer;--> statement-breakpoint
ALTER TABLE `mem_doc` ADD `refreshed_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `mem_doc` ADD `reinforce_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `mem_doc` ADD `content_hash` text;--> statement-breakpoint
CREATE INDEX `mem_doc_team_hash` ON `mem_doc` (`team_id`,`content_hash`);--> statement-breakpoint
CREATE INDEX `mem_doc_team_class` ON `mem_doc` (`team_id`,`class`);--> statement-breakpoint
CREATE INDEX `session_event_team_kind` ON `session_event` (`team_id`,`session_kind`,`created_at`);