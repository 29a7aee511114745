CREATE TABLE "activation_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"lookup" varchar(64) NOT NULL,
	"sealed" varchar(120) NOT NULL,
	"scope" varchar(12) NOT NULL,
	"valid_until" timestamp with time zone,
	"status" varchar(8) DEFAULT 'unused' NOT NULL,
	"owner_institution_id" integer,
	"used_by_institution_id" integer,
	"used_by_device_id" integer,
	"used_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activation_codes_status_ck" CHECK (status in ('unused', 'used', 'void'))
);
--> statement-breakpoint
CREATE TABLE "activation_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"code_id" integer NOT NULL,
	"batch_id" integer NOT NULL,
	"code_masked" varchar(19) NOT NULL,
	"scope" varchar(12) NOT NULL,
	"institution_id" integer NOT NULL,
	"device_id" integer,
	"package_id" integer,
	"days" integer,
	"uses_added" integer,
	"term_before" timestamp with time zone,
	"term_after" timestamp with time zone,
	"uses_before" integer,
	"uses_after" integer,
	"operator_kind" varchar(12) NOT NULL,
	"operator_id" integer NOT NULL,
	"operator_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "code_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_no" varchar(32) NOT NULL,
	"scope" varchar(12) NOT NULL,
	"days" integer,
	"package_id" integer,
	"count" integer NOT NULL,
	"valid_until" timestamp with time zone,
	"remark" varchar(200) DEFAULT '' NOT NULL,
	"owner_institution_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "code_batches_grant_ck" CHECK ((scope = 'institution' and days is not null and package_id is null) or (scope = 'device' and (days is null) <> (package_id is null)))
);
--> statement-breakpoint
CREATE TABLE "branch_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"applicant_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"contact_name" varchar(50) NOT NULL,
	"phone" varchar(30) NOT NULL,
	"province" varchar(6) NOT NULL,
	"city" varchar(6) NOT NULL,
	"district" varchar(6),
	"address" varchar(200) DEFAULT '' NOT NULL,
	"username" varchar(64) NOT NULL,
	"state" varchar(12) DEFAULT 'pending' NOT NULL,
	"reason" varchar(200) DEFAULT '' NOT NULL,
	"institution_id" integer,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "branch_applications_state_ck" CHECK ("branch_applications"."state" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_batch_id_code_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."code_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_owner_institution_id_institutions_id_fk" FOREIGN KEY ("owner_institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_used_by_institution_id_institutions_id_fk" FOREIGN KEY ("used_by_institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_used_by_device_id_devices_id_fk" FOREIGN KEY ("used_by_device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_records" ADD CONSTRAINT "activation_records_code_id_activation_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."activation_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_records" ADD CONSTRAINT "activation_records_batch_id_code_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."code_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_records" ADD CONSTRAINT "activation_records_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_records" ADD CONSTRAINT "activation_records_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_records" ADD CONSTRAINT "activation_records_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_batches" ADD CONSTRAINT "code_batches_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_batches" ADD CONSTRAINT "code_batches_owner_institution_id_institutions_id_fk" FOREIGN KEY ("owner_institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_batches" ADD CONSTRAINT "code_batches_created_by_admin_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "branch_applications" ADD CONSTRAINT "branch_applications_applicant_id_institutions_id_fk" FOREIGN KEY ("applicant_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "branch_applications" ADD CONSTRAINT "branch_applications_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "branch_applications" ADD CONSTRAINT "branch_applications_reviewed_by_admin_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activation_codes_lookup_uq" ON "activation_codes" USING btree ("lookup");--> statement-breakpoint
CREATE INDEX "activation_codes_batch_idx" ON "activation_codes" USING btree ("batch_id","id");--> statement-breakpoint
CREATE INDEX "activation_codes_owner_idx" ON "activation_codes" USING btree ("owner_institution_id");--> statement-breakpoint
CREATE INDEX "activation_records_institution_idx" ON "activation_records" USING btree ("institution_id","created_at");--> statement-breakpoint
CREATE INDEX "activation_records_created_idx" ON "activation_records" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "code_batches_no_uq" ON "code_batches" USING btree ("batch_no");--> statement-breakpoint
CREATE INDEX "code_batches_created_idx" ON "code_batches" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "branch_applications_applicant_idx" ON "branch_applications" USING btree ("applicant_id","id");--> statement-breakpoint
CREATE INDEX "branch_applications_state_idx" ON "branch_applications" USING btree ("state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "branch_applications_pending_username_uq" ON "branch_applications" USING btree (lower("username")) WHERE "branch_applications"."state" = 'pending';