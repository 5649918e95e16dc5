import * as api from "@switchboard/api";
import { ApiError, notFound } from "../../api-error.ts";
import { handle } from "../../http/routes.ts";
import type { AgentsService } from "../agents/index.ts";
import type { ConversationsRepository } from "../conversations/index.ts";
import { runBrowserCall, type StartCall } from "../voice/index.ts";
import type { NumbersRepository } from "./numbers.repository.ts";
import type { NumbersService } from "./numbers.service.ts";
import { organizationIdOf } from "./numbers.service.ts";
import { type OutboundCalls, toOutboundCall } from "./outbound-calls.ts";

export function numbersRoutes(deps: {
  numbers: NumbersService;
  outbound: OutboundCalls;
  repo: NumbersRepository;
  agents: AgentsService;
  conversations: ConversationsRepository;
  startCallSession: StartCall;
}) {
  const { numbers, outbound, repo } = deps;
  return [
    handle(api.searchNumbersByPrefix, async ({ body }, { access }) => ({
      success: true as const,
      numbers: await numbers.search(access, { by: "prefix", ...body }),
    })),
    handle(api.searchNumbersByLocality, async ({ body }, { access }) => ({
      success: true as const,
      numbers: await numbers.search(access, { by: "locality", ...body }),
    })),
    handle(api.searchNumbersByPhrase, async ({ body }, { access }) => ({
      success: true as const,
      numbers: await numbers.search(access, {
        by: "phrase",
        ...body,
        digits: api.phraseToDigits(body.phrase),
      }),
    })),
    handle(api.listPhoneNumbers, (_input, { access }) => numbers.list(access)),
    handle(api.assignPhoneNumber, ({ body }, { access }) => numbers.assign(access, body)),
    handle(api.releasePhoneNumber, ({ body }, { access }) => numbers.release(access, body)),
    handle(api.assignByoNumber, ({ body }, { access }) => numbers.assignByo(access, body)),
    handle(api.verifyCellForwarding, ({ body }, { access }) => numbers.verifyForwarding(access, body)),
    handle(api.validateVerifiedNumber, ({ body }, { access }) =>
      numbers.validateVerifiedNumber(access, body),
    ),
    handle(api.placeOutboundCall, async ({ body }, { access }) => {
      const { account } = await deps.agents.resolveAgent(access, body.agentId, "canEditOrg");
      const { call } = await outbound.start({
        organizationId: account.organizationId ?? organizationIdOf(access.target),
        agentAccountId: account.id,
        to: body.to,
        from: body.from,
        variables: body.variables,
      });
      return { success: true as const, call: toOutboundCall(call) };
    }),
    handle(api.getOutboundCall, async ({ params }, { access }) => {
      const row = await repo.findCall(organizationIdOf(access.target), params.callId);
      if (!row || (access.target.accountType === "agent" && row.agentAccountId !== access.target.id))
        throw notFound(api.NUMBER_MESSAGES.callNotFound);
      return { success: true as const, call: toOutboundCall(row) };
    }),
    handle(api.listOutboundCalls, async (_input, { access }) => {
      const rows = await repo.listCalls(organizationIdOf(access.target));
      const mine =
        access.target.accountType === "agent"
          ? rows.filter((row) => row.agentAccountId === access.target.id)
          : rows;
      return { success: true as const, calls: mine.map(toOutboundCall) };
    }),
    handle(api.setSandboxCallee, async ({ body }, { access }) => {
      const row = await repo.setCallee(
        organizationIdOf(access.target),
        body.number,
        body.behaviour,
        body.says ?? null,
      );
      return {
        success: true as const,
        callee: { number: row.number, behaviour: row.behaviour, says: row.says },
      };
    }),
    // The sandbox phone: a browser call to one of the organisation's numbers, answered by its agent.
    handle(api.dialNumber, async ({ query }, { access, socket, request }) => {
      if (!socket) throw new ApiError(426, api.VOICE_MESSAGES.webSocketOnly);
      await runBrowserCall(
        socket,
        request.log,
        {
          from: access.caller.user.email ?? `user ${access.caller.user.id}`,
          to: query.number,
          answer: async () => ({
            agentAccountId: (await numbers.numberOfOrg(access, query.number)).agentAccountId as number,
            stage: "production",
            roomKind: "live",
          }),
        },
        deps,
      );
    }),
  ];
}
