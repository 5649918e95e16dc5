import { type NotificationData, notifications } from "@mantine/notifications";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { LOAD_FACTOR, within as withinMs } from "../../../../vitest.time-limits.ts";
import { setLogoutNavigation } from "../lib/logout.ts";
import { sessionStorageChanged, setTargetAccountId } from "../lib/session.ts";
import { fixtureViolations } from "./accounts.ts";

// The signed-in shell and each product area are lazy chunks: their first import in a test file transforms
// them, which takes longer than testing-library's default second on a busy machine.
configure({ asyncUtilTimeout: withinMs(5000) });

// A toast shows for a second (spec §2.2). On CI a test can be off the CPU longer than that between the toast
// appearing and its look for it: there toasts stay five times as long, as every wait does (within()).
if (LOAD_FACTOR > 1) {
  const show = notifications.show;
  Object.assign(notifications, {
    show: (data: NotificationData) =>
      show({
        ...data,
        autoClose: typeof data.autoClose === "number" ? withinMs(data.autoClose) : data.autoClose,
      }),
  });
}

// jsdom lacks the layout APIs Mantine reads.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (!("ResizeObserver" in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(window, { ResizeObserver: ResizeObserverStub });
}

window.scrollTo = () => {};

// Autosizing text areas listen for web fonts loading.
if (!("fonts" in document)) {
  Object.defineProperty(document, "fonts", {
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
}

// Test files share their worker's modules (vitest.config.ts): module state one file leaves (the toast
// queue, fake timers) is cleared after each test.
afterEach(() => {
  cleanup();
  notifications.clean();
  vi.useRealTimers();
  window.localStorage.clear();
  window.sessionStorage.clear();
  sessionStorageChanged();
  setTargetAccountId(null);
  setLogoutNavigation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  const violations = fixtureViolations.splice(0);
  if (violations.length > 0) {
    throw new AggregateError(violations, violations.map((e) => e.message).join("\n"));
  }
});
