import {
  createOnboardingState,
  epochSeconds,
  ONBOARDING_SAVE_DEBOUNCE_MS,
  type OnboardingAction,
  type OnboardingEffect,
  type OnboardingEnv,
  type OnboardingQuery,
  type OnboardingState,
  onboardingTransition,
  toPersisted,
} from "@switchboard/core";
import {
  type SavedOnboarding,
  type SettingsSaver,
  savedAgentId,
  writeLocalOnboarding,
} from "./onboarding-persistence.ts";
import { hasOnboardingKeys, searchWithOnboardingStep } from "./onboarding-query.ts";

export type OnboardingSnapshot = {
  state: OnboardingState;
  /** The agent the wizard created (generate step), or null before. */
  agentId: number | null;
};

export type OnboardingControllerDeps = {
  /** The machine's environment at the time of an action (time, permissions, templates, mobile app). */
  env: () => OnboardingEnv;
  storage: Pick<Storage, "getItem" | "setItem"> | null;
  saver: SettingsSaver;
  /** The current `location.search`. */
  search: () => string;
  /** Replaces the current address's query (no new history entry). */
  replaceSearch: (search: string) => void;
  /** Leaves the wizard: the four query keys go (called only while one is present). */
  leave: () => void;
  /** Reloads the account in view and its permission flags. */
  refreshPermissions: () => Promise<unknown> | undefined;
  openBookingPage: (target: "newTab" | "inAppUrlOpener") => void;
};

/** Actions after which the wizard's state no longer belongs to the agent it made. */
const FORGETS_AGENT = new Set<OnboardingAction["type"]>(["restart", "exitAndDiscard", "discardTemplate"]);

/**
 * Runs core's onboarding machine (`onboardingTransition`) and performs its effects: local storage at once,
 * account settings through the debounced saver, the query through the router, permissions refresh and the
 * booking page. Framework-free, so the query and persistence rules are tested without React.
 */
export function createOnboardingController(deps: OnboardingControllerDeps) {
  let snapshot: OnboardingSnapshot = { state: createOnboardingState(), agentId: null };
  const listeners = new Set<() => void>();
  let pending: OnboardingEffect[] = [];

  const publish = (next: OnboardingSnapshot) => {
    snapshot = next;
    for (const listener of listeners) listener();
  };

  const saved = (state: OnboardingState, agentId: number | null): SavedOnboarding => ({
    ...toPersisted(state),
    agentId,
  });

  const perform = (effects: OnboardingEffect[], agentId: number | null) => {
    for (const effect of effects) {
      switch (effect.type) {
        case "writeLocalStorage":
          writeLocalOnboarding(deps.storage, { ...effect.value, agentId });
          break;
        case "saveSettings":
          deps.saver.schedule({ ...effect.settings.onboarding, agentId }, effect.debounceMs);
          break;
        case "setQuery": {
          const current = deps.search();
          const next = searchWithOnboardingStep(current, effect.values);
          if (next !== current) deps.replaceSearch(next);
          break;
        }
        case "removeQueryKeys":
          if (hasOnboardingKeys(deps.search())) deps.leave();
          break;
        case "refreshPermissions":
          void deps.saver
            .idle()
            .then(() => deps.refreshPermissions())
            .catch(() => undefined);
          break;
        case "openBookingPage":
          deps.openBookingPage(effect.target);
          break;
      }
    }
  };

  const dispatch = (action: OnboardingAction) => {
    const { state, effects } = onboardingTransition(snapshot.state, action, deps.env());
    const closing = action.type === "queryChanged" && (action.query.onboard ?? null) === null;
    const agentId =
      FORGETS_AGENT.has(action.type) || (closing && state !== snapshot.state) ? null : snapshot.agentId;
    if (state !== snapshot.state || agentId !== snapshot.agentId) publish({ state, agentId });
    perform(effects, agentId);
  };

  return {
    getSnapshot: () => snapshot,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /**
     * Hydrates from the saved copy (the latest of local storage and settings) and the query. A wizard that
     * was completed and is opened again without a step starts over.
     */
    init(savedCopy: unknown, query: OnboardingQuery) {
      const env = deps.env();
      let { state, effects } = onboardingTransition(
        createOnboardingState(),
        { type: "init", saved: savedCopy, query },
        env,
      );
      let agentId = savedAgentId(savedCopy);
      if (state.onboardingComplete && !query.activeStep) {
        ({ state, effects } = onboardingTransition(state, { type: "restart" }, env));
        agentId = null;
      }
      publish({ state, agentId });
      pending = effects;
    },
    /** Performs what hydrating asks for (the query's canonical step, a restart's save): after mounting. */
    start() {
      const effects = pending;
      pending = [];
      perform(effects, snapshot.agentId);
    },
    dispatch,
    /** The generate step made an agent: remembered with the state (an update like any other). */
    setAgentId(agentId: number) {
      const state = { ...snapshot.state, updatedAt: epochSeconds(deps.env().now) };
      publish({ state, agentId });
      const value = saved(state, agentId);
      writeLocalOnboarding(deps.storage, value);
      deps.saver.schedule(value, ONBOARDING_SAVE_DEBOUNCE_MS);
    },
    /** Sends a waiting settings save now (the wizard is going away). */
    flush: () => deps.saver.flush(),
  };
}

export type OnboardingController = ReturnType<typeof createOnboardingController>;
