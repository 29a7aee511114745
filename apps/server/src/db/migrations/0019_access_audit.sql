ALTER TABLE "audit_log" ADD COLUMN "event" varchar(16) DEFAULT 'write' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "change" varchar(8) GENERATED ALWAYS AS (case when event in ('read', 'export') then 'read' when event <> 'write' then 'none' when (before is null or before = 'null'::jsonb) and (after is null or after = 'null'::jsonb) then 'none' when before is null or before = 'null'::jsonb then 'create' when after is null or after = 'null'::jsonb then 'remove' else 'update' end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "outcome" varchar(8) DEFAULT 'ok' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "reason" varchar(32);--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "user_agent" varchar(256) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "row_count" integer;--> statement-breakpoint
CREATE INDEX "audit_log_change_outcome_idx" ON "audit_log" USING btree ("change","outcome","created_at" DESC NULLS LAST);