CREATE TABLE "notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" varchar(32) NOT NULL,
	"level" varchar(10) NOT NULL,
	"thing_id" integer NOT NULL,
	"epoch" bigint DEFAULT 0 NOT NULL,
	"recipient_kind" varchar(12) NOT NULL,
	"recipient_id" integer NOT NULL,
	"params" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "reported_version" varchar(64);--> statement-breakpoint
CREATE UNIQUE INDEX "notices_once_uq" ON "notices" USING btree ("kind","thing_id","epoch","recipient_kind","recipient_id");--> statement-breakpoint
CREATE INDEX "notices_recipient_idx" ON "notices" USING btree ("recipient_kind","recipient_id","id");--> statement-breakpoint
CREATE INDEX "notices_unread_idx" ON "notices" USING btree ("recipient_kind","recipient_id") WHERE "notices"."read_at" is null;