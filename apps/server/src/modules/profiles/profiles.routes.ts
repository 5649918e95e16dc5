import * as api from "@switchboard/api";
import { tokenOf } from "../../access/access.ts";
import { handle } from "../../http/routes.ts";
import type { ProfilesService } from "./profiles.service.ts";

export function profilesRoutes(profiles: ProfilesService) {
  return [
    handle(api.getProfileLinks, (_input, { access }) => profiles.list(access)),
    handle(api.saveProfileLinks, ({ body }, { access }) => profiles.save(access, body)),
    handle(api.linkStats, ({ body }, { access }) => profiles.stats(access, body.days)),
    handle(api.visitProfileLink, async ({ params }, { reply }) => {
      const url = await profiles.visit(params.linkId);
      return reply.header("cache-control", "no-store").redirect(url, 302);
    }),
    handle(api.getPublicPage, ({ params }) => profiles.page(params.username)),
    handle(api.sendPublicMessage, ({ params, body }, { request }) =>
      profiles.sendPublic(params.username, tokenOf(request) ?? undefined, body.text),
    ),
  ];
}
