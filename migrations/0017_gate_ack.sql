ALTER TABLE `gate` ADD `acked_by` text;--> statement-breakpoint
ALTER TABLE `gate` ADD `acked_at` integer;