CREATE TABLE "stats_activations_daily" (
	"day" date NOT NULL,
	"institution_id" integer,
	"n" bigint NOT NULL,
	CONSTRAINT "stats_activations_daily_key" UNIQUE NULLS NOT DISTINCT("day","institution_id")
);
--> statement-breakpoint
CREATE TABLE "stats_devices" (
	"institution_id" integer,
	"status" varchar(12) NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "stats_devices_key" UNIQUE NULLS NOT DISTINCT("institution_id","status")
);
--> statement-breakpoint
CREATE TABLE "stats_inspection_devices" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"pairs" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_inspection_pair_days" (
	"day" date NOT NULL,
	"institution_id" integer NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "stats_inspection_pair_days_pk" PRIMARY KEY("day","institution_id")
);
--> statement-breakpoint
CREATE TABLE "stats_inspection_pairs" (
	"device_id" integer NOT NULL,
	"institution_id" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stats_inspection_pairs_pk" PRIMARY KEY("device_id","institution_id")
);
--> statement-breakpoint
CREATE TABLE "stats_inspections_daily" (
	"day" date NOT NULL,
	"institution_id" integer NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "stats_inspections_daily_pk" PRIMARY KEY("day","institution_id")
);
--> statement-breakpoint
CREATE TABLE "stats_ledger_daily" (
	"institution_id" integer NOT NULL,
	"day" date NOT NULL,
	"amount_cents" bigint NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "stats_ledger_daily_pk" PRIMARY KEY("institution_id","day")
);
--> statement-breakpoint
CREATE TABLE "stats_payments_daily" (
	"day" date NOT NULL,
	"institution_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"l1_institution_id" integer,
	"l2_institution_id" integer,
	"n" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"l1_cents" bigint NOT NULL,
	"l2_cents" bigint NOT NULL,
	"platform_cents" bigint NOT NULL,
	CONSTRAINT "stats_payments_daily_key" UNIQUE NULLS NOT DISTINCT("day","institution_id","package_id","l1_institution_id","l2_institution_id")
);
--> statement-breakpoint
CREATE INDEX "stats_inspection_devices_multi_idx" ON "stats_inspection_devices" USING btree ("device_id") WHERE pairs > 1;