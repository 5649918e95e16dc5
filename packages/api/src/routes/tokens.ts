import { z } from "zod";
import { idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";

/**
 * Organisation API tokens (call catalogue "Developer settings": description, type, token) for
 * server-to-server use: sent as `Authorization: Bearer <token>` (or the `token` query parameter), they act
 * for their organisation only, as one of its admins. Shown once at creation, stored hashed, listed masked
 * with the last use; deleting one ends it at once on every server instance.
 */

export const TOKEN_MESSAGES = {
  notFound: "API token not found",
  noOrganization: "API tokens belong to an organisation: choose an organisation or one of its agents.",
  sessionOnly: "An API token cannot do this: sign in as a person.",
  readOnly: "This API token can only read.",
  tooMany: "An organisation can have at most 50 API tokens.",
} as const;

export const MAX_API_TOKENS = 50;

/** `full`: every call the organisation's admins may make; `readOnly`: calls that only read (see isWriteRoute). */
export const apiTokenTypeSchema = z.enum(["full", "readOnly"]);
export type ApiTokenType = z.infer<typeof apiTokenTypeSchema>;

export const apiTokenSchema = z.object({
  id: z.number().int(),
  description: z.string(),
  type: apiTokenTypeSchema,
  /** The token masked: its first and last characters (`sbk_Ab…x9Zq`). */
  token: z.string(),
  createdAt: z.number(),
  /** null until it is first used. */
  lastUsedAt: z.number().nullable(),
  createdBy: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const listApiTokens = defineRoute({
  id: "listApiTokens",
  method: "GET",
  path: "/api/v2/tokens",
  summary: "The organisation's API tokens, masked, with their last use (an array), newest first.",
  tag: "API tokens",
  auth: "token",
  permission: "canEditOrg",
  sessionOnly: true,
  response: z.array(apiTokenSchema),
});

export const createApiToken = defineRoute({
  id: "createApiToken",
  method: "POST",
  path: "/api/v2/tokens",
  summary:
    "Make an API token for the organisation (description, type full or readOnly). The answer's token is shown this once; only its hash is kept.",
  tag: "API tokens",
  auth: "token",
  permission: "canEditOrg",
  sessionOnly: true,
  body: z.object({
    description: z.string().trim().max(200).default(""),
    type: apiTokenTypeSchema.default("full"),
  }),
  response: z.object({ success: z.literal(true), apiToken: apiTokenSchema, token: z.string() }),
});

export const deleteApiToken = defineRoute({
  id: "deleteApiToken",
  method: "DELETE",
  path: "/api/v2/tokens",
  summary: "Revoke an API token (id): it answers 401 at once, everywhere.",
  tag: "API tokens",
  auth: "token",
  permission: "canEditOrg",
  sessionOnly: true,
  body: z.object({ id: idSchema }),
  response: z.object({ success: z.literal(true) }),
});

export const apiTokenRoutes = [listApiTokens, createApiToken, deleteApiToken] as const;
