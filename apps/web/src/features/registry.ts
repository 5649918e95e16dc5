import type { PermissionFlag } from "@switchboard/core";
import type { TablerIcon } from "@tabler/icons-react";
import IconAddressBook from "@tabler/icons-react/dist/esm/icons/IconAddressBook.mjs";
import IconBook from "@tabler/icons-react/dist/esm/icons/IconBook.mjs";
import IconBuildingCommunity from "@tabler/icons-react/dist/esm/icons/IconBuildingCommunity.mjs";
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
import type { SegmentAccountType } from "../lib/account-path.ts";
import { FEATURE_PAGES, type FeatureSlug } from "./feature-pages.ts";

export { FEATURE_SLUGS, type FeatureSlug, featureForSegments } from "./feature-pages.ts";

export type FeatureDefinition = {
  slug: FeatureSlug;
  /** Label in the sidebar. */
  label: string;
  icon: TablerIcon;
  /** Loads the page: every product area is a chunk of its own. */
  load: () => Promise<ComponentType>;
  /** Shown only when this permission flag is granted for the account in view (spec §6). */
  permission?: PermissionFlag;
  /** Shown only when the account in view is of one of these types. */
  accountTypes?: readonly SegmentAccountType[];
  /**
   * An area whose data belongs to one organisation: shown for organisations and their agents; a partner or
   * reseller is told to open the organisation from Accounts to work on this (what it holds, in words).
   */
  organizationData?: string;
};

/** The product areas of the sidebar, in order; `/app/<slug>` (after any account prefix) shows each. */
export const FEATURES: readonly FeatureDefinition[] = [
  {
    slug: "dashboard",
    label: "Dashboard",
    icon: IconLayoutDashboard,
    load: FEATURE_PAGES.dashboard,
  },
  {
    slug: "accounts",
    label: "Accounts",
    icon: IconBuildingCommunity,
    load: FEATURE_PAGES.accounts,
    accountTypes: ["partner", "reseller", "organization"],
  },
  {
    slug: "agents",
    label: "Agents",
    icon: IconRobot,
    load: FEATURE_PAGES.agents,
  },
  {
    slug: "inbox",
    label: "Inbox",
    icon: IconInbox,
    load: FEATURE_PAGES.inbox,
  },
  {
    slug: "contacts",
    label: "Contacts",
    icon: IconAddressBook,
    load: FEATURE_PAGES.contacts,
    organizationData: "contacts",
  },
  {
    slug: "logs",
    label: "Calls",
    icon: IconPhoneCall,
    load: FEATURE_PAGES.logs,
  },
  {
    slug: "tasks",
    label: "Tasks",
    icon: IconListCheck,
    load: FEATURE_PAGES.tasks,
    permission: "canViewTasks",
    organizationData: "task lists",
  },
  {
    slug: "knowledge-base",
    label: "Knowledge base",
    icon: IconBook,
    load: FEATURE_PAGES["knowledge-base"],
    organizationData: "knowledge bases",
  },
  {
    slug: "numbers",
    label: "Numbers",
    icon: IconDialpad,
    load: FEATURE_PAGES.numbers,
    organizationData: "phone numbers",
  },
  {
    slug: "developers",
    label: "Developers",
    icon: IconCode,
    load: FEATURE_PAGES.developers,
    organizationData: "API keys, webhooks and SIP settings",
  },
  {
    slug: "billing",
    label: "Billing",
    icon: IconReceipt,
    load: FEATURE_PAGES.billing,
    permission: "canViewBilling",
  },
  {
    slug: "wallet",
    label: "Wallet",
    icon: IconWallet,
    load: FEATURE_PAGES.wallet,
    permission: "canViewBilling",
  },
  {
    slug: "settings",
    label: "Settings",
    icon: IconSettings,
    load: FEATURE_PAGES.settings,
  },
];

/** What decides whether an area shows: the flags granted for the account in view and its type. */
export type FeatureAccess = {
  permissions: Partial<Record<PermissionFlag, boolean>>;
  accountType: SegmentAccountType;
};

/** Whether the sidebar shows the area (and its page opens) for the account in view. */
export function isFeatureVisible(feature: FeatureDefinition, access: FeatureAccess): boolean {
  if (feature.permission && access.permissions[feature.permission] !== true) return false;
  if (feature.accountTypes && !feature.accountTypes.includes(access.accountType)) return false;
  if (feature.organizationData && access.accountType !== "organization" && access.accountType !== "agent")
    return false;
  return true;
}

/** The areas of the sidebar for the account in view, in order. */
export function visibleFeatures(access: FeatureAccess): FeatureDefinition[] {
  return FEATURES.filter((feature) => isFeatureVisible(feature, access));
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
