/** The admin-users module's public entry point: other modules use it only through what this file exports. */
export type { AdminUsersModule } from "./admin-users.module.ts";
export type { AdminUsersService } from "./admin-users.service.ts";
