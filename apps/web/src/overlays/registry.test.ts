import { describe, expect, it } from "vitest";
import { OVERLAY_NAMES } from "./overlay-names.ts";
import { getOverlayDefinition, overlayRegistry } from "./registry.ts";

/**
 * Every overlay the spec names (§2.1) opens a real screen: a registry entry whose module loads and exports
 * its component. A name left out would open an empty dialog, so this fails first.
 */
describe("overlay registry", () => {
  it("has a screen for every overlay name of the spec, and nothing else", () => {
    const missing = OVERLAY_NAMES.filter((name) => !getOverlayDefinition(name));
    expect(missing).toEqual([]);
    expect(Object.keys(overlayRegistry).sort()).toEqual([...OVERLAY_NAMES].sort());
  });

  it.each(OVERLAY_NAMES.map((name) => [name]))(
    "%s loads a component with a title",
    async (name) => {
      const definition = getOverlayDefinition(name);
      expect(definition?.title.trim()).toBeTruthy();
      const component = await definition?.component.preload();
      expect(typeof component).toBe("function");
    },
    30_000,
  );
});
