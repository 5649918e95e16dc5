DROP INDEX "conversation_logs_org_time_idx";--> statement-breakpoint
CREATE INDEX "conversation_logs_org_time_id_idx" ON "conversation_logs" USING btree ("org_id","timestamp","id");