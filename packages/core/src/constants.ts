/**
 * Business constants and limits: product spec §9 and call catalogue §9, in one place.
 * Durations are milliseconds unless the name says otherwise.
 */

/** Responsive breakpoints in px. */
export const BREAKPOINTS = { xs: 550, sm: 768, md: 1024, lg: 1280, xl: 1536, xxl: 1836 } as const;

export const PAGE_SIZES = {
  inbox: 20,
  organizationAgentAccounts: 20,
  lists: 20,
  tasks: 10,
  logs: 100,
  logExport: 10_000,
} as const;
/** Default page for list calls. */
export const DEFAULT_PAGE = 0;
export const LOG_EXPORT_PAGE = 1;
export const LIST_DEFAULTS = { page: 0, pageSize: 20, pagination: true, active: true } as const;
export const TASK_LIST_DEFAULTS = { limit: 10, sort: "createdAt", order: "desc" } as const;

export const FAVOURITE_AGENTS_SHOWN = 5;
export const DEFAULT_SHOWN_LOG_COLUMNS = 10;

export const CAMPAIGN_AUTOSAVE_MS = 1500;
export const PUBLISH_WAIT_BEFORE_MS = 1500;
export const PUBLISH_WAIT_AFTER_MS = 200;
export const ONBOARDING_SAVE_DEBOUNCE_MS = 1000;
export const SETTINGS_SAVE_DEBOUNCE_MS = 1000;
export const DEFAULT_DEBOUNCE_MS = 500;
export const DIALOG_TRANSITION_MS = 150;
export const TOAST_AUTO_CLOSE_MS = 1000;
/** Toast auto-close of the UI library where the product does not set its own. */
export const LIBRARY_TOAST_AUTO_CLOSE_MS = 5000;
export const TOAST_LIMIT = 1;

export const DEFAULT_LOG_RANGE_DAYS = 30;
export const DEFAULT_DASHBOARD_RANGE_DAYS = 30;
/** Export file name of the conversation logs: conversation_logs_{date}.csv or .json. */
export function conversationLogsExportName(date: string, format: "csv" | "json"): string {
  return `conversation_logs_${date}.${format}`;
}

export const TOP_UP_DEFAULT_UNIT = "USD";
export const PAYMENT_CURRENCY = "usd";
export const EXCHANGE_RATE_CACHE_SECONDS = 900;
export const FALLBACK_USD_PER_SAT = 0.00043;

export const EMAIL_CODE_LENGTH = 6;
export const LEGACY_ACCOUNT_CUTOFF_MS = 1_692_075_600_000;
export const WALKTHROUGH_VERSION = 1;
export const BOTTOM_OF_PAGE_PX = 400;

export const SUBSCRIPTION_TERM_DEFAULT = "month";
export const COUNTRY_DEFAULT = "US";
export const USAGE_FREQUENCY_DEFAULT = "day";
export const USAGE_COSTS_DEFAULT = { giveCosts: "true", combineCosts: "true" } as const;
export const USAGE_PADDING_DAYS = 30;
export const VERSION_SOURCE_DEFAULT = "staging";
export const RESTORE_TARGET_DEFAULT = "staging";
export const CAMPAIGN_PUBLISHED_DEFAULT = true;
export const CONFIRM_TRANSFERS_DEFAULT = false;
export const IS_OWNER_DEFAULT = false;

/** Local storage keys used by the web app (product spec §9). */
export const LOCAL_STORAGE_KEYS = {
  token: "token",
  id: "id",
  userData: "userData",
  viewingAs: "viewingAs",
  onboarding: "onboarding",
  orgAccountsData: "orgAccountsData",
  resellerAccountsData: "resellerAccountsData",
  theme: "theme",
  formSubmitted: "form-submitted",
  satsExchangeRate: "satsExchangeRate",
  contactDisplayNames: "contact-display-names",
  enableProdLogs: "enableProdLogs",
} as const;

/** Milliseconds in a day (UTC calendar arithmetic of date filters, windows and usage series). */
export const DAY_MS = 86_400_000;
