import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { ReferralsService } from "./referrals.service.ts";

export function referralRoutes(referrals: ReferralsService) {
  return [
    handle(api.getReferralRewards, (_input, { access }) => referrals.overview(access)),
    handle(api.claimRewards, (_input, { access }) => referrals.claim(access)),
    handle(api.issueRefundToUser, ({ body }, { access }) => referrals.refund(access, body)),
  ];
}
