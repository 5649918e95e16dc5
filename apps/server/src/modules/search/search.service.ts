import type { SearchResult } from "@switchboard/api";
import { formatPhoneNumber } from "@switchboard/core";
import { sql } from "drizzle-orm";
import type { Access } from "../../access/access.ts";
import { type Database, executeRows } from "../../db/client.ts";
import { organizationOf } from "../runtime/index.ts";

/** `%phrase%` for ILIKE, with the pattern characters of the phrase taken literally. */
function contains(phrase: string): string {
  return `%${phrase.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type Row = Record<string, unknown>;

/** A contact's addresses as a person reads them: numbers formatted, e-mail addresses as they are. */
function readableAddresses(addresses: string): string {
  return addresses
    .split(", ")
    .filter(Boolean)
    .map((address) => (address.includes("@") ? address : formatPhoneNumber(address)))
    .join(", ");
}

/**
 * One search box over what the target account holds. Each kind is one indexed query: "contains" on names
 * and addresses through the trigram indexes (migration 0016), words of messages through the full-text index.
 */
export function createSearchService(db: Database) {
  async function search(access: Access, phrase: string, limit: number, enhanced: boolean) {
    const target = access.target;
    const orgId = organizationOf(target);
    const agentId = target.accountType === "agent" ? target.id : null;
    const like = contains(phrase);
    const results: SearchResult[] = [];
    if (orgId !== null) {
      const contacts = await executeRows<Row>(
        db,
        sql`
          select c.id, c.display_name as name,
            (select string_agg(a.address, ', ') from contact_addresses a where a.contact_id = c.id) as addresses
          from contacts c
          where c.org_id = ${orgId} and (
            c.display_name ilike ${like}
            or exists (select 1 from contact_addresses a where a.org_id = ${orgId} and a.contact_id = c.id and a.address ilike ${like})
          )
          order by c.display_name limit ${limit}`,
      );
      for (const c of contacts)
        results.push({
          type: "contact",
          id: String(c.id),
          title: String(c.name || "Unnamed contact"),
          subtitle: readableAddresses(String(c.addresses ?? "")),
          link: `contacts?previewContact=${c.id}`,
        });
      const rooms = await executeRows<Row>(
        db,
        sql`
          select r.id, r.title, r.external_address, r.channel, r.last_message_text
          from rooms r
          where r.org_id = ${orgId} and r.kind = 'live'
            ${agentId !== null ? sql`and r.agent_account_id = ${agentId}` : sql``}
            and (
              (coalesce(r.title, '') || ' ' || coalesce(r.external_address, '')) ilike ${like}
              or exists (select 1 from contact_addresses a join contacts c on c.id = a.contact_id
                where a.org_id = ${orgId} and a.address = r.external_address and c.display_name ilike ${like})
              ${
                enhanced
                  ? sql`or exists (select 1 from conversation_messages m where m.room_id = r.id
                      and to_tsvector('simple', m.text) @@ plainto_tsquery('simple', ${phrase}))`
                  : sql``
              }
            )
          order by r.last_message_at desc nulls last limit ${limit}`,
      );
      for (const r of rooms) {
        const address = typeof r.external_address === "string" ? r.external_address : "";
        results.push({
          type: "conversation",
          id: String(r.id),
          title: String(r.title || (address ? formatPhoneNumber(address) : "Conversation")),
          subtitle: String(r.last_message_text ?? ""),
          link: `inbox?active=${encodeURIComponent(String(r.id))}`,
        });
      }
      if (access.permissions.canViewTasks) {
        // The people of outbound task lists (and single tasks), newest first.
        const tasks = await executeRows<Row>(
          db,
          sql`
            select t.id, t.name, t.phone_number, t.state, l.name as list_name
            from tasks t left join task_lists l on l.id = t.list_id
            where t.org_id = ${orgId}
              ${agentId !== null ? sql`and t.agent_account_id = ${agentId}` : sql``}
              and (coalesce(t.name, '') || ' ' || t.phone_number || ' ' || coalesce(t.email, '')) ilike ${like}
            order by t.created_at desc, t.id limit ${limit}`,
        );
        for (const t of tasks) {
          const phone = formatPhoneNumber(String(t.phone_number));
          results.push({
            type: "task",
            id: String(t.id),
            title: String(t.name || phone),
            subtitle: [t.name ? phone : null, t.list_name ? `List: ${t.list_name}` : "Single task", t.state]
              .filter(Boolean)
              .join(" · "),
            link: `tasks?editTask=${encodeURIComponent(String(t.id))}`,
          });
        }
      }
      if (agentId === null) {
        const agents = await executeRows<Row>(
          db,
          sql`
            select a.id, coalesce(a.details->>'agentName', a.username) as name, a.switchboard_phone_number as phone
            from accounts a
            where a.organization_id = ${orgId} and a.account_type = 'agent' and a.deleted_at is null
              and (lower(a.username) || ' ' || coalesce(a.details->>'displayName', '') || ' ' || coalesce(a.details->>'orgName', '') || ' ' || coalesce(a.details->>'agentName', '') || ' ' || coalesce(a.details->>'resellerName', '') || ' ' || coalesce(a.details->>'name', '')) ilike ${like}
            order by a.id limit ${limit}`,
        );
        for (const a of agents)
          results.push({
            type: "agent",
            id: String(a.id),
            title: String(a.name),
            subtitle: a.phone ? formatPhoneNumber(String(a.phone)) : "Agent",
            link: `agents?editAgent=${a.id}`,
          });
      }
    } else if (
      target.accountType === "partner" ||
      target.accountType === "reseller" ||
      access.caller.user.superAdmin
    ) {
      // Accounts below a partner or reseller (a super admin on a platform account: every account).
      const below =
        target.accountType === "partner"
          ? sql`a.partner_id = ${target.id}`
          : target.accountType === "reseller"
            ? sql`a.reseller_id = ${target.id}`
            : sql`true`;
      const accounts = await executeRows<Row>(
        db,
        sql`
          select a.id, a.account_type, a.username,
            coalesce(a.details->>'orgName', a.details->>'resellerName', a.details->>'agentName', a.details->>'partnerName', a.username) as name
          from accounts a
          where ${below} and a.id <> ${target.id} and a.deleted_at is null
            and (lower(a.username) || ' ' || coalesce(a.details->>'displayName', '') || ' ' || coalesce(a.details->>'orgName', '') || ' ' || coalesce(a.details->>'agentName', '') || ' ' || coalesce(a.details->>'resellerName', '') || ' ' || coalesce(a.details->>'name', '')) ilike ${like}
          order by a.id limit ${limit}`,
      );
      const segment: Record<string, string> = {
        partner: "partner",
        reseller: "reseller",
        organization: "org",
        agent: "agent",
      };
      for (const a of accounts)
        results.push({
          type: "account",
          id: String(a.id),
          title: String(a.name),
          subtitle: `${String(a.account_type)} · ${String(a.username)}`,
          link: `${segment[String(a.account_type)] ?? "org"}/${a.id}`,
        });
    }
    return { success: true as const, results: results.slice(0, limit * 3) };
  }
  return { search };
}
