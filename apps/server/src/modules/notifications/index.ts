/** The notifications module's public entry point: other modules use it only through what this file exports. */
export type { NewNotification, NotificationsService } from "./notifications.service.ts";
export { noticeToOwners } from "./owner-notice.ts";
