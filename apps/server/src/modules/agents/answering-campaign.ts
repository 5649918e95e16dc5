import type { Stage } from "@switchboard/api";

/**
 * Which of an agent's two campaigns answers a live turn (a text that came in or goes out, a task, an
 * outbound call's voicemail, the agent's bookings): the published one (production), else the draft
 * (staging). The one place this rule is written; a caller that names a stage itself (the test chat, a call
 * placed on "production") asks for that stage instead.
 */
export function answeringCampaign<C>(campaigns: { staging: C; production: C | null }): {
  stage: Stage;
  campaign: C;
} {
  return campaigns.production
    ? { stage: "production", campaign: campaigns.production }
    : { stage: "staging", campaign: campaigns.staging };
}
