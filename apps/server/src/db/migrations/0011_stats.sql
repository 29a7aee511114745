DROP INDEX "inspections_measured_idx";--> statement-breakpoint
CREATE INDEX "inspections_measured_cover_idx" ON "inspections" USING btree ("measured_at","institution_id","device_id");