import { z } from "zod";
import { idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { queryBooleanSchema } from "./hierarchy.ts";

/** User-facing messages of these routes; each key is its code in the catalogue (packages/api messages.ts). */
export const APP_MESSAGES = {
  notFound: "App not found",
  notInstalled: "This app is not installed.",
  uninstalled: "App removed.",
  notSecret: "This app has no secret of that name.",
} as const;

const id = idSchema;
const jsonSchema = z.record(z.string(), z.unknown());

/** A function an app gives the agent: name, description and the JSON schema of its arguments. */
export const appFunctionSchema = z.object({
  name: z.string(),
  description: z.string(),
  parameters: jsonSchema,
});
export type AppFunction = z.infer<typeof appFunctionSchema>;

/** An app of the catalogue (product spec §3 App), with whether the target account installed it. */
export const appSchema = z.object({
  appId: z.string(),
  appVersion: z.string(),
  name: z.string(),
  description: z.string(),
  builtIn: z.boolean(),
  /** `dependencies.providers.auth.parameters.properties`: what the installer provides (default ""). */
  dependencies: z.object({
    providers: z.object({
      auth: z.object({
        parameters: z.object({ type: z.literal("object"), properties: z.record(z.string(), jsonSchema) }),
      }),
    }),
  }),
  functions: z.array(appFunctionSchema),
  installed: z.boolean(),
  /** The installation's data (auth parameters and settings); null when not installed. */
  data: z.record(z.string(), z.unknown()).nullable(),
  installedAt: z.number().nullable(),
});
export type App = z.infer<typeof appSchema>;

const appPath = z.object({
  appId: z.string().min(1).max(100),
  appVersion: z.string().min(1).max(40),
});
const appData = z.object({
  /** Values of the app's auth parameters and its settings. */
  data: z.record(z.string(), z.unknown()).optional(),
});
const appAnswer = z.object({ success: z.literal(true), app: appSchema });

export const listApps = defineRoute({
  id: "listApps",
  method: "GET",
  path: "/api/v2/apps",
  summary:
    "The app catalogue with what the target's organisation installed (apps are installed per organisation; an agent account uses its organisation's).",
  tag: "Apps",
  auth: "token",
  permission: "canViewOrg",
  response: z.object({ success: z.literal(true), apps: z.array(appSchema) }),
});

export const getApp = defineRoute({
  id: "getApp",
  method: "GET",
  path: "/api/v2/apps/{appId}/{appVersion}",
  summary: "One app of the catalogue, with its installation on the target's organisation.",
  tag: "Apps",
  auth: "token",
  permission: "canViewOrg",
  params: appPath,
  response: appAnswer,
});

export const installApp = defineRoute({
  id: "installApp",
  method: "POST",
  path: "/api/v2/apps/{appId}/{appVersion}",
  summary:
    "Install the app with its data; installing an app already installed changes nothing. Its functions become available to enable.",
  tag: "Apps",
  auth: "token",
  permission: "canEditOrg",
  params: appPath,
  body: appData,
  response: appAnswer,
});

export const updateApp = defineRoute({
  id: "updateApp",
  method: "PUT",
  path: "/api/v2/apps/{appId}/{appVersion}",
  summary:
    "Change an installed app's data (merged into what it holds); reload true replaces the data and re-reads the app's definition.",
  tag: "Apps",
  auth: "token",
  permission: "canEditOrg",
  params: appPath,
  body: appData.extend({ reload: z.boolean().default(false) }),
  response: appAnswer,
});

export const uninstallApp = defineRoute({
  id: "uninstallApp",
  method: "DELETE",
  path: "/api/v2/apps/{appId}/{appVersion}",
  summary: "Uninstall the app: its functions are no longer offered to the organisation's agents.",
  tag: "Apps",
  auth: "token",
  permission: "canEditOrg",
  params: appPath,
  response: z.object({ success: z.literal(true), message: z.string() }),
});

export const appSecret = defineRoute({
  id: "appSecret",
  method: "POST",
  path: "/api/v2/apps/{appId}/{appVersion}/secret",
  summary:
    "Reveal or rotate one secret of an installed app (stored encrypted, answered masked everywhere else): reveal answers its value; rotate replaces it with a new random one and answers that once.",
  tag: "Apps",
  auth: "token",
  permission: "canEditOrg",
  params: appPath,
  body: z.object({ name: z.string().min(1).max(100), action: z.enum(["reveal", "rotate"]) }),
  response: z.object({ success: z.literal(true), name: z.string(), value: z.string() }),
});

export const agentFunctionSchema = appFunctionSchema.extend({
  appId: z.string(),
  version: z.string(),
  /** The enabledFunctions key of the campaign: `appId@version`. */
  key: z.string(),
  /** Enabled in the agent's staging campaign (only when an agent is named). */
  enabled: z.boolean().nullable(),
});
export type AgentFunction = z.infer<typeof agentFunctionSchema>;

export const listAgentFunctions = defineRoute({
  id: "listAgentFunctions",
  method: "GET",
  path: "/api/v2/agent/functions",
  summary:
    "The functions the installed apps provide, with their JSON schemas; for an agent (the target, or agentId) also whether its staging campaign enables each.",
  tag: "Apps",
  auth: "token",
  permission: "canViewOrg",
  query: z.object({ agentId: id.optional(), installedOnly: queryBooleanSchema.default(true) }),
  response: z.object({ success: z.literal(true), functions: z.array(agentFunctionSchema) }),
});

export const appRoutes = [
  listApps,
  getApp,
  installApp,
  updateApp,
  uninstallApp,
  appSecret,
  listAgentFunctions,
] as const;
