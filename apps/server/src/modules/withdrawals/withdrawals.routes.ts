import * as api from "@switchboard/api";
import type { FastifyReply } from "fastify";
import { notFound } from "../../api-error.ts";
import type { LoadLimits } from "../../http/load-limits.ts";
import { handle } from "../../http/routes.ts";
import type { SandboxLightningNode } from "../../providers/lightning/sandbox-node.ts";
import { sandboxConnectPage, sandboxPayoutPage, sandboxWalletPage } from "../wallet/index.ts";
import type { StripeConnect } from "./stripe-connect.ts";
import type { WithdrawalsService } from "./withdrawals.service.ts";

const html = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type("text/html; charset=utf-8").header("cache-control", "no-store").send(body);

export function withdrawalRoutes(
  service: WithdrawalsService,
  connect: StripeConnect,
  sandboxNode: SandboxLightningNode | null,
  limits: LoadLimits,
) {
  return [
    handle(api.stripeConnectAccount, ({ body }, { access, request }) =>
      connect.connectAccount(access, body, `${request.protocol}://${request.host}`),
    ),
    handle(api.stripeCheckConnectedAccount, (_input, { access }) => connect.check(access)),
    handle(api.stripeTransferFunds, ({ body }, { access, request }) => {
      limits.payments.check(request, access);
      return connect.transferFunds(access, body);
    }),
    handle(api.sandboxStripeConnectPage, async ({ params }, { reply }) => {
      const row = await connect.onboarding(params.onboardingId);
      return html(
        reply,
        sandboxConnectPage({
          onboardingId: params.onboardingId,
          accountId: row.externalAccountId,
          payoutsEnabled: row.payoutsEnabled,
        }),
      );
    }),
    handle(api.sandboxStripeConnectSubmit, async ({ params, body }, { reply }) => {
      const outcome = await connect.sandboxSubmit(params.onboardingId, body);
      if ("redirect" in outcome) return reply.redirect(outcome.redirect, 303);
      return html(
        reply,
        sandboxConnectPage(
          {
            onboardingId: params.onboardingId,
            accountId: outcome.row.externalAccountId,
            payoutsEnabled: outcome.row.payoutsEnabled,
          },
          { ...body, error: outcome.error },
        ),
        400,
      );
    }),
    handle(api.requestWithdrawal, ({ body }, { access, request }) => {
      limits.invoiceDecode.check(request, access);
      return service.lightning(access, body);
    }),
    handle(api.payoutVenmo, ({ body }, { access, request }) => {
      limits.payments.check(request, access);
      return service.payout(access, "venmo", body);
    }),
    handle(api.payoutPaypal, ({ body }, { access, request }) => {
      limits.payments.check(request, access);
      return service.payout(access, "paypal", body);
    }),
    handle(api.getWithdrawal, ({ params }, { access }) => service.one(access, params.withdrawalId)),
    handle(api.listWithdrawals, ({ query }, { access }) => service.list(access, query.limit)),
    handle(api.sandboxPayoutsPage, async ({ params }, { reply }) =>
      html(reply, sandboxPayoutPage(await service.sandboxPayout(params.batchId))),
    ),
    handle(api.sandboxLightningReceive, async ({ body }, { reply }) => {
      if (!sandboxNode) throw notFound(api.WALLET_MESSAGES.sandboxOff);
      if (body.amountSats < 1)
        return html(
          reply,
          sandboxWalletPage({
            invoice: "",
            received: await sandboxNode.received(),
            receiveError: "Enter a whole number of satoshis.",
          }),
          400,
        );
      const created = await sandboxNode.receive(body.amountSats, "Sandbox wallet: receive");
      // Post, then redirect: reloading the page does not make another invoice.
      return reply.redirect(
        `/sandbox/lightning/wallet?receive=${encodeURIComponent(created.paymentRequest)}`,
        303,
      );
    }),
  ];
}
