CREATE TABLE `row_chunks` (
	`key` text NOT NULL,
	`seq` integer NOT NULL,
	`body` text NOT NULL,
	PRIMARY KEY(`key`, `seq`)
);
