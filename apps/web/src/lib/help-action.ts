import type { HostProfile } from "./host-profile.ts";

export type HelpAction =
  | { kind: "url"; url: string }
  | { kind: "overlay"; name: "help" }
  | { kind: "overlay"; name: "docsPage"; value: string }
  | { kind: "overlay"; name: "form"; value: "get-support" };

/**
 * The help button's rule (spec §2.2): a white-label host with a support URL opens that URL in a new tab; the
 * main product opens the help overlay, or docsPage when a docs page is given; otherwise the support form.
 */
export function resolveHelpAction(host: HostProfile, docsPage?: string): HelpAction {
  const supportUrl = host.supportUrl?.trim();
  if (!host.isMainHost && supportUrl) return { kind: "url", url: supportUrl };
  if (host.isMainHost) {
    return docsPage
      ? { kind: "overlay", name: "docsPage", value: docsPage }
      : { kind: "overlay", name: "help" };
  }
  return { kind: "overlay", name: "form", value: "get-support" };
}
