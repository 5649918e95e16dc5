import * as api from "@switchboard/api";
import { badRequest } from "../../api-error.ts";
import { handle } from "../../http/routes.ts";
import type { CalendarsService } from "./calendars.service.ts";
import type { IntegrationsService } from "./integrations.service.ts";
import { sandboxConsentPage } from "./sandbox-consent-page.ts";

type SandboxGoogle = { issueCode(email: string): string } | null;

export function calendarsRoutes(
  calendars: CalendarsService,
  integrations: IntegrationsService,
  sandboxGoogle: SandboxGoogle,
  callbackUrl: string,
) {
  /** The sandbox consent page sends codes only back to our own callback. */
  const checkSandbox = (redirectUri: string) => {
    if (!sandboxGoogle) throw badRequest("The sandbox Google sign-in is off: CALENDARS is live.");
    if (redirectUri !== callbackUrl) throw badRequest("redirect_uri: not this server's Google callback.");
    return sandboxGoogle;
  };
  return [
    handle(api.getGoogleCalendars, (_input, { access }) => calendars.googleStatus(access)),
    handle(api.getGoogleMainCalendar, (_input, { access }) => calendars.googleMain(access)),
    handle(api.setGoogleMainCalendar, ({ body }, { access }) =>
      calendars.setGoogleMain(access, body.calendar),
    ),
    handle(api.disconnectGoogle, (_input, { access }) => calendars.disconnectGoogle(access)),
    handle(api.connectGoogle, ({ body }, { access }) => calendars.connectGoogle(access, body.returnTo)),
    handle(api.googleCallback, async ({ query }, { reply }) =>
      reply.redirect(await calendars.googleCallback(query)),
    ),
    handle(api.sandboxGoogleConsentPage, ({ query }, { reply }) => {
      checkSandbox(query.redirect_uri);
      return reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .send(
          sandboxConsentPage({
            state: query.state,
            redirectUri: query.redirect_uri,
            email: query.login_hint ?? "",
          }),
        );
    }),
    handle(api.sandboxGoogleConsent, ({ body }, { reply }) => {
      const sandbox = checkSandbox(body.redirect_uri);
      const target = new URL(body.redirect_uri);
      if (body.decision === "allow")
        target.searchParams.set("code", sandbox.issueCode(body.email.toLowerCase()));
      else target.searchParams.set("error", "access_denied");
      target.searchParams.set("state", body.state);
      return reply.redirect(target.toString(), 303);
    }),
    handle(api.getCalendly, (_input, { access }) => calendars.calendlyStatus(access)),
    handle(api.enableCalendly, ({ body }, { access }) => calendars.enableCalendly(access, body)),
    handle(api.disableCalendly, (_input, { access }) => calendars.disableCalendly(access)),
    handle(api.bookScheduleTime, ({ body }, { access }) => calendars.book(access, body)),
    handle(api.cancelScheduleBooking, ({ params }, { access }) => calendars.cancel(access, params.bookingId)),
    handle(api.getIntegration, ({ params }, { access }) => integrations.get(access, params.slug)),
    handle(api.saveIntegration, ({ params, body }, { access }) =>
      integrations.save(access, params.slug, body.appData),
    ),
    handle(api.jobNimbusSettings, ({ body }, { access }) =>
      integrations.jobNimbusSettings(access, body.authorization),
    ),
    handle(api.jobNimbusTeam, ({ body }, { access }) =>
      integrations.jobNimbusTeam(access, body.authorization, body.targetDate),
    ),
  ];
}
