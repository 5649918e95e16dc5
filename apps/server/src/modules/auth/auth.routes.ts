import * as api from "@switchboard/api";
import { ApiError } from "../../api-error.ts";
import { clientNetworkKey } from "../../http/client-network.ts";
import { handle } from "../../http/routes.ts";
import type { Outbox } from "../../providers/outbox/outbox.ts";
import type { AuthService } from "./auth.service.ts";

/** `devOutbox`: the outbox the dev outbox call lists (DEV_OUTBOX on), else null (the call is not found). */
export function authRoutes(auth: AuthService, devOutbox: Outbox | null) {
  return [
    handle(api.signupEmail, ({ body }, { request }) =>
      auth.signupEmail({ ...body, network: clientNetworkKey(request.ip), host: request.hostname }),
    ),
    handle(api.signinEmail, ({ body }, { request }) =>
      auth.signinEmail(body.email, clientNetworkKey(request.ip), request.hostname),
    ),
    handle(api.emailVerify, ({ body }) => auth.verifyEmail(body.email, body.verificationCode)),
    handle(api.signinPhoneNumber, ({ body }, { request }) =>
      auth.signinPhone(body.phoneNumber, clientNetworkKey(request.ip), request.hostname),
    ),
    handle(api.signinPhoneNumberVerify, ({ body }) =>
      auth.verifyPhone(body.phoneNumber, body.verificationCode),
    ),
    handle(api.emailRequestVerificationCode, ({ body }, { access, request }) =>
      auth.requestEmailVerification(
        access.caller,
        body.email,
        clientNetworkKey(request.ip),
        request.hostname,
      ),
    ),
    handle(api.emailValidateVerificationCode, ({ body }, { access }) =>
      auth.validateEmailVerification(access.caller, body.verificationCode),
    ),
    handle(api.phoneRequestVerificationCode, ({ body }, { access, request }) =>
      auth.requestPhoneVerification(
        access.caller,
        body.phoneNumber,
        clientNetworkKey(request.ip),
        request.hostname,
      ),
    ),
    handle(api.phoneValidateVerificationCode, ({ body }, { access }) =>
      auth.validatePhoneVerification(access.caller, body.verificationCode),
    ),
    handle(api.allocateTempUserSession, (_input, { request }) =>
      auth.allocateTempUserSession(clientNetworkKey(request.ip)),
    ),
    handle(api.createOneTimeAuth, (_input, { access }) => auth.createOneTimeToken(access.caller)),
    handle(api.oneTimeAuth, ({ query }) => auth.exchangeOneTimeToken(query.oneTimeToken)),
    handle(api.logout, ({ query }, { access }) => auth.logout(access.caller, query.everywhere)),
    handle(api.devOutbox, async ({ query }) => {
      if (!devOutbox) throw new ApiError(404, `Not found: GET ${api.devOutbox.path}`);
      return { success: true as const, messages: await devOutbox.list(query.limit) };
    }),
  ];
}
