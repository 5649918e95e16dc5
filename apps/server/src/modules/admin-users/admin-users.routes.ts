import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { AdminUsersService } from "./admin-users.service.ts";

export function adminUsersRoutes(adminUsers: AdminUsersService) {
  return [
    handle(api.inviteAdminUser, ({ body }, { access }) => adminUsers.inviteToTarget(access, body)),
    handle(api.listAdminUsers, async (_input, { access }) => ({
      success: true as const,
      users: await adminUsers.list(access.target),
    })),
    handle(api.deleteAdminUser, ({ body }, { access }) => adminUsers.remove(access, body.targetUserId)),
  ];
}
