CREATE TABLE "device_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"institution_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"order_no" varchar(64) NOT NULL,
	"amount_cents" bigint NOT NULL,
	"channel" varchar(20) NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"end_user_id" integer,
	"status" varchar(10) DEFAULT 'paid' NOT NULL,
	"uses_added" integer,
	"days_added" integer,
	"uses_after" integer,
	"expires_before" timestamp with time zone,
	"expires_after" timestamp with time zone,
	"l1_institution_id" integer,
	"l1_cents" bigint DEFAULT 0 NOT NULL,
	"l2_institution_id" integer,
	"l2_cents" bigint DEFAULT 0 NOT NULL,
	"platform_cents" bigint DEFAULT 0 NOT NULL,
	"refunded_at" timestamp with time zone,
	"refund_reason" varchar(200) DEFAULT '' NOT NULL,
	"refunded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_payments_amount_ck" CHECK (amount_cents >= 0 and l1_cents >= 0 and l2_cents >= 0 and platform_cents >= 0 and l1_cents + l2_cents + platform_cents = amount_cents)
);
--> statement-breakpoint
CREATE TABLE "finance_accounts" (
	"institution_id" integer PRIMARY KEY NOT NULL,
	"balance_cents" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "finance_accounts_balance_ck" CHECK (balance_cents >= 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"institution_id" integer NOT NULL,
	"kind" varchar(20) NOT NULL,
	"amount_cents" bigint NOT NULL,
	"balance_after_cents" bigint NOT NULL,
	"ref_type" varchar(12) NOT NULL,
	"ref_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_amount_ck" CHECK (amount_cents <> 0 and balance_after_cents >= 0)
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"institution_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"bank" varchar(100) NOT NULL,
	"account_name" varchar(50) NOT NULL,
	"account_no" varchar(34) NOT NULL,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"reason" varchar(200) DEFAULT '' NOT NULL,
	"voucher" varchar(300) DEFAULT '' NOT NULL,
	"decided_by" varchar(64) DEFAULT '' NOT NULL,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_amount_ck" CHECK (amount_cents > 0)
);
--> statement-breakpoint
CREATE TABLE "distribution_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"record_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"from_institution_id" integer,
	"to_institution_id" integer
);
--> statement-breakpoint
CREATE TABLE "distribution_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"from_institution_id" integer,
	"to_institution_id" integer,
	"device_count" integer NOT NULL,
	"operator_id" integer,
	"operator_name" varchar(50) NOT NULL,
	"remark" varchar(200) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inspections" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"institution_id" integer NOT NULL,
	"inspection_no" varchar(64) NOT NULL,
	"measured_at" timestamp with time zone NOT NULL,
	"doctor_id" integer,
	"end_user_id" integer NOT NULL,
	"readings" jsonb NOT NULL,
	"vitals" jsonb,
	"analysis" jsonb,
	"remaining_uses" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "rate_window" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "rate_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_payments" ADD CONSTRAINT "device_payments_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_payments" ADD CONSTRAINT "device_payments_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_payments" ADD CONSTRAINT "device_payments_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_payments" ADD CONSTRAINT "device_payments_l1_institution_id_institutions_id_fk" FOREIGN KEY ("l1_institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_payments" ADD CONSTRAINT "device_payments_l2_institution_id_institutions_id_fk" FOREIGN KEY ("l2_institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_payments" ADD CONSTRAINT "device_payments_refunded_by_admin_users_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_accounts" ADD CONSTRAINT "finance_accounts_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_lines" ADD CONSTRAINT "distribution_lines_record_id_distribution_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."distribution_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_lines" ADD CONSTRAINT "distribution_lines_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_lines" ADD CONSTRAINT "distribution_lines_from_institution_id_institutions_id_fk" FOREIGN KEY ("from_institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_lines" ADD CONSTRAINT "distribution_lines_to_institution_id_institutions_id_fk" FOREIGN KEY ("to_institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_records" ADD CONSTRAINT "distribution_records_from_institution_id_institutions_id_fk" FOREIGN KEY ("from_institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_records" ADD CONSTRAINT "distribution_records_to_institution_id_institutions_id_fk" FOREIGN KEY ("to_institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_records" ADD CONSTRAINT "distribution_records_operator_id_admin_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspections" ADD CONSTRAINT "inspections_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspections" ADD CONSTRAINT "inspections_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspections" ADD CONSTRAINT "inspections_doctor_id_doctors_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspections" ADD CONSTRAINT "inspections_end_user_id_end_users_id_fk" FOREIGN KEY ("end_user_id") REFERENCES "public"."end_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_payments_order_uq" ON "device_payments" USING btree ("device_id","order_no");--> statement-breakpoint
CREATE INDEX "device_payments_paid_idx" ON "device_payments" USING btree ("paid_at","id");--> statement-breakpoint
CREATE INDEX "device_payments_inst_idx" ON "device_payments" USING btree ("institution_id","paid_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_inst_idx" ON "ledger_entries" USING btree ("institution_id","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_created_idx" ON "ledger_entries" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_ref_idx" ON "ledger_entries" USING btree ("ref_type","ref_id");--> statement-breakpoint
CREATE INDEX "payouts_inst_idx" ON "payouts" USING btree ("institution_id","created_at");--> statement-breakpoint
CREATE INDEX "payouts_status_idx" ON "payouts" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "distribution_lines_record_idx" ON "distribution_lines" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "distribution_lines_device_idx" ON "distribution_lines" USING btree ("device_id","id");--> statement-breakpoint
CREATE INDEX "distribution_records_created_idx" ON "distribution_records" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "distribution_records_from_idx" ON "distribution_records" USING btree ("from_institution_id");--> statement-breakpoint
CREATE INDEX "distribution_records_to_idx" ON "distribution_records" USING btree ("to_institution_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inspections_device_no_uq" ON "inspections" USING btree ("device_id","inspection_no");--> statement-breakpoint
CREATE INDEX "inspections_institution_idx" ON "inspections" USING btree ("institution_id","id");--> statement-breakpoint
CREATE INDEX "inspections_user_idx" ON "inspections" USING btree ("end_user_id");--> statement-breakpoint
CREATE INDEX "inspections_measured_idx" ON "inspections" USING btree ("measured_at");--> statement-breakpoint
ALTER TABLE "institutions" DROP COLUMN "balance";