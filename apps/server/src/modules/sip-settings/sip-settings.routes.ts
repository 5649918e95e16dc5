import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { SipSettingsService } from "./sip-settings.service.ts";

export function sipSettingsRoutes(sip: SipSettingsService) {
  return [
    handle(api.listSipIpWhitelist, (_input, { access }) => sip.listAllow(access)),
    handle(api.addSipIpWhitelist, ({ body }, { access }) => sip.addAllow(access, body)),
    handle(api.deleteSipIpWhitelist, ({ body }, { access }) => sip.removeAllow(access, body)),
    handle(api.listSipOutboundRoutes, (_input, { access }) => sip.listRoutes(access)),
    handle(api.saveSipOutboundRoute, ({ body }, { access }) => sip.saveRoute(access, body.route)),
    handle(api.deleteSipOutboundRoute, ({ body }, { access }) => sip.removeRoute(access, body.id)),
    handle(api.getSipRegistration, (_input, { access }) => sip.getRegistration(access)),
    handle(api.saveSipRegistration, ({ body }, { access }) =>
      sip.saveRegistration(access, body.registration),
    ),
    handle(api.deleteSipRegistration, (_input, { access }) => sip.deleteRegistration(access)),
    handle(api.getSipCaptures, async ({ query }, { access, reply }) => {
      const { calls, rows, messages } = await sip.captures(access, query);
      if (query.format === "json") return { success: true as const, calls, messages };
      const name = `sip-capture-${(query.sipCallId ?? "recent").replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 60)}`;
      if (query.format === "text")
        return reply
          .header("content-type", "text/plain; charset=utf-8")
          .header("content-disposition", `attachment; filename="${name}.txt"`)
          .send(sip.captureText(rows));
      return reply
        .header("content-type", "application/vnd.tcpdump.pcap")
        .header("content-disposition", `attachment; filename="${name}.pcap"`)
        .send(sip.capturePcap(rows));
    }),
  ];
}
