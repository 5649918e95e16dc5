import { PERMISSION_FLAGS, VIEWING_AS_VALUES } from "@switchboard/core";
import { z } from "zod";
import { defineRoute } from "../route.ts";

export const accountTypeSchema = z.enum(["partner", "reseller", "organization", "agent"]);

/** An account as the API shows it (product spec §3 Account). */
export const accountSchema = z.object({
  id: z.number().int(),
  accountType: accountTypeSchema,
  parentId: z.number().int().nullable(),
  partnerId: z.number().int().nullable(),
  resellerId: z.number().int().nullable(),
  organizationId: z.number().int().nullable(),
  username: z.string(),
  displayName: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  /** Creation time, ms epoch. */
  timestamp: z.number(),
  details: z.record(z.string(), z.unknown()),
  settings: z.record(z.string(), z.unknown()),
  socialLinks: z.record(z.string(), z.string()),
  socialLinksPosition: z.string().nullable(),
  switchboardPhoneNumber: z.string().nullable(),
  subscription: z.record(z.string(), z.unknown()).nullable(),
  premium: z.boolean(),
  smsEnabled: z.boolean(),
  externalAccountId: z.string().nullable(),
  externalBillingId: z.string().nullable(),
  disabled: z.boolean(),
});
export type Account = z.infer<typeof accountSchema>;

export const permissionsSchema = z.object(
  Object.fromEntries(PERMISSION_FLAGS.map((flag) => [flag, z.boolean()])) as Record<
    (typeof PERMISSION_FLAGS)[number],
    z.ZodBoolean
  >,
);

/** The signed-in person. */
export const userSchema = z.object({
  id: z.number().int(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  fullName: z.string().nullable(),
  superAdmin: z.boolean(),
  temporary: z.boolean(),
});

export const getAccount = defineRoute({
  id: "getAccount",
  method: "GET",
  path: "/api/v1/account",
  summary:
    "The account in view (targetAccountId, default the caller's) with the caller, the caller's home account, the viewing-as value in force and the permission flags it grants.",
  tag: "Accounts",
  auth: "token",
  query: z.object({ viewingAs: z.enum(VIEWING_AS_VALUES).optional() }),
  response: z.object({
    success: z.literal(true),
    account: accountSchema,
    homeAccount: accountSchema.nullable(),
    user: userSchema,
    role: z.enum(["owner", "admin"]).nullable(),
    viewingAs: z.enum(VIEWING_AS_VALUES),
    allowedViewingAs: z.array(z.enum(VIEWING_AS_VALUES)),
    actingAsHigherRole: z.boolean(),
    permissions: permissionsSchema,
  }),
});

export const accountsRoutes = [getAccount] as const;
