import { useAppPath } from "../../app/account-context.ts";
import { NotAvailableYet } from "../../components/not-available-yet.tsx";
import { appPath } from "../../lib/account-path.ts";

const ASK_PREMIUM =
  "Ask whoever runs Switchboard for you (your partner or the platform's administrator) to turn on “Premium” for your organization under Accounts → Administer organization.";

function usePaths() {
  const { accountPrefix } = useAppPath();
  return {
    agents: appPath(accountPrefix, "agents"),
    developers: appPath(accountPrefix, "developers"),
  };
}

/**
 * `?upgrade[=<next overlay>]`: upgrading the organisation to premium, which new conversations and phone
 * numbers need (spec §4.3). The inbox opens it with `selectNumber` as the step after it.
 */
export function UpgradeOverlay() {
  const paths = usePaths();
  return (
    <NotAvailableYet
      purpose="Upgrade your organization to premium to text from the inbox and give your agents their own phone numbers."
      missing="Plans and payments are not in Switchboard yet, so you cannot upgrade from here. Nothing is charged meanwhile."
      instead={[
        "Try your agents in the test chat (Agents → Test): it works on every plan.",
        "Text an agent that has a number from the phone simulator under Developers; the conversation shows in your inbox, where you can reply.",
        ASK_PREMIUM,
      ]}
      actions={[
        { label: "Open the phone simulator", to: paths.developers },
        { label: "Test an agent", to: paths.agents },
      ]}
    />
  );
}

/** `?premium`: what premium includes. */
export function PremiumOverlay() {
  const paths = usePaths();
  return (
    <NotAvailableYet
      purpose="Premium lets your organization start text conversations from the inbox and use its own phone numbers."
      missing="Premium cannot be bought in Switchboard yet. Nothing is charged meanwhile."
      instead={[
        ASK_PREMIUM,
        "Everything else — agents, the test chat, inbox, contacts and calls — works without it.",
      ]}
      actions={[{ label: "Test an agent", to: paths.agents }]}
    />
  );
}

/** `?selectPlan`: choosing a billing plan. */
export function SelectPlanOverlay() {
  const paths = usePaths();
  return (
    <NotAvailableYet
      purpose="Choose the plan your organization is billed on: its minutes, messages and agents."
      missing="Plans and billing are not in Switchboard yet, so there is nothing to choose and nothing is charged."
      instead={[
        "Keep building: agents, the test chat, inbox, contacts and calls work without a plan.",
        ASK_PREMIUM,
      ]}
      actions={[{ label: "Go to Agents", to: paths.agents }]}
    />
  );
}
