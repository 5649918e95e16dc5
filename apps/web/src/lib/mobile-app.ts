export type MobilePlatform = "Android" | "iOS";

export type MobileAppInfo = {
  /** The page runs inside the native mobile app (`mobileApp=true`). */
  isMobileApp: boolean;
  /** The native app hides the product brand (`genericBrand=true`). */
  genericBrand: boolean;
  /** Version of the native app (`appVersion`). */
  appVersion: string | null;
  /** Platform of the native app (`platform=Android|iOS`). */
  platform: MobilePlatform | null;
};

/** sessionStorage key: the flags stay for the browser session after the query is gone. */
export const MOBILE_APP_SESSION_KEY = "mobileApp";

export const NO_MOBILE_APP: MobileAppInfo = {
  isMobileApp: false,
  genericBrand: false,
  appVersion: null,
  platform: null,
};

type SessionStore = Pick<Storage, "getItem" | "setItem">;

function parsePlatform(value: string | null): MobilePlatform | null {
  const normalised = value?.trim().toLowerCase();
  if (normalised === "android") return "Android";
  if (normalised === "ios") return "iOS";
  return null;
}

function readStored(storage: SessionStore | undefined): MobileAppInfo {
  try {
    const raw = storage?.getItem(MOBILE_APP_SESSION_KEY);
    if (!raw) return NO_MOBILE_APP;
    const stored = JSON.parse(raw) as Partial<MobileAppInfo>;
    return {
      isMobileApp: stored.isMobileApp === true,
      genericBrand: stored.genericBrand === true,
      appVersion: typeof stored.appVersion === "string" ? stored.appVersion : null,
      platform: parsePlatform(typeof stored.platform === "string" ? stored.platform : null),
    };
  } catch {
    return NO_MOBILE_APP;
  }
}

/**
 * Mobile-app detection (spec §2.2): the query flags `mobileApp=true`, `genericBrand=true`, `appVersion` and
 * `platform` (Android or iOS). Flags found in the query are merged into what the session already knows and
 * saved, so later pages without the query still know they run in the app.
 */
export function detectMobileApp(
  search: string | URLSearchParams,
  storage: SessionStore | undefined,
): MobileAppInfo {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const stored = readStored(storage);
  const fromQuery: Partial<MobileAppInfo> = {};
  if (params.get("mobileApp") === "true") fromQuery.isMobileApp = true;
  if (params.get("genericBrand") === "true") fromQuery.genericBrand = true;
  const appVersion = params.get("appVersion")?.trim();
  if (appVersion) fromQuery.appVersion = appVersion;
  const platform = parsePlatform(params.get("platform"));
  if (platform) fromQuery.platform = platform;
  if (Object.keys(fromQuery).length === 0) return stored;
  const merged: MobileAppInfo = { ...stored, ...fromQuery };
  try {
    storage?.setItem(MOBILE_APP_SESSION_KEY, JSON.stringify(merged));
  } catch {
    // Storage may be full or blocked; detection still holds for this page.
  }
  return merged;
}

/**
 * The page's viewport (spec §2.2, "the viewport disables user scaling"): locked inside the native app, which
 * gives its own gestures; in a browser people may zoom (WCAG 1.4.4), so the web page keeps scaling on.
 */
export function viewportContent(isMobileApp: boolean): string {
  return isMobileApp
    ? "width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no"
    : "width=device-width, initial-scale=1";
}
