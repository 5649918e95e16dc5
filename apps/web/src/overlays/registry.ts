import type { ComponentType } from "react";
import { type RetryableLazyComponent, retryableLazy } from "../lib/retryable-lazy.ts";
import type { OverlayName } from "./overlay-names.ts";
import type { OverlayComponentProps } from "./overlay-props.ts";

/** An overlay's component, loaded on first render; `preload` loads its module (tests, prefetching). */
export type OverlayComponent = RetryableLazyComponent<OverlayComponentProps> & {
  preload(): Promise<ComponentType<OverlayComponentProps>>;
};

export type OverlayDefinition = {
  /** Title of the modal or drawer (its accessible name). */
  title: string;
  component: OverlayComponent;
  /** Modal (default) or a drawer from the right. */
  presentation?: "modal" | "drawer";
  /** Mantine size of the modal or drawer. */
  size?: "xs" | "sm" | "md" | "lg" | "xl" | (string & {});
};

/**
 * Loads a named export on first render, so every overlay is a chunk of its own (and loads again on
 * "Try again" after a dropped connection): `lazyOverlay(() => import("./help-overlay.tsx"), "HelpOverlay")`.
 */
export function lazyOverlay<
  M extends Record<K, ComponentType<OverlayComponentProps>>,
  K extends keyof M & string,
>(load: () => Promise<M>, exportName: K): OverlayComponent {
  const preload = async (): Promise<ComponentType<OverlayComponentProps>> => (await load())[exportName];
  return Object.assign(retryableLazy(preload), { preload });
}

/**
 * Overlay name -> lazy component. To add an overlay, add one entry here that imports its module lazily
 * (usually from src/features/<feature>/); open it with useOverlays().open(name). Every name of spec §2.1
 * has an entry (registry.test.ts fails otherwise).
 */
