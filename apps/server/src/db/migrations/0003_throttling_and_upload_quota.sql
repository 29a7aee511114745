CREATE TABLE "upload_counts" (
	"actor_kind" varchar(16) NOT NULL,
	"actor_id" integer NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "upload_counts_actor_kind_actor_id_day_pk" PRIMARY KEY("actor_kind","actor_id","day")
);
--> statement-breakpoint
DROP INDEX "login_failures_user_idx";--> statement-breakpoint
CREATE INDEX "login_failures_created_idx" ON "login_failures" USING btree ("created_at");