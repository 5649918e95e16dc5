import { z } from "zod";
import {
  DATE_MESSAGE,
  DATE_RANGE_MESSAGE,
  idSchema,
  pageNumberSchema,
  TIME_MAX_MS,
  TIME_MIN_MS,
} from "../fields.ts";
import { defineRoute } from "../route.ts";
import { accountSchema, accountTypeSchema, usernameSchema } from "./accounts.ts";
import { emailSchema, phoneNumberSchema } from "./auth.ts";

/** User-facing messages of these routes; each key is its code in the catalogue (packages/api messages.ts). */
export const HIERARCHY_MESSAGES = {
  organizationParent: "An organization is created under a partner or reseller account.",
  resellerParent: "A reseller is created under a partner account.",
  organizationDeleted: "Organization deleted.",
  accountDeleted: "Account deleted.",
} as const;

/** A query flag: `true`/`false` (also `1`/`0`) as the catalogue sends them, or a JSON boolean. */
export const queryBooleanSchema = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((value) => value === true || value === "true" || value === "1");

/** List parameters of the catalogue: page (default 0), pageSize (default 20), pagination, active. */
export const listQuerySchema = z.object({
  page: pageNumberSchema.default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  /** false: every matching account on one page (at most LIST_UNPAGED_MAX). */
  pagination: queryBooleanSchema.default(true),
  /** true: enabled accounts only; false: disabled accounts too. */
  active: queryBooleanSchema.default(true),
});

/** Most accounts one answer holds when pagination is off. */
export const LIST_UNPAGED_MAX = 1000;

/**
 * A list item of product spec §3: the account fields plus `type`; organisations take their displayName from
 * orgName, resellers from resellerName; agent accounts carry agentName or accountName.
 */
export const accountListItemSchema = accountSchema.extend({
  type: accountTypeSchema,
  agentName: z.string().nullable(),
  accountName: z.string().nullable(),
});
export type AccountListItem = z.infer<typeof accountListItemSchema>;

export const accountListSchema = z.object({
  success: z.literal(true),
  accounts: z.array(accountListItemSchema),
  totalAccounts: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AccountList = z.infer<typeof accountListSchema>;

const created = z.object({ success: z.literal(true), account: accountListItemSchema });
const done = z.object({ success: z.literal(true), message: z.string() });
const id = idSchema;
const name = z.string().trim().min(1, { message: "Enter a name." }).max(120);
const externalId = z.string().trim().max(200).optional();
/** Where an invitation link leads (default PUBLIC_URL/app): this product's own address or a white-label host. */
export const redirectUrlSchema = z.url({ protocol: /^https?$/, message: "Enter a valid web address." });

export const createOrganization = defineRoute({
  id: "createOrganization",
  method: "POST",
  path: "/api/v2/createOrganization",
  summary:
    "Create an organisation under the reseller targetResellerId, or under the target account when it is a partner or reseller. With email, that person becomes its owner and is e-mailed an invitation that signs them in.",
  tag: "Hierarchy",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    targetResellerId: id.optional(),
    name,
    email: emailSchema.optional(),
    redirectUrl: redirectUrlSchema.optional(),
    phoneNumber: phoneNumberSchema.optional(),
    externalAccountId: externalId,
    externalBillingId: externalId,
  }),
  response: created,
});

export const createReseller = defineRoute({
  id: "createReseller",
  method: "POST",
  path: "/api/v2/createReseller",
  summary:
    "Create a reseller under the partner targetPartnerId, or under the target account when it is a partner. With email, that person becomes its owner and is e-mailed an invitation.",
  tag: "Hierarchy",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    targetPartnerId: id.optional(),
    name,
    email: emailSchema.optional(),
    redirectUrl: redirectUrlSchema.optional(),
    externalAccountId: externalId,
  }),
  response: created,
});

