import { createContext, useContext } from "react";

/** Settings of a white-label domain profile that apply to the whole app (spec §3 Domain profile). */
export type HostSettings = {
  supportUrl?: string;
  smsMessaging?: boolean;
  allowEmbeds?: boolean;
  appScripts?: string[];
};

/**
 * What the product knows about the host it is served from: the main product host, or a white-label host
 * with its own name, image, support URL and settings (POST /api/v1/domain/lookup at start).
 */
export type HostProfile = {
  isMainHost: boolean;
  /** Support page of a white-label host. */
  supportUrl?: string;
  /** Name shown in place of the product's on a white-label host. */
  name?: string;
  /** Logo of a white-label host. */
  image?: string;
  /** The domain profile's id. */
  profileId?: number;
  settings?: HostSettings;
  /** The lookup has not answered yet: show no brand rather than the wrong one. */
  loading?: boolean;
};

export const MAIN_HOST_PROFILE: HostProfile = { isMainHost: true };

export const HostProfileContext = createContext<HostProfile>(MAIN_HOST_PROFILE);

export function useHostProfile(): HostProfile {
  return useContext(HostProfileContext);
}

/** The brand to show: the white-label host's name, or the product's. */
export function brandName(host: HostProfile): string {
  if (host.loading) return "";
  return (!host.isMainHost && host.name?.trim()) || "Switchboard";
}
