import { PERMISSION_FLAGS, REDACTION_KINDS, SETTING_FOR_FLAG, VIEWING_AS_VALUES } from "@switchboard/core";
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { emailSchema, phoneNumberSchema, timeZoneSchema } from "./auth.ts";

/** User-facing messages of these routes; each key is its code in the catalogue (packages/api messages.ts). */
export const ACCOUNT_MESSAGES = {
  typeMismatch: "Account type does not match",
  usernameTaken: "This username is taken. Choose another.",
  usernameReserved: "This username is reserved. Choose another.",
  profileNotFound: "Profile not found",
  notMultipart: "Send the image as multipart/form-data.",
  noImage: "Choose an image to upload.",
  imageType: "The image must be a PNG, JPEG, WebP or GIF file.",
  imageTooLarge: "The image is larger than 2 MB.",
  partnerFlags: (keys: readonly string[]) =>
    `Only a super admin, partner or reseller above this account can change ${keys.join(", ")}.`,
  organizationFlags:
    "Only a super admin, partner or reseller above this organization can change premium or smsEnabled.",
} as const;

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
    "The account in view (targetAccountId, default the caller's) with the caller, the caller's home account, the viewing-as value in force, the permission flags it grants and the time zone its times read in (its own settings.timeZone, else its nearest ancestor's, e.g. an agent's organisation's; null when none has one).",
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
    /** The zone the account in view reads in, whoever views it: its own, else its nearest ancestor's. */
    timeZone: z.string().nullable(),
  }),
});

const ok = z.object({ success: z.literal(true), message: z.string() });
const accountAnswer = z.object({ success: z.literal(true), account: accountSchema });

/** Free text of a details field; an empty string removes the field. */
const detailText = z.string().trim().max(120);
const externalId = z.string().trim().max(200).nullable();

/**
 * Account fields of the call catalogue §3 (email, name, accountName, externalAccountId, externalBillingId,
 * phoneNumber). `name` is the account's own name: it is stored as the type's name in details (partnerName,
 * resellerName, orgName or agentName) and as details.name. Null clears a column.
 */
export const accountFieldsSchema = z.object({
  email: emailSchema.nullable().optional(),
  name: z.string().trim().min(1, { message: "A name cannot be empty." }).max(120).optional(),
  accountName: detailText.optional(),
  fullName: detailText.optional(),
  externalAccountId: externalId.optional(),
  externalBillingId: externalId.optional(),
  phoneNumber: phoneNumberSchema.nullable().optional(),
});
export type AccountFields = z.infer<typeof accountFieldsSchema>;

export const saveAccount = defineRoute({
  id: "saveAccount",
  method: "POST",
  path: "/api/v1/account",
  summary:
    "Update the target account's fields (email, name, accountName, fullName, externalAccountId, externalBillingId, phoneNumber).",
  tag: "Accounts",
  auth: "token",
  permission: "canEditOrg",
  body: accountFieldsSchema,
  response: accountAnswer,
});

export const updateAccount = defineRoute({
  id: "updateAccount",
  method: "POST",
  path: "/api/v2/updateAccount",
  summary:
    "Update the target account (any level: partner, reseller, organisation or agent account) with the account fields.",
  tag: "Accounts",
  auth: "token",
  permission: "canEditOrg",
  body: accountFieldsSchema,
  response: accountAnswer,
});

export const updateOrganization = defineRoute({
  id: "updateOrganization",
  method: "POST",
  path: "/api/v2/updateOrganization",
  summary:
    "Update the target organisation: the account fields, plus premium and smsEnabled, which only a super admin, partner or reseller above it may change. Fails with 'Account type does not match' when the target is not an organisation.",
  tag: "Accounts",
  auth: "token",
  permission: "canEditOrg",
  body: accountFieldsSchema.extend({
    premium: z.boolean().optional(),
    smsEnabled: z.boolean().optional(),
  }),
  response: accountAnswer,
});

/** The partner-controlled settings of product spec §3 (the keys of the §6 setting-to-flag map). */
export const PARTNER_SETTING_KEYS = [
  ...new Set(Object.values(SETTING_FOR_FLAG).filter((key): key is NonNullable<typeof key> => key !== null)),
];

/**
 * A settings change: top-level keys are merged into the account's settings, a null value removes a key.
 * The partner-controlled flags are booleans.
 */
/**
 * An organisation's redaction (`settings.redaction`): each kind of personal data replaced in stored
 * transcripts, exports, webhooks and analyses, and silenced in recordings (core REDACTION_KINDS).
 */
export const redactionSettingsSchema = z.object(
  Object.fromEntries(REDACTION_KINDS.map((kind) => [kind, z.boolean()])) as Record<
    (typeof REDACTION_KINDS)[number],
    z.ZodBoolean
  >,
);

export const accountSettingsPatchSchema = z
  .object({
    ...(Object.fromEntries(
      PARTNER_SETTING_KEYS.map((key) => [key, z.boolean().nullable().optional()]),
    ) as Record<(typeof PARTNER_SETTING_KEYS)[number], z.ZodOptional<z.ZodNullable<z.ZodBoolean>>>),
    redaction: redactionSettingsSchema.nullable().optional(),
    /** The account's time zone: every date and time the app shows is in it (null: the browser's). */
    timeZone: timeZoneSchema.nullable().optional(),
  })
  .catchall(z.unknown())
  .refine((value) => Object.keys(value).length <= 100, { message: "At most 100 settings per change." })
  .refine((value) => Object.keys(value).every((key) => key.length >= 1 && key.length <= 64), {
    message: "Setting names have 1 to 64 characters.",
  });

