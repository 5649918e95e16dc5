import { act } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderAt } from "../test/render.tsx";
import { OVERLAY_NAMES, type OverlayName } from "./overlay-names.ts";
import { OverlayScope, type Overlays, useOverlays } from "./use-overlays.tsx";

function Probe({ into }: { into: { current: Overlays | null } }) {
  into.current = useOverlays();
  return null;
}

function setup(path: string, allowed?: readonly OverlayName[]) {
  const probe: { current: Overlays | null } = { current: null };
  const { router } = renderAt(
    path,
    allowed ? (
      <OverlayScope allowed={allowed}>
        <Probe into={probe} />
      </OverlayScope>
    ) : (
      <Probe into={probe} />
    ),
  );
  const overlays = () => {
    if (!probe.current) throw new Error("not rendered");
    return probe.current;
  };
  const run = async (action: (overlays: Overlays) => unknown) => {
    await act(async () => {
      await action(overlays());
    });
  };
  return { router, overlays, run, search: () => router.state.location.search };
}

describe("overlay names", () => {
  it("are the spec's list, from accountSearch to viewAs", () => {
    expect(OVERLAY_NAMES).toHaveLength(89);
    expect(OVERLAY_NAMES[0]).toBe("accountSearch");
    expect(OVERLAY_NAMES.at(-1)).toBe("viewAs");
    for (const name of ["help", "info", "debug", "docsPage", "form", "logFilterBuilder", "premium"]) {
      expect(OVERLAY_NAMES).toContain(name);
    }
  });
});

describe("useOverlays", () => {
  it("reads open overlays and their values from the query", () => {
    const { overlays } = setup("/app?help=true&form=get-support&unrelated=1&docsPage");
    expect(overlays().isOpen("help")).toBe(true);
    expect(overlays().value("help")).toBe("true");
    expect(overlays().value("form")).toBe("get-support");
    expect(overlays().isOpen("docsPage")).toBe(true);
    expect(overlays().value("docsPage")).toBe("");
    expect(overlays().isOpen("info")).toBe(false);
    expect(overlays().value("info")).toBeNull();
    expect(overlays().openOverlays.map((overlay) => overlay.name)).toEqual(["help", "form", "docsPage"]);
  });

  it("opens with true or a value, in a new history entry", async () => {
    const { run, search, router } = setup("/app/org/42/inbox?filter=priority");
    await run((o) => o.open("help"));
    expect(search()).toBe("?filter=priority&help=true");
    expect(router.state.historyAction).toBe("PUSH");
    expect(router.state.location.pathname).toBe("/app/org/42/inbox");
    await run((o) => o.open("form", "get-support"));
    expect(search()).toBe("?filter=priority&help=true&form=get-support");
  });

  it("closes an overlay with browser Back", async () => {
    const { run, search, router } = setup("/app");
    await run((o) => o.open("help"));
    expect(search()).toBe("?help=true");
    await act(async () => {
      await router.navigate(-1);
    });
    expect(search()).toBe("");
  });

  it("closes by removing the key, stepping back over the entry open() made", async () => {
    const { run, search, router } = setup("/app?x=1");
    await run((o) => o.open("info"));
    await run((o) => o.close("info"));
    expect(search()).toBe("?x=1");
    expect(router.state.historyAction).toBe("POP");
  });

  it("closes an overlay that came with the page by replacing the entry", async () => {
    const { run, search, router } = setup("/app?help=true&x=1");
    await run((o) => o.close("help"));
    expect(search()).toBe("?x=1");
    expect(router.state.historyAction).toBe("REPLACE");
  });

  it("switches one overlay for another in one history entry", async () => {
    const { run, search, router } = setup("/app?help=true");
    await run((o) => o.switch("help", "info"));
    expect(search()).toBe("?info=true");
    expect(router.state.historyAction).toBe("REPLACE");
    await run((o) => o.switch("info", "form", "get-support"));
    expect(search()).toBe("?form=get-support");
  });

  it("closes a switched overlay back to where the first one was opened", async () => {
    const { run, search } = setup("/app?x=1");
    await run((o) => o.open("help"));
    await run((o) => o.switch("help", "info"));
    await run((o) => o.close("info"));
    expect(search()).toBe("?x=1");
  });

  it("opens the target when switching from an overlay that is not open", async () => {
    const { run, search, router } = setup("/app");
    await run((o) => o.switch("help", "info"));
    expect(search()).toBe("?info=true");
    expect(router.state.historyAction).toBe("PUSH");
  });

  it("ignores names that are not allowed", async () => {
    const { run, search, overlays } = setup("/app?bogus=1");
    await run((o) => o.open("bogus" as OverlayName));
    await run((o) => o.close("bogus" as OverlayName));
    expect(search()).toBe("?bogus=1");
    expect(overlays().isOpen("bogus" as OverlayName)).toBe(false);
    expect(overlays().openOverlays).toEqual([]);
  });

  it("does nothing when the overlay is already open with that value, or closing one that is not open", async () => {
    const { run, router } = setup("/app?help=true");
    const before = router.state.location.key;
    await run((o) => o.open("help"));
    await run((o) => o.close("info"));
    expect(router.state.location.key).toBe(before);
  });

  it("lets a restricted list replace the allowed set", async () => {
    const { run, search, overlays } = setup("/app?debug=true&help=true", ["help", "info"]);
    expect(overlays().isOpen("debug")).toBe(false);
    expect(overlays().value("debug")).toBeNull();
    expect(overlays().openOverlays.map((overlay) => overlay.name)).toEqual(["help"]);
    await run((o) => o.open("search"));
    expect(search()).toBe("?debug=true&help=true");
    await run((o) => o.close("debug"));
    expect(search()).toBe("?debug=true&help=true");
    await run((o) => o.switch("help", "debug"));
    expect(search()).toBe("?debug=true&help=true");
    await run((o) => o.switch("help", "info"));
    expect(search()).toBe("?debug=true&info=true");
  });
});
