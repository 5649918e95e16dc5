import type { TablerIcon } from "@tabler/icons-react";
import IconAddressBook from "@tabler/icons-react/dist/esm/icons/IconAddressBook.mjs";
import IconBook from "@tabler/icons-react/dist/esm/icons/IconBook.mjs";
import IconCode from "@tabler/icons-react/dist/esm/icons/IconCode.mjs";
import IconDialpad from "@tabler/icons-react/dist/esm/icons/IconDialpad.mjs";
import IconInbox from "@tabler/icons-react/dist/esm/icons/IconInbox.mjs";
import IconLayoutDashboard from "@tabler/icons-react/dist/esm/icons/IconLayoutDashboard.mjs";
import IconListCheck from "@tabler/icons-react/dist/esm/icons/IconListCheck.mjs";
import IconPhoneCall from "@tabler/icons-react/dist/esm/icons/IconPhoneCall.mjs";
import IconReceipt from "@tabler/icons-react/dist/esm/icons/IconReceipt.mjs";
import IconRobot from "@tabler/icons-react/dist/esm/icons/IconRobot.mjs";
import IconSettings from "@tabler/icons-react/dist/esm/icons/IconSettings.mjs";
import IconWallet from "@tabler/icons-react/dist/esm/icons/IconWallet.mjs";
import type { ComponentType } from "react";

export const FEATURE_SLUGS = [
  "dashboard",
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

export type FeatureDefinition = {
  slug: FeatureSlug;
  /** Label in the sidebar. */
  label: string;
  icon: TablerIcon;
  /** Loads the page: every product area is a chunk of its own. */
  load: () => Promise<ComponentType>;
};

/** The product areas of the sidebar, in order; `/app/<slug>` (after any account prefix) shows each. */
export const FEATURES: readonly FeatureDefinition[] = [
  {
    slug: "dashboard",
    label: "Dashboard",
    icon: IconLayoutDashboard,
    load: async () => (await import("./dashboard/dashboard-page.tsx")).DashboardPage,
  },
  {
    slug: "agents",
    label: "Agents",
    icon: IconRobot,
    load: async () => (await import("./agents/agents-page.tsx")).AgentsPage,
  },
  {
    slug: "inbox",
    label: "Inbox",
    icon: IconInbox,
    load: async () => (await import("./inbox/inbox-page.tsx")).InboxPage,
  },
  {
    slug: "contacts",
    label: "Contacts",
    icon: IconAddressBook,
    load: async () => (await import("./contacts/contacts-page.tsx")).ContactsPage,
  },
  {
    slug: "logs",
    label: "Calls",
    icon: IconPhoneCall,
    load: async () => (await import("./logs/logs-page.tsx")).LogsPage,
  },
  {
    slug: "tasks",
    label: "Tasks",
    icon: IconListCheck,
    load: async () => (await import("./tasks/tasks-page.tsx")).TasksPage,
  },
  {
    slug: "knowledge-base",
    label: "Knowledge base",
    icon: IconBook,
    load: async () => (await import("./knowledge-base/knowledge-base-page.tsx")).KnowledgeBasePage,
  },
  {
    slug: "numbers",
    label: "Numbers",
    icon: IconDialpad,
    load: async () => (await import("./numbers/numbers-page.tsx")).NumbersPage,
  },
  {
    slug: "developers",
    label: "Developers",
    icon: IconCode,
    load: async () => (await import("./developers/developers-page.tsx")).DevelopersPage,
  },
  {
    slug: "billing",
    label: "Billing",
    icon: IconReceipt,
    load: async () => (await import("./billing/billing-page.tsx")).BillingPage,
  },
  {
    slug: "wallet",
    label: "Wallet",
    icon: IconWallet,
    load: async () => (await import("./wallet/wallet-page.tsx")).WalletPage,
  },
  {
    slug: "settings",
    label: "Settings",
    icon: IconSettings,
    load: async () => (await import("./settings/settings-page.tsx")).SettingsPage,
  },
];

/** The area an /app path shows: its first segment after the account pairs; `/app` itself is the dashboard. */
export function featureForSegments(rest: readonly string[]): FeatureSlug | null {
  const first = rest[0];
  if (first === undefined) return "dashboard";
  return (FEATURE_SLUGS as readonly string[]).includes(first) ? (first as FeatureSlug) : null;
}

export function getFeature(slug: FeatureSlug): FeatureDefinition {
  const feature = FEATURES.find((candidate) => candidate.slug === slug);
  if (!feature) throw new Error(`Unknown product area ${slug}`);
  return feature;
}

const loaded = new Map<FeatureSlug, ComponentType>();

/** Loads an area's page once; the route loader awaits this so the progress bar covers the chunk. */
export async function loadFeature(slug: FeatureSlug): Promise<ComponentType> {
  const cached = loaded.get(slug);
  if (cached) return cached;
  const component = await getFeature(slug).load();
  loaded.set(slug, component);
  return component;
}

/** The page of an area already loaded by loadFeature(), if any. */
export function loadedFeature(slug: FeatureSlug): ComponentType | undefined {
  return loaded.get(slug);
}
