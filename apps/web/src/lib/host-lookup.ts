import type { DomainProfile } from "@switchboard/api";
import { type HostProfile, MAIN_HOST_PROFILE } from "./host-profile.ts";
import { errorStatus, requestJson } from "./shell-api.ts";

export const DOMAIN_LOOKUP_PATH = "/api/v1/domain/lookup";

/** Message of the error catalogue (spec §8) when a domain answer lacks its success flag or profile. */
export const INVALID_DOMAIN_DATA = "Invalid domain data";

/** A white-label host's profile from the lookup answer; "Invalid domain data" when it lacks success or profile. */
export function hostProfileFromLookup(answer: unknown): HostProfile {
  const data = answer as { success?: unknown; profile?: Partial<DomainProfile> | null } | null;
  if (data?.success !== true || !data.profile || typeof data.profile !== "object")
    throw new Error(INVALID_DOMAIN_DATA);
  const { profile } = data;
  const settings = profile.settings;
  const supportUrl =
    typeof settings?.supportUrl === "string" && settings.supportUrl ? settings.supportUrl : undefined;
  return {
    isMainHost: false,
    ...(typeof profile.id === "number" ? { profileId: profile.id } : {}),
    ...(typeof profile.name === "string" && profile.name ? { name: profile.name } : {}),
    ...(typeof profile.details?.image === "string" && profile.details.image
      ? { image: profile.details.image }
      : {}),
    ...(supportUrl ? { supportUrl } : {}),
    settings: {
      ...(supportUrl ? { supportUrl } : {}),
      smsMessaging: settings?.smsMessaging === true,
      allowEmbeds: settings?.allowEmbeds === true,
      appScripts: Array.isArray(settings?.appScripts)
        ? settings.appScripts.filter((url): url is string => typeof url === "string")
        : [],
    },
  };
}

/**
 * POST /api/v1/domain/lookup with this page's host name. The product's own host (the server answers
 * mainHost), a host that is not a white-label domain (404), a failed call or invalid domain data all mean
 * the main product host.
 */
export async function lookupHost(hostname: string, doFetch?: typeof fetch): Promise<HostProfile> {
  let answer: unknown;
  try {
    answer = await requestJson<unknown>("POST", DOMAIN_LOOKUP_PATH, {
      body: { domain: hostname },
      ...(doFetch ? { fetch: doFetch } : {}),
    });
  } catch (error) {
    if (errorStatus(error) !== 404) console.warn("domain lookup failed", error);
    return MAIN_HOST_PROFILE;
  }
  // The product's own host answers without an error (no 404 in every page's console).
  if ((answer as { mainHost?: unknown } | null)?.mainHost === true) return MAIN_HOST_PROFILE;
  try {
    return hostProfileFromLookup(answer);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return MAIN_HOST_PROFILE;
  }
}

const loadedScripts = new Set<string>();

/** Loads a white-label host's app scripts (https only), each once. */
export function applyAppScripts(urls: readonly string[], doc: Document = document): void {
  for (const url of urls) {
    if (loadedScripts.has(url) || !/^https:\/\//i.test(url)) continue;
    loadedScripts.add(url);
    const script = doc.createElement("script");
    script.src = url;
    script.async = true;
    script.dataset.appScript = "true";
    doc.head.appendChild(script);
  }
}
