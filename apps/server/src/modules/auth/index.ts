/** The auth module's public entry point: other modules use it only through what this file exports. */
export { findUserByEmail } from "./auth.repository.ts";
