CREATE TABLE "mfa_challenges" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"subject_kind" varchar(12) NOT NULL,
	"subject_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mfa_factors" (
	"subject_kind" varchar(12) NOT NULL,
	"subject_id" integer NOT NULL,
	"secret" text,
	"pending_secret" text,
	"enabled_at" timestamp with time zone,
	"last_step" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mfa_factors_subject_kind_subject_id_pk" PRIMARY KEY("subject_kind","subject_id")
);
--> statement-breakpoint
CREATE TABLE "mfa_recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_kind" varchar(12) NOT NULL,
	"subject_id" integer NOT NULL,
	"code_hash" varchar(64) NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mfa_challenges_token_uq" ON "mfa_challenges" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "mfa_challenges_expires_idx" ON "mfa_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mfa_recovery_codes_uq" ON "mfa_recovery_codes" USING btree ("subject_kind","subject_id","code_hash");--> statement-breakpoint
CREATE INDEX "mfa_recovery_codes_subject_idx" ON "mfa_recovery_codes" USING btree ("subject_kind","subject_id");