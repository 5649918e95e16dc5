import { ACCOUNT_MESSAGES } from "./routes/accounts.ts";
import { ADMIN_USER_MESSAGES } from "./routes/admin-users.ts";
import { AGENT_TEST_MESSAGES } from "./routes/agent-tests.ts";
import { AGENT_MESSAGES } from "./routes/agents.ts";
import { APP_MESSAGES } from "./routes/apps.ts";
import { AUTH_MESSAGES } from "./routes/auth.ts";
import { CALENDAR_MESSAGES } from "./routes/calendars.ts";
import { CARRIER_MESSAGES } from "./routes/carrier.ts";
import { CONTACT_MESSAGES } from "./routes/contacts.ts";
import { DOMAIN_MESSAGES } from "./routes/domains.ts";
import { HIERARCHY_MESSAGES } from "./routes/hierarchy.ts";
import { INBOX_MESSAGES } from "./routes/inbox.ts";
import { KB_MESSAGES } from "./routes/knowledge-base.ts";
import { NUMBER_MESSAGES } from "./routes/numbers.ts";
import { PUBLIC_MESSAGES } from "./routes/public.ts";
import { REFERRAL_MESSAGES } from "./routes/referrals.ts";
import { RUNTIME_MESSAGES } from "./routes/runtime.ts";
import { SIP_MESSAGES } from "./routes/sip-settings.ts";
import { TASK_MESSAGES } from "./routes/tasks.ts";
import { TEMPLATE_MESSAGES } from "./routes/templates.ts";
import { TOKEN_MESSAGES } from "./routes/tokens.ts";
import { VOICE_MESSAGES } from "./routes/voice.ts";
import { WEBHOOK_MESSAGES } from "./routes/webhooks.ts";

/**
 * The catalogue of user-facing messages: each area's messages live beside its routes, and a message's code
 * is `<area>.<key>` (e.g. `agents.notPublished`). Server and web import the same text; code that must tell
 * one refusal from another compares codes (`messageCodeOf(error.message)`), never hand-typed text.
 */
export const MESSAGE_CATALOGUE = {
  accounts: ACCOUNT_MESSAGES,
  auth: AUTH_MESSAGES,
  calendars: CALENDAR_MESSAGES,
  adminUsers: ADMIN_USER_MESSAGES,
  agents: AGENT_MESSAGES,
  agentTests: AGENT_TEST_MESSAGES,
  apps: APP_MESSAGES,
  carrier: CARRIER_MESSAGES,
  contacts: CONTACT_MESSAGES,
  domains: DOMAIN_MESSAGES,
  hierarchy: HIERARCHY_MESSAGES,
  inbox: INBOX_MESSAGES,
  numbers: NUMBER_MESSAGES,
  public: PUBLIC_MESSAGES,
  referrals: REFERRAL_MESSAGES,
  knowledgeBase: KB_MESSAGES,
  runtime: RUNTIME_MESSAGES,
  sip: SIP_MESSAGES,
  tasks: TASK_MESSAGES,
  templates: TEMPLATE_MESSAGES,
  tokens: TOKEN_MESSAGES,
  voice: VOICE_MESSAGES,
  webhooks: WEBHOOK_MESSAGES,
} as const;

type Catalogue = typeof MESSAGE_CATALOGUE;
export type MessageCode = {
  [Area in keyof Catalogue]: `${Area & string}.${keyof Catalogue[Area] & string}`;
}[keyof Catalogue];

let byText: Map<string, MessageCode> | undefined;

/** The code of a catalogued message (the first area that names it), or undefined for other text. */
export function messageCodeOf(text: string): MessageCode | undefined {
  if (!byText) {
    byText = new Map();
    for (const [area, messages] of Object.entries(MESSAGE_CATALOGUE)) {
      for (const [key, message] of Object.entries(messages)) {
        const code = `${area}.${key}` as MessageCode;
        if (typeof message === "string" && !byText.has(message)) byText.set(message, code);
      }
    }
  }
  return byText.get(text);
}

/** The text of a catalogued message by its code (messages with parameters are functions of them). */
export function messageOf<C extends MessageCode>(code: C): unknown {
  const [area, key] = code.split(".") as [keyof Catalogue, string];
  return (MESSAGE_CATALOGUE[area] as Record<string, unknown>)[key];
}
