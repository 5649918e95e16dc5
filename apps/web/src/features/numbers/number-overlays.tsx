import { useAppPath } from "../../app/account-context.ts";
import { type NextStep, NotAvailableYet } from "../../components/not-available-yet.tsx";
import { appPath } from "../../lib/account-path.ts";
import type { OverlayComponentProps } from "../../overlays/registry.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";

/** The overlay's value names an agent when it is a positive id (`?selectNumber=<agent id>`). */
function agentIdOf(value: string): string | null {
  return /^\d{1,15}$/.test(value) && Number(value) > 0 ? value : null;
}

/** Test the agent in place when the overlay knows it, else go to the Agents page where every agent has Test. */
function useTryTheAgent(name: OverlayComponentProps["name"], value: string): NextStep {
  const overlays = useOverlays();
  const { accountPrefix } = useAppPath();
  const agentId = agentIdOf(value);
  return agentId
    ? { label: "Test your agent", onClick: () => overlays.switch(name, "testAgent", agentId) }
    : { label: "Test an agent", to: appPath(accountPrefix, "agents") };
}

const ASK_PROVIDER =
  "Ask whoever runs Switchboard for you (your partner or the platform's administrator) to assign your agent a number.";

/** `?selectNumber[=<agent id>]`: choosing a phone number for an agent (the numbers marketplace). */
export function SelectNumberOverlay({ name, value }: OverlayComponentProps) {
  const { accountPrefix } = useAppPath();
  const tryIt = useTryTheAgent(name, value);
  return (
    <NotAvailableYet
      purpose="Here you will pick a phone number for your agent — buy one from the marketplace or bring your own number or SIP trunk — so callers and texters reach it."
      missing="Switchboard cannot buy or connect phone numbers yet. Until numbers arrive, an agent has a number only when one is assigned to it for you."
      instead={[
        "Try your agent in the test chat: it answers exactly as it will on the phone.",
        "Text an agent that has a number from the phone simulator under Developers; the conversation shows in your inbox.",
        ASK_PROVIDER,
      ]}
      actions={[tryIt, { label: "Open the phone simulator", to: appPath(accountPrefix, "developers") }]}
    />
  );
}

/** `?number=<number>`: one phone number's settings. */
export function NumberOverlay({ name, value }: OverlayComponentProps) {
  const { accountPrefix } = useAppPath();
  const tryIt = useTryTheAgent(name, "");
  return (
    <NotAvailableYet
      purpose="Here you will see and change one of your phone numbers: the agent that answers it, forwarding and its carrier."
      missing={`Phone numbers cannot be managed in Switchboard yet${value && value !== "true" ? ` (${value})` : ""}.`}
      instead={["An agent's number is shown on the Agents page and in the agent's details.", ASK_PROVIDER]}
      actions={[{ label: "Go to Agents", to: appPath(accountPrefix, "agents") }, tryIt]}
    />
  );
}

/** `?requestAccess=sms`: asking to have text messaging turned on for the organisation. */
export function RequestAccessOverlay({ name, value }: OverlayComponentProps) {
  const { accountPrefix } = useAppPath();
  const tryIt = useTryTheAgent(name, "");
  const what = value === "sms" || value === "true" ? "text messaging" : value;
  return (
    <NotAvailableYet
      purpose={`Request access to ${what} for your organization.`}
      missing={`Requests cannot be sent from Switchboard yet, and ${what} is turned off for your organization.`}
      instead={[
        "Ask whoever runs Switchboard for you (your partner or the platform's administrator) to turn on “SMS enabled” for your organization under Accounts → Administer organization.",
        "Meanwhile, try your agent in the test chat, or text an agent that has a number from the phone simulator under Developers.",
      ]}
      actions={[tryIt, { label: "Open the phone simulator", to: appPath(accountPrefix, "developers") }]}
    />
  );
}

/** `?forwardingInstructions`: how to forward an existing business line to the agent's number. */
export function ForwardingInstructionsOverlay({ name }: OverlayComponentProps) {
  const tryIt = useTryTheAgent(name, "");
  return (
    <NotAvailableYet
      purpose="Here you will find how to forward your existing business line to your agent's number, step by step for your carrier."
      missing="Forwarding needs your agent to have a phone number, and Switchboard cannot give agents numbers yet."
      instead={[
        "Try your agent in the test chat meanwhile.",
        ASK_PROVIDER,
        "You can mark this step done on the checklist and come back to it when numbers arrive.",
      ]}
      actions={[tryIt]}
    />
  );
}
