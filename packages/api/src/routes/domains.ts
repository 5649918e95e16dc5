import { z } from "zod";
import { defineRoute } from "../route.ts";

/** User-facing messages of these routes; each key is its code in the catalogue (packages/api messages.ts). */
export const DOMAIN_MESSAGES = {
  invalid: "Invalid domain data",
  partnerOnly: "White-label domains belong to a partner account.",
  none: "This partner has no white-label domain yet.",
  notFound: "Domain not found",
  inUse: "This domain is already in use.",
  ownHost: "This is the product's own address, not a white-label domain.",
  removed: "Domain removed.",
} as const;

/**
 * A host name as typed or as the browser knows it: `https://Voice.Acme.com:443/app` -> `voice.acme.com`.
 * Scheme, port, path and a trailing dot are dropped; the result is lower-case.
 */
export function normaliseHost(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/[/?#].*$/, "")
    .replace(/:\d*$/, "")
    .replace(/\.$/, "");
}

const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const hostSchema = z
  .string()
  .max(300)
  .transform(normaliseHost)
  .pipe(z.string().regex(HOST, { message: "Enter a domain name such as voice.example.com." }));

const webAddress = z.url({ protocol: /^https?$/, message: "Enter a web address (https://...)." });

/** White-label settings of product spec §3 Domain profile. */
export const domainSettingsSchema = z.object({
  supportUrl: z.string().nullable(),
  smsMessaging: z.boolean(),
  allowEmbeds: z.boolean(),
  /** Script URLs the web app loads on this host. */
  appScripts: z.array(z.string()),
});
export type DomainSettings = z.infer<typeof domainSettingsSchema>;

/** What the web app needs on a white-label host: the partner's id, name, image and settings. */
export const domainProfileSchema = z.object({
  /** The partner account the host belongs to (also the accountId for sign-up on this host). */
  id: z.number().int(),
  name: z.string(),
  details: z.object({ image: z.string().nullable() }),
  settings: domainSettingsSchema,
  host: z.string(),
});
export type DomainProfile = z.infer<typeof domainProfileSchema>;

/** A partner's white-label domain as its owner manages it. */
export const domainSchema = z.object({
  id: z.number().int(),
  partnerId: z.number().int(),
  host: z.string(),
  name: z.string().nullable(),
  image: z.string().nullable(),
  settings: domainSettingsSchema,
  isDefault: z.boolean(),
  /** ms epoch */
  createdAt: z.number(),
});
export type Domain = z.infer<typeof domainSchema>;

const domainAnswer = z.object({
  success: z.literal(true),
  profile: domainProfileSchema,
  domain: domainSchema,
});

export const lookupDomain = defineRoute({
  id: "lookupDomain",
  method: "POST",
  path: "/api/v1/domain/lookup",
  summary:
    "No token: the white-label profile of a host (id, name, details.image, settings). The product's own host (PUBLIC_URL's, or any loopback name when that is loopback) answers mainHost true and profile null; any other host that is not a white-label domain answers 404 'Invalid domain data'.",
  tag: "Domains",
  auth: "none",
  body: z.object({ domain: z.string().max(300) }),
  response: z.object({
    success: z.literal(true),
    /** True for the product's own host, which has no white-label profile. */
    mainHost: z.literal(true).optional(),
    profile: domainProfileSchema.nullable(),
  }),
});

export const getDomain = defineRoute({
  id: "getDomain",
  method: "GET",
  path: "/api/v2/domain",
  summary: "The target partner's domain `domain`, or its default domain; 404 when it has none.",
  tag: "Domains",
  auth: "token",
  permission: "canViewOrg",
  query: z.object({ domain: hostSchema.optional() }),
  response: domainAnswer,
});

export const saveDomain = defineRoute({
  id: "saveDomain",
  method: "POST",
  path: "/api/v2/domain",
  summary:
    "Add or change a white-label domain of the target partner (host, name, image, settings). A partner's first domain becomes its default. 409 when another partner uses the host.",
  tag: "Domains",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    domain: hostSchema,
    name: z.string().trim().max(120).nullable().optional(),
    image: z
      .union([webAddress, z.string().regex(/^\/files\/[A-Za-z0-9/_.-]+$/)])
      .nullable()
      .optional(),
    settings: z
      .object({
        supportUrl: z
          .union([webAddress, z.string().regex(/^mailto:\S+@\S+$/, { message: "Enter a web address." })])
          .nullable()
          .optional(),
        smsMessaging: z.boolean().optional(),
        allowEmbeds: z.boolean().optional(),
        appScripts: z
          .array(z.url({ protocol: /^https$/, message: "App scripts are https:// addresses." }))
          .max(10)
          .optional(),
      })
      .optional(),
    isDefault: z.boolean().optional(),
  }),
  response: domainAnswer,
});

export const deleteDomain = defineRoute({
  id: "deleteDomain",
  method: "DELETE",
  path: "/api/v2/domain",
  summary: "Remove a white-label domain of the target partner; another of its domains becomes the default.",
  tag: "Domains",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ domain: hostSchema }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});

export const listDomains = defineRoute({
  id: "listDomains",
  method: "GET",
  path: "/api/v2/domains",
  summary: "The target partner's white-label domains, default first.",
  tag: "Domains",
  auth: "token",
  permission: "canViewOrg",
  response: z.object({ success: z.literal(true), domains: z.array(domainSchema) }),
});

export const setDefaultDomain = defineRoute({
  id: "setDefaultDomain",
  method: "POST",
  path: "/api/v2/domain/default",
  summary: "Make one of the target partner's domains its default.",
  tag: "Domains",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ domain: hostSchema }),
  response: z.object({ success: z.literal(true), domain: domainSchema }),
});

export const domainsRoutes = [
  lookupDomain,
  getDomain,
  saveDomain,
  deleteDomain,
  listDomains,
  setDefaultDomain,
] as const;
