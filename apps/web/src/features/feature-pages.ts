import type { ComponentType } from "react";

/**
 * The product areas' slugs and their page chunks, without the sidebar's icons and labels: small enough for
 * the /app route's first loader, which starts the page's chunk beside the shell's (issue #23: no request
 * chains before the first paint). registry.ts describes each area for the sidebar.
 */
export const FEATURE_SLUGS = [
  "dashboard",
  "accounts",
  "agents",
  "inbox",
  "contacts",
  "logs",
  "tasks",
  "knowledge-base",
  "numbers",
  "developers",
  "billing",
  "wallet",
  "settings",
] as const;

export type FeatureSlug = (typeof FEATURE_SLUGS)[number];

/** Every product area is a chunk of its own. */
export const FEATURE_PAGES: Record<FeatureSlug, () => Promise<ComponentType>> = {
  dashboard: async () => (await import("./dashboard/dashboard-page.tsx")).DashboardPage,
  accounts: async () => (await import("./accounts/accounts-page.tsx")).AccountsPage,
  agents: async () => (await import("./agents/agents-page.tsx")).AgentsPage,
  inbox: async () => (await import("./inbox/inbox-page.tsx")).InboxPage,
  contacts: async () => (await import("./contacts/contacts-page.tsx")).ContactsPage,
  logs: async () => (await import("./logs/logs-page.tsx")).LogsPage,
  tasks: async () => (await import("./tasks/tasks-page.tsx")).TasksPage,
  "knowledge-base": async () => (await import("./knowledge-base/knowledge-base-page.tsx")).KnowledgeBasePage,
  numbers: async () => (await import("./numbers/numbers-page.tsx")).NumbersPage,
  developers: async () => (await import("./developers/developers-page.tsx")).DevelopersPage,
  billing: async () => (await import("./billing/billing-page.tsx")).BillingPage,
  wallet: async () => (await import("./wallet/wallet-page.tsx")).WalletPage,
  settings: async () => (await import("./settings/settings-page.tsx")).SettingsPage,
};

/** The area an /app path shows: its first segment after the account pairs; `/app` itself is the dashboard. */
export function featureForSegments(rest: readonly string[]): FeatureSlug | null {
  const first = rest[0];
  if (first === undefined) return "dashboard";
  // The payment return pages (spec §2.2) belong to the wallet.
  if (
    first === "paymentSuccess" ||
    first === "paymentCancel" ||
    first === "stripePayoutConnectSuccess" ||
    first === "stripePayoutConnectFailure"
  )
    return "wallet";
  return (FEATURE_SLUGS as readonly string[]).includes(first) ? (first as FeatureSlug) : null;
}