export const createAgentAccount = defineRoute({
  id: "createAgentAccount",
  method: "POST",
  path: "/api/v2/createAccount",
  summary:
    "Create an agent account under the target organisation (name becomes agentName; username optional, else derived from the name).",
  tag: "Hierarchy",
  auth: "token",
  permission: "canAddAgents",
  body: z.object({
    name,
    accountName: z.string().trim().max(120).optional(),
    username: usernameSchema.optional(),
    email: emailSchema.optional(),
    phoneNumber: phoneNumberSchema.optional(),
    externalAccountId: externalId,
  }),
  response: created,
});

export const deleteOrganization = defineRoute({
  id: "deleteOrganization",
  method: "DELETE",
  path: "/api/v2/deleteOrganization",
  summary:
    "Delete (soft) the organisation targetOrganizationId — the target account or one below it — and its agent accounts.",
  tag: "Hierarchy",
  auth: "token",
  permission: "canDeleteOrg",
  body: z.object({ targetOrganizationId: id }),
  response: done,
});

export const deleteAgentAccount = defineRoute({
  id: "deleteAgentAccount",
  method: "DELETE",
  path: "/api/v2/deleteAccount",
  summary:
    "Delete (soft) the agent account targetAccountId (body) of the organisation targetOrganizationId (query; default the target account).",
  tag: "Hierarchy",
  auth: "token",
  permission: "canAddAgents",
  query: z.object({ targetOrganizationId: id.optional() }),
  body: z.object({ targetAccountId: id }),
  response: done,
});

export const listOrganizations = defineRoute({
  id: "listOrganizations",
  method: "GET",
  path: "/api/v2/listOrganizations",
  summary: "Organisations below the target account, newest first, paged (page from 0, pageSize 20).",
  tag: "Hierarchy",
  auth: "token",
  permission: "canViewOrg",
  query: listQuerySchema,
  response: accountListSchema,
});

export const listResellers = defineRoute({
  id: "listResellers",
  method: "GET",
  path: "/api/v2/listResellers",
  summary: "Resellers below the target account (a partner), newest first, paged.",
  tag: "Hierarchy",
  auth: "token",
  permission: "canViewOrg",
  query: listQuerySchema,
  response: accountListSchema,
});

export const listAgentAccounts = defineRoute({
  id: "listAgentAccounts",
  method: "GET",
  path: "/api/v2/listAccounts",
  summary: "Agent accounts below the target account, newest first, paged (page size 20).",
  tag: "Hierarchy",
  auth: "token",
  permission: "canViewOrg",
  query: listQuerySchema,
  response: accountListSchema,
});

export const listPartners = defineRoute({
  id: "listPartners",
  method: "GET",
  path: "/api/v2/listPartners",
  summary: "Super admin: every partner of the platform, newest first, paged.",
  tag: "Super admin",
  auth: "adminToken",
  query: listQuerySchema,
  response: accountListSchema,
});

const range = z.coerce.number().min(0).optional();
const DAY_MS = 24 * 60 * 60_000;

/**
 * A date as an ISO string (`2024-05-01` or a full timestamp) or ms epoch. For an end date a bare day
 * (`2024-05-31`) means the whole of that day (UTC).
 */
const dateFilter = (end: boolean) =>
  z
    .union([z.number(), z.string().trim().min(1)])
    .transform((value, ctx) => {
      const numeric = typeof value === "number" || /^[0-9]+$/.test(value);
      const time = numeric ? Number(value) : Date.parse(value as string);
      if (!Number.isFinite(time)) {
        ctx.addIssue({ code: "custom", message: DATE_MESSAGE });
        return z.NEVER;
      }
      const bareDay = !numeric && /^\d{4}-\d{2}-\d{2}$/.test(value as string);
      const at = end && bareDay ? time + DAY_MS - 1 : time;
      if (at < TIME_MIN_MS || at > TIME_MAX_MS) {
        ctx.addIssue({ code: "custom", message: DATE_RANGE_MESSAGE });
        return z.NEVER;
      }
      return new Date(at);
    })
    .optional();

