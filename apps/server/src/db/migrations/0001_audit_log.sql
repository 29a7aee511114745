CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_kind" varchar(16) NOT NULL,
	"actor_id" integer,
	"actor_name" varchar(64) DEFAULT '' NOT NULL,
	"view_role_id" integer,
	"endpoint" varchar(64) NOT NULL,
	"path" varchar(128) NOT NULL,
	"record_type" varchar(32),
	"record_id" integer,
	"ip" varchar(64) DEFAULT '' NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"input" jsonb
);
--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_record_idx" ON "audit_log" USING btree ("record_type","record_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_kind","actor_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_endpoint_idx" ON "audit_log" USING btree ("endpoint","created_at" DESC NULLS LAST);