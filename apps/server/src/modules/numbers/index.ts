/** The numbers module's public entry point: other modules use it only through what this file exports. */
export { numberOrgLookup } from "./number-owner.ts";
