CREATE INDEX "devices_name_idx" ON "devices" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "devices_status_idx" ON "devices" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "devices_inspections_idx" ON "devices" USING btree ("total_inspections","id");--> statement-breakpoint
CREATE INDEX "devices_activated_idx" ON "devices" USING btree ("activated_at","id");--> statement-breakpoint
CREATE INDEX "devices_activated_desc_idx" ON "devices" USING btree ("activated_at" DESC NULLS LAST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "devices_expires_desc_idx" ON "devices" USING btree ("expires_at" DESC NULLS LAST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "devices_seen_idx" ON "devices" USING btree ("last_seen_at","id");--> statement-breakpoint
CREATE INDEX "devices_seen_desc_idx" ON "devices" USING btree ("last_seen_at" DESC NULLS LAST,"id" DESC NULLS FIRST);