export const saveAccountSetting = defineRoute({
  id: "saveAccountSetting",
  method: "POST",
  path: "/api/v1/accountSetting",
  summary:
    "Merge settings into the target account's settings (null removes a key). The partner-controlled flags (grantTrialEntry, showMembers, showBilling, allowSignup, allowTasks, allowAddAgents, allowAgentTakeover, allowFullEditor, allowEmbeds, smsMessaging, allowOrgNumberAssignment) may be changed only by a super admin, partner or reseller acting as such on the target below it or on its own account — never by an organisation's own users (403); sending a flag's current value is not a change.",
  tag: "Accounts",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ settings: accountSettingsPatchSchema }),
  response: z.object({ success: z.literal(true), settings: z.record(z.string(), z.unknown()) }),
});

const SAFE_LINK = /^(?:https?:|mailto:|tel:)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export const socialLinksSchema = z
  .record(
    z.string().trim().min(1).max(40),
    z
      .string()
      .trim()
      .max(500)
      .refine((value) => !HAS_SCHEME.test(value) || SAFE_LINK.test(value), {
        message: "Links are web addresses (https://...), mailto: or tel: links, or handles.",
      }),
  )
  .refine((links) => Object.keys(links).length <= 30, { message: "At most 30 social links." });

export const saveSocialLinks = defineRoute({
  id: "saveSocialLinks",
  method: "POST",
  path: "/api/v1/account/socialLinks",
  summary:
    "Replace the target account's social links (network -> link; empty links are dropped) and their position.",
  tag: "Accounts",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    socialLinks: socialLinksSchema,
    socialLinksPosition: z.string().trim().max(40).nullable().optional(),
  }),
  response: z.object({
    success: z.literal(true),
    socialLinks: z.record(z.string(), z.string()),
    socialLinksPosition: z.string().nullable(),
  }),
});

/** Largest profile image accepted by /api/v1/profile/dp. */
export const PROFILE_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

export const uploadProfileImage = defineRoute({
  id: "uploadProfileImage",
  method: "POST",
  path: "/api/v1/profile/dp",
  summary:
    "Multipart upload of the target account's profile image (one file part; PNG, JPEG, WebP or GIF, recognised by content; at most 2 MB). details.image becomes its URL.",
  tag: "Accounts",
  auth: "token",
  permission: "canEditOrg",
  consumes: "multipart/form-data",
  response: z.object({ success: z.literal(true), image: z.string(), account: accountSchema }),
});

export const USERNAME_MESSAGE = "A username has 3 to 30 characters: lower-case letters, digits and dashes.";

/** 3 to 30 lower-case letters, digits and dashes (typed upper-case letters are lowered). */
export const usernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9-]{3,30}$/, { message: USERNAME_MESSAGE });

export const updateUsername = defineRoute({
  id: "updateUsername",
  method: "POST",
  path: "/api/v1/updateUsername",
  summary:
    "Change the target account's username (3-30 characters: a-z, 0-9, dash). Unique regardless of case: 409 when taken.",
  tag: "Accounts",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ username: usernameSchema }),
  response: accountAnswer,
});

/** What anyone may see of an account: no ids, e-mail, settings or billing data. */
export const publicAccountSchema = z.object({
  username: z.string(),
  accountType: accountTypeSchema,
  displayName: z.string(),
  details: z.object({ image: z.string().nullable() }),
  socialLinks: z.record(z.string(), z.string()),
  socialLinksPosition: z.string().nullable(),
  switchboardPhoneNumber: z.string().nullable(),
});
export type PublicAccount = z.infer<typeof publicAccountSchema>;

export const getPublicProfile = defineRoute({
  id: "getPublicProfile",
  method: "GET",
  path: "/api/v1/account/{username}",
  summary:
    "Public profile of an account by username (no token). 404 for unknown, disabled or deleted accounts.",
  tag: "Accounts",
  auth: "none",
  params: z.object({ username: z.string().trim().min(1).max(60) }),
  response: z.object({ success: z.literal(true), account: publicAccountSchema }),
});

export const ENABLE_MESSAGE = "Account enabled!";
export const DISABLE_MESSAGE = "Organization disabled!";

export const enableAccount = defineRoute({
  id: "enableAccount",
  method: "POST",
  path: "/api/v1/enableAccount",
  summary: "Super admin: enable the account with this username again.",
  tag: "Super admin",
  auth: "adminToken",
  body: z.object({ username: z.string().trim().min(1).max(60) }),
  response: ok,
});

export const disableAccount = defineRoute({
  id: "disableAccount",
  method: "POST",
  path: "/api/v1/disableAccount",
  summary:
    "Super admin: disable the account with this username, with a reason and details. A disabled account cannot sign in or be acted on.",
  tag: "Super admin",
  auth: "adminToken",
  body: z.object({
    username: z.string().trim().min(1).max(60),
    reason: z.string().trim().max(200).optional(),
    details: z.string().trim().max(2000).optional(),
  }),
  response: ok,
});

export const accountsRoutes = [
  getAccount,
  saveAccount,
  updateAccount,
  updateOrganization,
  saveAccountSetting,
  saveSocialLinks,
  uploadProfileImage,
  updateUsername,
  getPublicProfile,
  enableAccount,
  disableAccount,
] as const;
