CREATE TABLE "list_columns" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_kind" varchar(12) NOT NULL,
	"subject_id" integer NOT NULL,
	"list" varchar(64) NOT NULL,
	"columns" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "list_views" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_kind" varchar(12) NOT NULL,
	"subject_id" integer NOT NULL,
	"list" varchar(64) NOT NULL,
	"name" varchar(40) NOT NULL,
	"filters" jsonb NOT NULL,
	"sort" varchar(64),
	"sort_order" varchar(8),
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "list_columns_uq" ON "list_columns" USING btree ("subject_kind","subject_id","list");--> statement-breakpoint
CREATE INDEX "list_views_subject_idx" ON "list_views" USING btree ("subject_kind","subject_id","list");--> statement-breakpoint
CREATE UNIQUE INDEX "list_views_name_uq" ON "list_views" USING btree ("subject_kind","subject_id","list","name");--> statement-breakpoint
CREATE UNIQUE INDEX "list_views_default_uq" ON "list_views" USING btree ("subject_kind","subject_id","list") WHERE is_default;