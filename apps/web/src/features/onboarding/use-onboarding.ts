import type { OnboardingAction, OnboardingTemplate } from "@switchboard/core";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useLocation, useNavigate } from "react-router";
import { useAccountState, usePermission } from "../../lib/account-state.ts";
import { useMobileApp } from "../../lib/environment.tsx";
import { useHostProfile } from "../../lib/host-profile.ts";
import { saveOnboardingSettings } from "./api.ts";
import { bookingUrl, openBookingPage } from "./booking.ts";
import {
  createOnboardingController,
  type OnboardingController,
  type OnboardingSnapshot,
} from "./onboarding-controller.ts";
import {
  browserStorage,
  createSettingsSaver,
  latestSavedOnboarding,
  readLocalOnboarding,
} from "./onboarding-persistence.ts";
import { onboardingQueryKey, onboardingQueryOf, searchWithoutOnboarding } from "./onboarding-query.ts";

export type OnboardingWizard = OnboardingSnapshot & {
  dispatch: (action: OnboardingAction) => void;
  setAgentId: (agentId: number) => void;
  canUseFullEditor: boolean;
};

/**
 * The wizard's state for the `onboard` overlay: core's machine run by the controller, hydrated from the
 * latest saved copy, kept in step with the query both ways, saved to local storage at once and to the
 * account settings debounced. `templates` (when loaded) feed the stale-template check.
 */
export function useOnboarding(templates: readonly OnboardingTemplate[] | undefined): OnboardingWizard {
  const location = useLocation();
  const navigate = useNavigate();
  const { view, refresh } = useAccountState();
  const canUseFullEditor = usePermission("canUseFullEditor");
  const mobile = useMobileApp();
  const host = useHostProfile();

  // The controller reads the newest of these when it runs.
  const latest = useRef({ location, canUseFullEditor, templates, isMobileApp: mobile.isMobileApp, host });
  latest.current = { location, canUseFullEditor, templates, isMobileApp: mobile.isMobileApp, host };

  const [controller] = useState<OnboardingController>(() => {
    const storage = browserStorage();
    const made = createOnboardingController({
      env: () => {
        const now = latest.current;
        return {
          now: Date.now(),
          canUseFullEditor: now.canUseFullEditor,
          isMobileApp: now.isMobileApp,
          ...(now.templates ? { templates: now.templates } : {}),
        };
      },
      storage,
      saver: createSettingsSaver(saveOnboardingSettings),
      search: () => latest.current.location.search,
      replaceSearch: (search) => {
        const { pathname, hash, state } = latest.current.location;
        navigate({ pathname, search, hash }, { replace: true, state });
      },
      leave: () => {
        const { pathname, hash, search, state, key } = latest.current.location;
        const pushedByOpen =
          typeof state === "object" &&
          state !== null &&
          (state as { overlay?: unknown }).overlay === "onboard";
        // The entry was pushed when the wizard opened: stepping back leaves no dead entry behind.
        if (pushedByOpen && key !== "default") navigate(-1);
        else navigate({ pathname, search: searchWithoutOnboarding(search), hash }, { replace: true });
      },
      refreshPermissions: () => refresh(),
      openBookingPage: (target) => openBookingPage(bookingUrl(latest.current.host), target),
    });
    made.init(
      latestSavedOnboarding(readLocalOnboarding(storage), view.account.settings.onboarding),
      onboardingQueryOf(location.search),
    );
    return made;
  });

  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  useEffect(() => controller.start(), [controller]);

  // The query moved (browser navigation, a link, the overlay closing): the machine follows.
  const queryKey = onboardingQueryKey(onboardingQueryOf(location.search));
  const seenKey = useRef(queryKey);
  useEffect(() => {
    if (seenKey.current === queryKey) return;
    seenKey.current = queryKey;
    controller.dispatch({ type: "queryChanged", query: onboardingQueryOf(latest.current.location.search) });
  }, [controller, queryKey]);

  // Templates (re)loaded: a saved template that no longer matches is discarded.
  useEffect(() => {
    if (templates) controller.dispatch({ type: "checkStaleTemplate" });
  }, [controller, templates]);

  // Going away: a waiting settings save is sent now rather than lost.
  useEffect(() => () => void controller.flush(), [controller]);

  return {
    ...snapshot,
    dispatch: controller.dispatch,
    setAgentId: controller.setAgentId,
    canUseFullEditor,
  };
}