export const overlayRegistry: Record<OverlayName, OverlayDefinition> = {
  help: {
    title: "Help",
    component: lazyOverlay(() => import("./help-overlay.tsx"), "HelpOverlay"),
  },
  info: {
    title: "About Switchboard",
    component: lazyOverlay(() => import("./info-overlay.tsx"), "InfoOverlay"),
  },
  createWebhook: {
    title: "Add a webhook",
    size: "lg",
    component: lazyOverlay(
      () => import("../features/developers/create-webhook-overlay.tsx"),
      "CreateWebhookOverlay",
    ),
  },
  docsPage: {
    title: "Documentation",
    size: "lg",
    component: lazyOverlay(() => import("../features/help/docs-overlay.tsx"), "DocsOverlay"),
  },
  form: {
    title: "Contact support",
    component: lazyOverlay(() => import("../features/help/support-form-overlay.tsx"), "SupportFormOverlay"),
  },
  debug: {
    title: "Debug",
    presentation: "drawer",
    size: "lg",
    component: lazyOverlay(() => import("../features/system/debug-overlay.tsx"), "DebugOverlay"),
  },

  // Live call state (issue 16): the calls in progress, and one of them as it happens.
  calling: {
    title: "Calls in progress",
    size: "lg",
    component: lazyOverlay(() => import("../features/voice/live-calls-overlays.tsx"), "LiveCallsOverlay"),
  },
  call: {
    title: "Live call",
    presentation: "drawer",
    size: "lg",
    component: lazyOverlay(() => import("../features/voice/live-calls-overlays.tsx"), "LiveCallOverlay"),
  },

  // Apps: an app of the catalogue, installed for the organisation's agents.
  install: {
    title: "App",
    component: lazyOverlay(() => import("../features/apps/install-app-overlay.tsx"), "InstallAppOverlay"),
  },

  // Money: the wallet's top-ups by card or lightning (issue 21).
  addFunds: {
    title: "Add funds",
    component: lazyOverlay(() => import("../features/wallet/add-funds-overlay.tsx"), "AddFundsOverlay"),
  },
  withdraw: {
    title: "Withdraw",
    component: lazyOverlay(() => import("../features/wallet/withdraw-overlay.tsx"), "WithdrawOverlay"),
  },
  wallet: {
    title: "Wallet",
    component: lazyOverlay(() => import("../features/wallet/wallet-overlays.tsx"), "WalletOverlay"),
  },
  balances: {
    title: "Balances",
    component: lazyOverlay(() => import("../features/wallet/wallet-overlays.tsx"), "BalancesOverlay"),
  },
  transactions: {
    title: "Transactions",
    size: "lg",
    component: lazyOverlay(() => import("../features/wallet/wallet-overlays.tsx"), "TransactionsOverlay"),
  },

  // Accounts: switching, viewing as, taking over, the hierarchy (issue 3).
  accountSearch: {
    title: "Switch account",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/account-search-overlay.tsx"),
      "AccountSearchOverlay",
    ),
  },
  viewAs: {
    title: "View as",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/view-as-overlay.tsx"),
      "ViewAsOverlay",
    ),
  },
  orgTakeover: {
    title: "Take over organization",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/takeover-overlay.tsx"),
      "TakeoverOverlay",
    ),
  },
  resellerTakeover: {
    title: "Take over reseller",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/takeover-overlay.tsx"),
      "TakeoverOverlay",
    ),
  },
  partnerTakeover: {
    title: "Take over partner",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/takeover-overlay.tsx"),
      "TakeoverOverlay",
    ),
  },
  createOrgAccount: {
    title: "New organization",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/create-account-overlays.tsx"),
      "CreateOrgAccountOverlay",
    ),
  },
  createResellerAccount: {
    title: "New reseller",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/create-account-overlays.tsx"),
      "CreateResellerAccountOverlay",
    ),
  },
  createAgentAccount: {
    title: "New agent account",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/create-account-overlays.tsx"),
      "CreateAgentAccountOverlay",
    ),
  },
  deleteOrganization: {
    title: "Delete organization",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/delete-organization-overlay.tsx"),
      "DeleteOrganizationOverlay",
    ),
  },
  orgAdmin: {
    title: "Administer organization",
    presentation: "drawer",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/org-admin-overlay.tsx"),
      "OrgAdminOverlay",
    ),
  },
  orgInfo: {
    title: "Organization",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/account-info-overlay.tsx"),
      "AccountInfoOverlay",
    ),
  },
  resellerInfo: {
    title: "Reseller",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/account-info-overlay.tsx"),
      "AccountInfoOverlay",
    ),
  },
  partnerInfo: {
    title: "Partner",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/account-info-overlay.tsx"),
      "AccountInfoOverlay",
    ),
  },
  resellerPreview: {
    title: "Reseller preview",
    size: "lg",
    component: lazyOverlay(
      () => import("../features/accounts/overlays/reseller-preview-overlay.tsx"),
      "ResellerPreviewOverlay",
    ),
  },

  // Agents: the onboarding wizard (spec §2.3, §4.1).
  onboard: {
    title: "Build your agent",
    size: "xl",
    component: lazyOverlay(
      () => import("../features/onboarding/onboarding-overlay.tsx"),
      "OnboardingOverlay",
    ),
  },

  setupAgent: {
    title: "New agent",
    size: "lg",
    component: lazyOverlay(
      () => import("../features/agents/overlays/setup-agent-overlay.tsx"),
      "SetupAgentOverlay",
    ),
  },
  editAgent: {
    title: "Edit agent",
    size: "calc(100vw - 2rem)",
    component: lazyOverlay(
      () => import("../features/agents/editor/edit-agent-overlay.tsx"),
      "EditAgentOverlay",
    ),
  },
  saveConflict: {
    title: "Save conflict",
    size: "lg",
    component: lazyOverlay(
      () => import("../features/agents/editor/compare-overlays.tsx"),
      "SaveConflictOverlay",
    ),
  },
  compareChanges: {
    title: "Compare changes",
    size: "xl",
    component: lazyOverlay(
      () => import("../features/agents/editor/compare-overlays.tsx"),
      "CompareChangesOverlay",
    ),
  },
  agentInfo: {
    title: "Agent",
    component: lazyOverlay(
      () => import("../features/agents/overlays/agent-overlays.tsx"),
      "AgentInfoOverlay",
    ),
  },
  agentSettings: {
    title: "Agent settings",
    component: lazyOverlay(
      () => import("../features/agents/overlays/agent-overlays.tsx"),
      "AgentSettingsOverlay",
    ),
  },
  agentAdmin: {
    title: "Administer agent",
    presentation: "drawer",
    component: lazyOverlay(
      () => import("../features/agents/overlays/agent-overlays.tsx"),
      "AgentAdminOverlay",
    ),
  },
  deleteAgent: {
    title: "Delete agent",
    component: lazyOverlay(
      () => import("../features/agents/overlays/agent-overlays.tsx"),
      "DeleteAgentOverlay",
    ),
  },
  createTemplate: {
    title: "New template",
    component: lazyOverlay(
      () => import("../features/agents/overlays/template-overlays.tsx"),
      "CreateTemplateOverlay",
    ),
  },
  renameTemplate: {
    title: "Rename template",
    component: lazyOverlay(
      () => import("../features/agents/overlays/template-overlays.tsx"),
      "RenameTemplateOverlay",
    ),
  },

  testAgent: {
    title: "Test agent",
    size: "lg",
    component: lazyOverlay(() => import("../features/runtime/test-agent-overlay.tsx"), "TestAgentOverlay"),
  },
  chat: {
    title: "Chat with the agent",
    size: "lg",
    component: lazyOverlay(() => import("../features/runtime/test-agent-overlay.tsx"), "TestAgentOverlay"),
  },

  integrations: {
    title: "Integrations",
    size: "lg",
    component: lazyOverlay(
      () => import("../features/integrations/integrations-overlay.tsx"),
      "IntegrationsOverlay",
    ),
  },
  schedule: {
    title: "Schedule",
    size: "lg",
    component: lazyOverlay(() => import("../features/schedule/schedule-overlay.tsx"), "ScheduleOverlay"),
  },

  // Contacts (issue 7).
  contacts: {
    title: "Contacts",
    size: "lg",
    component: lazyOverlay(() => import("../features/contacts/contact-overlays.tsx"), "ContactsOverlay"),
  },
  // Tasks (issue 18): upload a list, one task, the limits.
  uploadTaskList: {
    title: "Upload a list",
    size: "xl",
    component: lazyOverlay(
      () => import("../features/tasks/upload-task-list-overlay.tsx"),
      "UploadTaskListOverlay",
    ),
  },
  createTask: {
    title: "New task",
    size: "lg",
    component: lazyOverlay(() => import("../features/tasks/task-overlays.tsx"), "CreateTaskOverlay"),
  },
  editTask: {
    title: "Task",
    presentation: "drawer",
    size: "lg",
    component: lazyOverlay(() => import("../features/tasks/task-overlays.tsx"), "EditTaskOverlay"),
  },
  taskSettings: {
    title: "Task settings",
    size: "lg",
    component: lazyOverlay(
      () => import("../features/tasks/task-settings-overlay.tsx"),
      "TaskSettingsOverlay",
    ),
  },
  createContact: {
    title: "New contact",
    size: "lg",
    component: lazyOverlay(() => import("../features/contacts/contact-overlays.tsx"), "CreateContactOverlay"),
  },
  editContact: {
    title: "Edit contact",
    size: "lg",
    component: lazyOverlay(() => import("../features/contacts/contact-overlays.tsx"), "EditContactOverlay"),
  },
  previewContact: {
    title: "Contact",
    component: lazyOverlay(
      () => import("../features/contacts/contact-overlays.tsx"),
      "PreviewContactOverlay",
    ),
  },
  deleteContact: {
    title: "Delete contact",
    component: lazyOverlay(() => import("../features/contacts/contact-overlays.tsx"), "DeleteContactOverlay"),
  },

  // Members of the account in view.
  members: {
    title: "Members",
    size: "lg",
    component: lazyOverlay(() => import("../features/members/members-overlays.tsx"), "MembersOverlay"),
  },
  memberInvite: {
    title: "Invite a member",
    component: lazyOverlay(() => import("../features/members/members-overlays.tsx"), "MemberInviteOverlay"),
  },
  memberDelete: {
    title: "Remove a member",
    component: lazyOverlay(() => import("../features/members/members-overlays.tsx"), "MemberDeleteOverlay"),
  },

  // Profile and settings.
  settings: {
    title: "Settings",
    presentation: "drawer",
    component: lazyOverlay(() => import("../features/profile/settings-overlay.tsx"), "SettingsOverlay"),
  },
  editEmail: {
    title: "E-mail address",
    component: lazyOverlay(() => import("../features/profile/edit-email-overlay.tsx"), "EditEmailOverlay"),
  },
  editFullName: {
    title: "Full name",
    component: lazyOverlay(
      () => import("../features/profile/edit-account-overlays.tsx"),
      "EditFullNameOverlay",
    ),
  },
  editAvatar: {
    title: "Profile image",
    component: lazyOverlay(() => import("../features/profile/edit-avatar-overlay.tsx"), "EditAvatarOverlay"),
  },
  editUserAccount: {
    title: "Account details",
    component: lazyOverlay(
      () => import("../features/profile/edit-account-overlays.tsx"),
      "EditUserAccountOverlay",
    ),
  },
  editSlug: {
    title: "Username",
    component: lazyOverlay(() => import("../features/profile/edit-account-overlays.tsx"), "EditSlugOverlay"),
  },
  search: {
    title: "Search",
    size: "lg",
    component: lazyOverlay(() => import("../features/search/search-overlay.tsx"), "SearchOverlay"),
  },
  shareProfile: {
    title: "Share your page",
    component: lazyOverlay(
      () => import("../features/public-page/share-profile-overlay.tsx"),
      "ShareProfileOverlay",
    ),
  },
  editSocial: {
    title: "Social links",
    component: lazyOverlay(() => import("../features/profile/edit-social-overlay.tsx"), "EditSocialOverlay"),
  },

  // Conversation logs and dashboards (issue 8).
  logFilterBuilder: {
    title: "Filter calls",
    size: "xl",
    component: lazyOverlay(() => import("../features/logs/logs-overlays.tsx"), "LogFilterBuilderOverlay"),
  },
  editConvoColumns: {
    title: "Columns",
    presentation: "drawer",
    component: lazyOverlay(() => import("../features/logs/logs-overlays.tsx"), "EditConvoColumnsOverlay"),
  },
  callTranscript: {
    title: "Transcript",
    presentation: "drawer",
    size: "lg",
    component: lazyOverlay(() => import("../features/logs/logs-overlays.tsx"), "CallTranscriptOverlay"),
  },
  editDashboard: {
    title: "Edit dashboard",
    size: "lg",
    component: lazyOverlay(
      () => import("../features/dashboard/edit-dashboard-overlay.tsx"),
      "EditDashboardOverlay",
    ),
  },
  editMetric: {
    title: "Metric",
    size: "xl",
    component: lazyOverlay(
      () => import("../features/dashboard/edit-metric-overlay.tsx"),
      "EditMetricOverlay",
    ),
  },
  reporting: {
    title: "Usage and reports",
    size: "xl",
    component: lazyOverlay(() => import("../features/dashboard/reporting-overlay.tsx"), "ReportingOverlay"),
  },

  // Numbers and money: until their issues land, each says what is missing and what to do instead.
  selectNumber: {
    title: "Choose a phone number",
    size: "lg",
    component: lazyOverlay(() => import("../features/numbers/number-overlays.tsx"), "SelectNumberOverlay"),
  },
  number: {
    title: "Phone number",
    component: lazyOverlay(() => import("../features/numbers/number-overlays.tsx"), "NumberOverlay"),
  },
  addCustomNumber: {
    title: "Bring your own number",
    component: lazyOverlay(() => import("../features/numbers/number-overlays.tsx"), "AddCustomNumberOverlay"),
  },
  callVerify: {
    title: "Verify a caller ID",
    component: lazyOverlay(() => import("../features/numbers/number-overlays.tsx"), "CallVerifyOverlay"),
  },
  requestAccess: {
    title: "Request access",
    component: lazyOverlay(
      () => import("../features/numbers/request-access-overlay.tsx"),
      "RequestAccessOverlay",
    ),
  },
  forwardingInstructions: {
    title: "Forward your calls",
    component: lazyOverlay(
      () => import("../features/numbers/number-overlays.tsx"),
      "ForwardingInstructionsOverlay",
    ),
  },
  upgrade: {
    title: "Upgrade to premium",
    size: "xl",
    component: lazyOverlay(() => import("../features/billing/plan-overlays.tsx"), "UpgradeOverlay"),
  },
  premium: {
    title: "Premium",
    component: lazyOverlay(() => import("../features/billing/plan-overlays.tsx"), "PremiumOverlay"),
  },
  selectPlan: {
    title: "Choose a plan",
    size: "xl",
    component: lazyOverlay(() => import("../features/billing/plan-overlays.tsx"), "SelectPlanOverlay"),
  },
  planDetails: {
    title: "Plan details",
    size: "lg",
    component: lazyOverlay(() => import("../features/billing/plan-overlays.tsx"), "PlanDetailsOverlay"),
  },
  planOffered: {
    title: "Plan offered to you",
    size: "lg",
    component: lazyOverlay(() => import("../features/billing/plan-overlays.tsx"), "PlanOfferedOverlay"),
  },
  editPlan: {
    title: "Edit plan prices",
    component: lazyOverlay(() => import("../features/billing/edit-plan-overlay.tsx"), "EditPlanOverlay"),
  },
  billing: {
    title: "Billing",
    size: "lg",
    component: lazyOverlay(() => import("../features/billing/billing-overlay.tsx"), "BillingOverlay"),
  },
  checkout: {
    title: "Pay by card",
    component: lazyOverlay(() => import("../features/wallet/checkout-overlay.tsx"), "CheckoutOverlay"),
  },

  // The link page (public page) and its profile.
  editPage: {
    title: "Edit your page's links",
    size: "lg",
    component: lazyOverlay(() => import("../features/public-page/edit-page-overlays.tsx"), "EditPageOverlay"),
  },
  editPageProfile: {
    title: "Edit your page's profile",
    component: lazyOverlay(
      () => import("../features/public-page/edit-page-overlays.tsx"),
      "EditPageProfileOverlay",
    ),
  },

  // Signing in from a link of the earlier app, and the phone.
  legacyLogin: {
    title: "Sign-in link",
    component: lazyOverlay(() => import("../features/auth/legacy-login-overlay.tsx"), "LegacyLoginOverlay"),
  },
  mobile: {
    title: "Switchboard on your phone",
    component: lazyOverlay(() => import("../features/settings/mobile-overlay.tsx"), "MobileOverlay"),
  },
  subscription: {
    title: "Subscription",
    component: lazyOverlay(() => import("../features/billing/plan-overlays.tsx"), "SubscriptionOverlay"),
  },
};

export function getOverlayDefinition(name: OverlayName): OverlayDefinition | undefined {
  return Object.hasOwn(overlayRegistry, name) ? overlayRegistry[name] : undefined;
}

/** "docsPage" -> "Docs page". */
export function humaniseOverlayName(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
