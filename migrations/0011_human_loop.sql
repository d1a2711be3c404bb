ALTER TABLE `approval_event` ADD `outcome` text;--> statement-breakpoint
ALTER TABLE `approval_event` ADD `channel` text;--> statement-breakpoint
ALTER TABLE `attempt` ADD `holder` text;--> statement-breakpoint
ALTER TABLE `attempt` ADD `persona_id` text;--> statement-breakpoint
ALTER TABLE `gate` ADD `outcome` text;