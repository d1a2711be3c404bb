CREATE TABLE `memory_migration` (
	`team_id` text PRIMARY KEY NOT NULL,
	`cursor` text DEFAULT '' NOT NULL,
	`copied` integer DEFAULT 0 NOT NULL,
	`verified_hash` text,
	`switched_at` integer
);
