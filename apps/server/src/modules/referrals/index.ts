/** The referrals module's public entry point: other modules use it only through what this file exports. */
export { recordReferral } from "./referrals.repository.ts";
