ALTER TABLE `session_event` ADD `failure_cause` text;--> statement-breakpoint
ALTER TABLE `session_event` ADD `episode_index` integer;--> statement-breakpoint
ALTER TABLE `session_event` ADD `offered_route_id` text;