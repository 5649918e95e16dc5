import { createContext, useContext } from "react";

/**
 * What the product knows about the host it is served from. The white-label domain lookup comes in a later
 * issue; until then every page is on the main product host.
 */
export type HostProfile = {
  isMainHost: boolean;
  /** Support page of a white-label host. */
  supportUrl?: string;
};

export const MAIN_HOST_PROFILE: HostProfile = { isMainHost: true };

export const HostProfileContext = createContext<HostProfile>(MAIN_HOST_PROFILE);

export function useHostProfile(): HostProfile {
  return useContext(HostProfileContext);
}
