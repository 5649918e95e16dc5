import type { RouteDefinition } from "./route.ts";
import { accountsRoutes } from "./routes/accounts.ts";
import { adminUsersRoutes } from "./routes/admin-users.ts";
import { agentTestRoutes } from "./routes/agent-tests.ts";
import { agentVersionRoutes, campaignRoutes } from "./routes/agents.ts";
import { appRoutes } from "./routes/apps.ts";
import { authRoutes } from "./routes/auth.ts";
import { billingRoutes } from "./routes/billing.ts";
import { calendarRoutes } from "./routes/calendars.ts";
import { carrierRoutes } from "./routes/carrier.ts";
import { contactRoutes } from "./routes/contacts.ts";
import { domainsRoutes } from "./routes/domains.ts";
import { hierarchyRoutes } from "./routes/hierarchy.ts";
import { inboxRoutes } from "./routes/inbox.ts";
import { knowledgeBaseRoutes } from "./routes/knowledge-base.ts";
import { logsRoutes } from "./routes/logs.ts";
import { numberRoutes } from "./routes/numbers.ts";
import { paymentLinkRoutes } from "./routes/payment-links.ts";
import { publicRoutes } from "./routes/public.ts";
import { referralRoutes } from "./routes/referrals.ts";
import { runtimeRoutes } from "./routes/runtime.ts";
import { sipSettingsRoutes } from "./routes/sip-settings.ts";
import { systemRoutes } from "./routes/system.ts";
import { taskRoutes } from "./routes/tasks.ts";
import { eventRuleRoutes, templateRoutes } from "./routes/templates.ts";
import { apiTokenRoutes } from "./routes/tokens.ts";
import { voiceRoutes } from "./routes/voice.ts";
import { walletRoutes } from "./routes/wallet.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { withdrawalRoutes } from "./routes/withdrawals.ts";

/** Every call of the API. The server registers exactly these; the OpenAPI document is generated from them. */
export const routeTable: readonly RouteDefinition[] = [
  ...systemRoutes,
  ...authRoutes,
  ...accountsRoutes,
  ...hierarchyRoutes,
  ...adminUsersRoutes,
  ...domainsRoutes,
  ...campaignRoutes,
  ...agentVersionRoutes,
  ...agentTestRoutes,
  ...templateRoutes,
  ...eventRuleRoutes,
  ...appRoutes,
  ...runtimeRoutes,
  ...inboxRoutes,
  ...contactRoutes,
  ...carrierRoutes,
  ...logsRoutes,
  ...webhookRoutes,
  ...apiTokenRoutes,
  ...voiceRoutes,
  ...numberRoutes,
  ...calendarRoutes,
  ...sipSettingsRoutes,
  ...publicRoutes,
  ...knowledgeBaseRoutes,
  ...taskRoutes,
  ...walletRoutes,
  ...withdrawalRoutes,
  ...paymentLinkRoutes,
  ...billingRoutes,
  ...referralRoutes,
];
