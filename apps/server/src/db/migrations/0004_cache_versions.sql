CREATE TABLE "cache_versions" (
	"name" varchar(32) PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
