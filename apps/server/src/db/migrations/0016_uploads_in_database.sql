CREATE TABLE "uploads" (
	"name" varchar(64) PRIMARY KEY NOT NULL,
	"content_type" varchar(100) NOT NULL,
	"size" integer NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"content" "bytea" NOT NULL,
	"uploader_kind" varchar(16),
	"uploader_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uploads_name_ck" CHECK ("uploads"."name" ~ '^[0-9a-f]{32}[.][a-z]{3,4}$'),
	CONSTRAINT "uploads_size_ck" CHECK ("uploads"."size" = octet_length("uploads"."content"))
);
