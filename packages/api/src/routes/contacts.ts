import { z } from "zod";
import { idSchema, pageNumberSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";

/**
 * Contacts (call catalogue "Contacts"): free nested fields per contact; an update sends the whole merged
 * object as newData. Contacts are matched to conversations by their phone numbers and e-mail addresses.
 */

export const CONTACT_MESSAGES = {
  noOrg: "No token or orgAccountId",
  notFound: "Contact not found",
  empty: "Give the contact a name, a phone number or an e-mail address.",
} as const;

/** A contact: its id, the name shown, and its free fields as stored (name, phoneNumber, email, notes, ...). */
export const contactSchema = z.looseObject({
  id: z.number().int(),
  displayName: z.string(),
  /** Normalised phone numbers and e-mails it is matched by. */
  addresses: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Contact = z.infer<typeof contactSchema>;

const orgQuery = { orgAccountId: idSchema.optional() };
/** Free nested fields; id, displayName, addresses and times are the server's. */
const contactData = z
  .record(z.string().max(100), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 20_000, { message: "The contact is too large." });

export const listContacts = defineRoute({
  id: "listContacts",
  method: "GET",
  path: "/api/v2/contact",
  summary:
    "The organisation's contacts (orgAccountId, default the target's organisation) by name; q searches names, numbers and e-mails.",
  tag: "Contacts",
  auth: "token",
  permission: "canViewOrg",
  query: z.object({
    ...orgQuery,
    q: z.string().trim().max(100).optional(),
    page: pageNumberSchema.default(0),
    pageSize: z.coerce.number().int().min(1).max(500).default(100),
  }),
  response: z.object({ success: z.literal(true), contacts: z.array(contactSchema), total: z.number().int() }),
});

export const saveContact = defineRoute({
  id: "saveContact",
  method: "POST",
  path: "/api/v2/contact",
  summary:
    "Create a contact (data, or newData without id), or replace an existing one's fields with newData (the whole merged object).",
  tag: "Contacts",
  auth: "token",
  permission: "canEditOrg",
  query: z.object(orgQuery),
  body: z.object({
    id: idSchema.optional(),
    newData: contactData.optional(),
    data: contactData.optional(),
  }),
  response: z.object({ success: z.literal(true), contact: contactSchema }),
});

export const deleteContact = defineRoute({
  id: "deleteContact",
  method: "DELETE",
  path: "/api/v2/contact",
  summary: "Delete a contact (body id).",
  tag: "Contacts",
  auth: "token",
  permission: "canEditOrg",
  query: z.object(orgQuery),
  body: z.object({ id: idSchema }),
  response: z.object({ success: z.literal(true), id: z.number().int() }),
});

export const getContact = defineRoute({
  id: "getContact",
  method: "GET",
  path: "/api/v2/contact/{id}",
  summary: "One contact with its conversations.",
  tag: "Contacts",
  auth: "token",
  permission: "canViewOrg",
  params: z.object({ id: idSchema }),
  query: z.object(orgQuery),
  response: z.object({
    success: z.literal(true),
    contact: contactSchema,
    rooms: z.array(
      z.object({
        roomId: z.string(),
        lastMessage: z.string().nullable(),
        lastMessageAt: z.number().nullable(),
      }),
    ),
  }),
});

export const mobileContacts = defineRoute({
  id: "mobileContacts",
  method: "GET",
  path: "/api/v1/mobileContacts",
  summary: "The organisation's contacts flattened for the mobile app: name, phone numbers, e-mails.",
  tag: "Contacts",
  auth: "token",
  permission: "canViewOrg",
  response: z.object({
    success: z.literal(true),
    contacts: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        phoneNumbers: z.array(z.string()),
        emails: z.array(z.string()),
      }),
    ),
  }),
});

export const contactRoutes = [listContacts, saveContact, deleteContact, getContact, mobileContacts] as const;