/** The organisation search filters of call catalogue §3. */
export const organizationFiltersSchema = z.object({
  billingPeriodVoiceMinutesMin: range,
  billingPeriodVoiceMinutesMax: range,
  allTimeVoiceMinutesMin: range,
  allTimeVoiceMinutesMax: range,
  billingPeriodMessagesMin: range,
  billingPeriodMessagesMax: range,
  allTimeMessagesMin: range,
  allTimeMessagesMax: range,
  onboardingComplete: queryBooleanSchema.optional(),
  subscribed: queryBooleanSchema.optional(),
  canceled: queryBooleanSchema.optional(),
  productPlanId: z.string().trim().max(200).optional(),
  productPlanTerm: z.string().trim().max(50).optional(),
  billingSubscriptionId: z.string().trim().max(200).optional(),
  billingId: z.string().trim().max(200).optional(),
  externalAccountId: z.string().trim().max(200).optional(),
  createdStart: dateFilter(false),
  createdEnd: dateFilter(true),
  canceledStart: dateFilter(false),
  canceledEnd: dateFilter(true),
  /** Optional text: username, display name or e-mail contains it. */
  phrase: z.string().trim().max(100).optional(),
});
export type OrganizationFilters = z.infer<typeof organizationFiltersSchema>;

/** Filters searchOrganizations applies today; the others are accepted and reported back as ignoredFilters. */
export const APPLIED_ORGANIZATION_FILTERS = [
  "onboardingComplete",
  "billingId",
  "externalAccountId",
  "createdStart",
  "createdEnd",
  "phrase",
] as const;

export const searchOrganizations = defineRoute({
  id: "searchOrganizations",
  method: "GET",
  path: "/api/v2/searchOrganizations",
  summary:
    "Organisations below the target account matching the filters, paged. Applied: onboardingComplete (settings.onboarding.onboardingComplete), billingId (externalBillingId), externalAccountId, createdStart/createdEnd, phrase. Accepted but not applied until usage, messaging and subscription data exist (named in ignoredFilters when sent): voice-minute and message ranges, subscribed, canceled, canceledStart/canceledEnd, productPlanId, productPlanTerm, billingSubscriptionId.",
  tag: "Hierarchy",
  auth: "token",
  permission: "canViewOrg",
  query: listQuerySchema.extend(organizationFiltersSchema.shape),
  response: accountListSchema.extend({ ignoredFilters: z.array(z.string()) }),
});

const searchBody = z.object({
  phrase: z.string().trim().min(1, { message: "Enter something to search for." }).max(100),
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
});

export const searchAccount = defineRoute({
  id: "searchAccount",
  method: "POST",
  path: "/api/v2/searchAccount",
  summary:
    "Accounts the caller can reach (its own account and everything below it; all for a super admin) whose username, display name or e-mail contains the phrase.",
  tag: "Hierarchy",
  auth: "token",
  permission: "canViewOrg",
  body: searchBody,
  response: accountListSchema.omit({ page: true, pageSize: true }),
});

export const searchAccountEnhanced = defineRoute({
  id: "searchAccountEnhanced",
  method: "POST",
  path: "/api/v2/searchAccount/enhanced",
  summary:
    "Like searchAccount, also matching phone numbers, external account and billing ids, the account id, and the e-mail addresses and names of the account's users.",
  tag: "Hierarchy",
  auth: "token",
  permission: "canViewOrg",
  body: searchBody,
  response: accountListSchema.omit({ page: true, pageSize: true }),
});

export const hierarchyRoutes = [
  createOrganization,
  createReseller,
  createAgentAccount,
  deleteOrganization,
  deleteAgentAccount,
  listOrganizations,
  listResellers,
  listAgentAccounts,
  listPartners,
  searchOrganizations,
  searchAccount,
  searchAccountEnhanced,
] as const;
