import type { RouteDefinition } from "./route.ts";
import { accountsRoutes } from "./routes/accounts.ts";
import { adminUsersRoutes } from "./routes/admin-users.ts";
import { agentVersionRoutes, campaignRoutes } from "./routes/agents.ts";
import { appRoutes } from "./routes/apps.ts";
import { authRoutes } from "./routes/auth.ts";
import { carrierRoutes } from "./routes/carrier.ts";
import { contactRoutes } from "./routes/contacts.ts";
import { domainsRoutes } from "./routes/domains.ts";
import { hierarchyRoutes } from "./routes/hierarchy.ts";
import { inboxRoutes } from "./routes/inbox.ts";
import { logsRoutes } from "./routes/logs.ts";
import { runtimeRoutes } from "./routes/runtime.ts";
import { systemRoutes } from "./routes/system.ts";
import { eventRuleRoutes, templateRoutes } from "./routes/templates.ts";
import { apiTokenRoutes } from "./routes/tokens.ts";
import { voiceRoutes } from "./routes/voice.ts";
import { webhookRoutes } from "./routes/webhooks.ts";

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
];
