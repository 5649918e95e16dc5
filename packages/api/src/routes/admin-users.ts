import { z } from "zod";
import { idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { emailSchema } from "./auth.ts";
import { redirectUrlSchema } from "./hierarchy.ts";

/** User-facing messages of these routes; each key is its code in the catalogue (packages/api messages.ts). */
export const ADMIN_USER_MESSAGES = {
  badRedirect:
    "redirectUrl: must be this product's own address or a white-label domain of this account's partner.",
  agentAccount: "Admin users belong to a partner, reseller or organization account, not an agent account.",
  ownersOnlyInvite: "Only an owner can make someone an owner.",
  ownersOnlyRemove: "Only an owner can remove an owner.",
  lastOwner: "The last owner cannot be removed.",
  userNotFound: "User not found",
  removed: "User removed.",
  invited: (email: string) => `Invitation sent to ${email}.`,
} as const;

/** A user of an account (owner or admin), as the members screen lists them. */
export const adminUserSchema = z.object({
  id: z.number().int(),
  email: z.string().nullable(),
  fullName: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  role: z.enum(["owner", "admin"]),
  /** When the user joined the account, ms epoch. */
  timestamp: z.number(),
  /** True until the person first signs in (an invitation not taken up yet). */
  invited: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** How long an invitation link signs the invitee in. */
export const INVITATION_TTL_DAYS = 7;

export const inviteAdminUser = defineRoute({
  id: "inviteAdminUser",
  method: "POST",
  path: "/api/v2/inviteAdminUser",
  summary:
    "Add a person (by e-mail; created if new) to the target account as admin, or as owner with isOwner (only owners or those above may make owners), and e-mail an invitation link to redirectUrl (default PUBLIC_URL/app, or a white-label host) with a oneTimeToken valid 7 days that signs them in.",
  tag: "Admin users",
  auth: "token",
  permission: "canInviteUsers",
  body: z.object({
    email: emailSchema,
    redirectUrl: redirectUrlSchema.optional(),
    isOwner: z.boolean().default(false),
  }),
  response: z.object({ success: z.literal(true), message: z.string(), user: adminUserSchema }),
});

export const listAdminUsers = defineRoute({
  id: "listAdminUsers",
  method: "GET",
  path: "/api/v2/listAdminUsers",
  summary: "The users (owners and admins) of the target account, owners first.",
  tag: "Admin users",
  auth: "token",
  permission: "canManageUsers",
  response: z.object({ success: z.literal(true), users: z.array(adminUserSchema) }),
});

export const deleteAdminUser = defineRoute({
  id: "deleteAdminUser",
  method: "DELETE",
  path: "/api/v2/deleteAdminUser",
  summary:
    "Remove the user targetUserId from the target account and end their sessions on it. The last owner cannot be removed; only owners or those above may remove an owner.",
  tag: "Admin users",
  auth: "token",
  permission: "canManageUsers",
  body: z.object({ targetUserId: idSchema }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});

export const adminUsersRoutes = [inviteAdminUser, listAdminUsers, deleteAdminUser] as const;
