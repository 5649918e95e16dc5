import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { ApiTokensService } from "./api-tokens.service.ts";

export function apiTokensRoutes(tokens: ApiTokensService) {
  return [
    handle(api.listApiTokens, (_input, { access }) => tokens.list(access)),
    handle(api.createApiToken, ({ body }, { access }) => tokens.create(access, body)),
    handle(api.deleteApiToken, ({ body }, { access }) => tokens.revoke(access, body.id)),
  ];
}
