DROP INDEX "room_reads_org_user_idx";--> statement-breakpoint
CREATE INDEX "rooms_inbox_count_idx" ON "rooms" USING btree ("org_id","folder","status","agent_account_id","id","last_inbound_message_id") WHERE kind = 'live';--> statement-breakpoint
CREATE INDEX "room_reads_org_user_read_idx" ON "room_reads" USING btree ("org_id","user_id","room_id","last_read_message_id","marked_unread");