CREATE TABLE `memory_team` (
	`team_id` text PRIMARY KEY NOT NULL,
	`registered_at` integer NOT NULL,
	`swept_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `memory_team_swept` ON `memory_team` (`swept_at`,`team_id`);