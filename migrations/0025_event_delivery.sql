CREATE TABLE `event_delivery` (
	`event_id` text NOT NULL,
	`subscriber` text NOT NULL,
	`delivered_at` integer NOT NULL,
	PRIMARY KEY(`event_id`, `subscriber`)
);
