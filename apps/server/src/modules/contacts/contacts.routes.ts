import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { ContactsService } from "./contacts.service.ts";

export function contactsRoutes(contacts: ContactsService) {
  return [
    handle(api.listContacts, ({ query }, { access }) => contacts.list(access, query)),
    handle(api.getContact, ({ params, query }, { access }) =>
      contacts.get(access, params.id, query.orgAccountId),
    ),
    handle(api.saveContact, ({ query, body }, { access }) => contacts.save(access, query.orgAccountId, body)),
    handle(api.deleteContact, ({ query, body }, { access }) =>
      contacts.remove(access, query.orgAccountId, body.id),
    ),
    handle(api.mobileContacts, (_input, { access }) => contacts.mobile(access)),
  ];
}
