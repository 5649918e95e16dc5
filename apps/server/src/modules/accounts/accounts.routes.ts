import * as api from "@switchboard/api";
import { allowedViewingAs, isActingAsHigherRole } from "@switchboard/core";
import { handle } from "../../http/routes.ts";
import { toApiAccount, toApiUser } from "./account-view.ts";

export function accountsRoutes() {
  return [
    handle(api.getAccount, (_input, { access }) => ({
      success: true as const,
      account: toApiAccount(access.target),
      homeAccount: access.caller.account ? toApiAccount(access.caller.account) : null,
      user: toApiUser(access.caller.user),
      role: access.caller.role,
      viewingAs: access.viewingAs,
      allowedViewingAs: [...allowedViewingAs(access.rank)],
      actingAsHigherRole: isActingAsHigherRole(access.rank, access.viewingAs),
      permissions: access.permissions,
    })),
  ];
}
