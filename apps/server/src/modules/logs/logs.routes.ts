import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { LogsService } from "./logs.service.ts";
import type { MetricsService } from "./metrics.service.ts";
import type { StatsService } from "./stats.service.ts";

export function logsRoutes(logs: LogsService, metrics: MetricsService, stats: StatsService) {
  return [
    handle(api.listLogs, async ({ query }, { access, reply, request }) => {
      if (query.format === "json") return logs.list(access, query);
      // Checked and first rows read before anything is sent: a refusal still answers JSON.
      const { fileName, lines, stop } = await logs.csv(access, query);
      reply.hijack();
      try {
        reply.raw.writeHead(200, {
          ...(reply.getHeaders() as Record<string, string>),
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${fileName}"`,
          "cache-control": "no-store",
        });
        // One batch or chunk buffered at most: the next is read only when the socket drains.
        await pipeline(Readable.from(lines(), { highWaterMark: 1 }), reply.raw);
      } catch (error) {
        request.log.warn({ err: error }, "log export ended early");
        reply.raw.destroy();
      } finally {
        await stop().catch((error: unknown) => request.log.warn({ err: error }, "log export: stop failed"));
      }
      return reply;
    }),
    handle(api.listLogFields, (_input, { access }) => logs.fields(access)),
    handle(api.fetchCallsForReview, ({ query }, { access }) => logs.review(access, query)),
    handle(api.getDashboardMetrics, ({ query }, { access }) => metrics.dashboard(access, query)),
    handle(api.evaluateMetric, ({ body }, { access }) => metrics.evaluate(access, body)),
    handle(api.saveDashboardMetrics, ({ body }, { access }) => metrics.save(access, body)),
    handle(api.getUsageStats, ({ query }, { access }) => stats.usage(access, query)),
    handle(api.getCampaignStats, ({ params }, { access }) => stats.campaigns(access, params.date)),
    handle(api.postCampaignStats, ({ body }, { access }) => stats.campaign(access, body)),
  ];
}
