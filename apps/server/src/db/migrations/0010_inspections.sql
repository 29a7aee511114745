CREATE TABLE "inspection_analyses" (
	"id" serial PRIMARY KEY NOT NULL,
	"inspection_id" integer NOT NULL,
	"version" integer NOT NULL,
	"analysis" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" varchar(64) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "treatment_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"inspection_id" integer NOT NULL,
	"institution_id" integer NOT NULL,
	"session_date" date NOT NULL,
	"acupoint_ids" jsonb NOT NULL,
	"minutes" integer NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_by" varchar(64) NOT NULL,
	"created_by_kind" varchar(12) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "analysis_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "worst_level" varchar(10) GENERATED ALWAYS AS (case when analysis is null then null when jsonb_path_exists(analysis, '$.systems[*] ? (@.level == "abnormal")') then 'abnormal' when jsonb_path_exists(analysis, '$.systems[*] ? (@.level == "attention")') then 'attention' else 'normal' end) STORED;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "top_risk" varchar(10) GENERATED ALWAYS AS (case when analysis is null then null else coalesce(analysis->'diseases'->0->>'risk', 'none') end) STORED;--> statement-breakpoint
ALTER TABLE "inspection_analyses" ADD CONSTRAINT "inspection_analyses_inspection_id_inspections_id_fk" FOREIGN KEY ("inspection_id") REFERENCES "public"."inspections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_sessions" ADD CONSTRAINT "treatment_sessions_inspection_id_inspections_id_fk" FOREIGN KEY ("inspection_id") REFERENCES "public"."inspections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_sessions" ADD CONSTRAINT "treatment_sessions_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inspection_analyses_version_uq" ON "inspection_analyses" USING btree ("inspection_id","version");--> statement-breakpoint
CREATE INDEX "treatment_sessions_inspection_idx" ON "treatment_sessions" USING btree ("inspection_id","id");--> statement-breakpoint
CREATE INDEX "treatment_sessions_institution_idx" ON "treatment_sessions" USING btree ("institution_id");--> statement-breakpoint
CREATE INDEX "inspections_institution_measured_idx" ON "inspections" USING btree ("institution_id","measured_at");