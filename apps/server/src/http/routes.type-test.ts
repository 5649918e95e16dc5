/**
 * Compile-time tests of the route handler types, checked by `npm run typecheck` (never run): each
 * `@ts-expect-error` fails the typecheck if the line below it ever compiles.
 */
import * as api from "@switchboard/api";
import { handle } from "./routes.ts";

export const typeTests = [
  // @ts-expect-error: a handler must answer its route's response type.
  handle(api.listContacts, () => ({ totally: "wrong" })),
  // @ts-expect-error: a missing field of the response is refused too.
  handle(api.getApp, async () => ({ success: true as const })),
  // A public route's handler has no resolved caller.
  handle(api.signinEmail, (_input, { access }) => {
    // @ts-expect-error: access is undefined on a route without a token.
    void access.caller;
    return { success: true as const, message: "" };
  }),
  // A route that needs a token gets the caller and target.
  handle(api.listApps, (_input, { access }) => {
    void access.target.id;
    return { success: true as const, apps: [] };
  }),
];
