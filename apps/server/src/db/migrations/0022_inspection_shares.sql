CREATE TABLE "inspection_shares" (
	"id" serial PRIMARY KEY NOT NULL,
	"inspection_id" integer NOT NULL,
	"institution_id" integer NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"token_sealed" text NOT NULL,
	"created_by" varchar(64) NOT NULL,
	"created_by_kind" varchar(12) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" varchar(64)
);
--> statement-breakpoint
ALTER TABLE "inspection_shares" ADD CONSTRAINT "inspection_shares_inspection_id_inspections_id_fk" FOREIGN KEY ("inspection_id") REFERENCES "public"."inspections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_shares" ADD CONSTRAINT "inspection_shares_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inspection_shares_token_uq" ON "inspection_shares" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "inspection_shares_inspection_idx" ON "inspection_shares" USING btree ("inspection_id","id");