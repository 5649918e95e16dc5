import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  accounts,
  contactAddresses,
  contacts,
  conversationMessages,
  conversations,
  phoneNumbers,
  roomParticipants,
  rooms,
} from "../db/schema/index.ts";

/** The demo Front Desk agent's number: text it from the phone simulator (Developers). */
export const DEMO_AGENT_NUMBER = "+15035550123";

type DemoLine = { role: "user" | "assistant" | "operator"; text: string };

const DEMO_CONVERSATIONS: {
  address: string;
  aiAgentEnabled: boolean;
  minutesAgo: number;
  lines: DemoLine[];
}[] = [
  {
    address: "+15035550142",
    aiAgentEnabled: true,
    minutesAgo: 95,
    lines: [
      { role: "user", text: "Hi, what are your opening hours?" },
      { role: "assistant", text: "Our opening hours are Mon-Fri 8am-5pm." },
      { role: "user", text: "Great, thanks!" },
    ],
  },
  {
    address: "+15035550188",
    aiAgentEnabled: true,
    minutesAgo: 40,
    lines: [
      { role: "user", text: "Do you take Delta Dental insurance?" },
      { role: "assistant", text: "We accept most major PPO plans. Would you like to book a visit?" },
    ],
  },
  {
    address: "+15035550175",
    aiAgentEnabled: false,
    minutesAgo: 12,
    lines: [
      { role: "user", text: "My crown came loose, can someone call me?" },
      { role: "operator", text: "Sorry to hear that! Dr. Lee will call you within the hour." },
      { role: "user", text: "Thank you so much." },
    ],
  },
];

/**
 * The demo inbox of Bluebird Dental: the Front Desk agent gets a number, a contact, and three text
 * conversations (two the AI agent handled, one a person took over), so the inbox is alive on first start.
 */
export async function seedDemoInbox(db: Database, orgId: number, frontDeskId: number): Promise<void> {
  await db
    .update(accounts)
    .set({ switchboardPhoneNumber: DEMO_AGENT_NUMBER })
    .where(eq(accounts.id, frontDeskId));
  // The organisation's number (the Numbers page), from the sandbox carrier.
  await db.insert(phoneNumbers).values({
    orgId,
    agentAccountId: frontDeskId,
    number: DEMO_AGENT_NUMBER,
    country: "US",
    region: "OR",
    locality: "Portland",
    kind: "marketplace",
    provider: "sandbox",
    providerId: `SB${DEMO_AGENT_NUMBER.slice(1)}`,
  });
  const [maria] = await db
    .insert(contacts)
    .values({
      orgId,
      displayName: "Maria Lopez",
      data: {
        firstName: "Maria",
        lastName: "Lopez",
        phone: "+15035550142",
        notes: "Prefers morning visits.",
      },
    })
    .returning();
  if (maria)
    await db.insert(contactAddresses).values({ orgId, address: "+15035550142", contactId: maria.id });
  for (const demo of DEMO_CONVERSATIONS) {
    const roomId = randomUUID();
    const uuid = randomUUID();
    const start = Date.now() - demo.minutesAgo * 60_000;
    await db.insert(rooms).values({
      id: roomId,
      orgId,
      agentAccountId: frontDeskId,
      channel: "sms",
      kind: "live",
      aiAgentEnabled: demo.aiAgentEnabled,
      externalAddress: demo.address,
      title: demo.address,
      createdAt: new Date(start),
    });
    await db.insert(roomParticipants).values([
      { orgId, roomId, kind: "agent", accountId: frontDeskId, displayName: "Front Desk" },
      { orgId, roomId, kind: "external", address: demo.address },
    ]);
    await db.insert(conversations).values({
      uuid,
      orgId,
      roomId,
      agentAccountId: frontDeskId,
      channel: "sms",
      stage: "production",
      direction: "inbound",
      fromAddress: demo.address,
      toAddress: DEMO_AGENT_NUMBER,
      model: "Sandbox model",
      startedAt: new Date(start),
      lastActivityAt: new Date(start + demo.lines.length * 60_000),
    });
    let lastInbound: number | null = null;
    let last: { text: string; at: Date } | null = null;
    for (const [index, line] of demo.lines.entries()) {
      const at = new Date(start + index * 60_000);
      const [row] = await db
        .insert(conversationMessages)
        .values({
          orgId,
          roomId,
          conversationUuid: uuid,
          role: line.role,
          text: line.text,
          senderAddress: line.role === "user" ? demo.address : DEMO_AGENT_NUMBER,
          deliveryStatus: line.role === "user" ? "received" : "delivered",
          model: line.role === "assistant" ? "Sandbox model" : null,
          createdAt: at,
        })
        .returning({ id: conversationMessages.id });
      if (line.role === "user" && row) lastInbound = row.id;
      last = { text: line.text, at };
    }
    await db
      .update(rooms)
      .set({
        lastMessageText: last?.text ?? null,
        lastMessageAt: last?.at ?? null,
        lastInboundMessageId: lastInbound,
      })
      .where(eq(rooms.id, roomId));
  }
}
