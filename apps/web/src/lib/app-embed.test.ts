import { describe, expect, it } from "vitest";
import { isAppEmbedQuery, isEmbedded, isInCrossOriginFrame } from "./app-embed.ts";

describe("isAppEmbedQuery", () => {
  it.each([
    "?appEmbed=true",
    "?appEmbed=1",
    "?appEmbed=yes",
    "?appEmbed=y",
    "?appEmbed=",
    "?appEmbed",
    "?appEmbed=TRUE",
    "?x=1&appEmbed=Y",
  ])("%s embeds", (search) => {
    expect(isAppEmbedQuery(search)).toBe(true);
  });

  it.each(["", "?appEmbed=false", "?appEmbed=0", "?appEmbed=no", "?appembed=1", "?embed=1"])(
    "%s does not embed",
    (search) => {
      expect(isAppEmbedQuery(search)).toBe(false);
    },
  );

  it("accepts URLSearchParams", () => {
    expect(isAppEmbedQuery(new URLSearchParams({ appEmbed: "1" }))).toBe(true);
  });
});

function fakeWindow(options: { framed: boolean; parentOrigin?: string; throws?: boolean }): Window {
  const self = { location: { origin: "https://app.example" } } as unknown as Window & {
    self: Window;
    top: Window;
  };
  const parent = options.throws
    ? ({
        get location(): Location {
          throw new DOMException("Blocked a frame", "SecurityError");
        },
      } as unknown as Window)
    : ({ location: { origin: options.parentOrigin ?? "https://app.example" } } as unknown as Window);
  Object.assign(self, { self, top: options.framed ? parent : self });
  return self;
}

describe("isInCrossOriginFrame", () => {
  it("is false for a top-level page", () => {
    expect(isInCrossOriginFrame(fakeWindow({ framed: false }))).toBe(false);
  });

  it("is false in a frame of the same origin", () => {
    expect(isInCrossOriginFrame(fakeWindow({ framed: true }))).toBe(false);
  });

  it("is true in a frame of another origin", () => {
    expect(isInCrossOriginFrame(fakeWindow({ framed: true, parentOrigin: "https://partner.example" }))).toBe(
      true,
    );
    expect(isInCrossOriginFrame(fakeWindow({ framed: true, throws: true }))).toBe(true);
  });

  it("combines with the query", () => {
    expect(isEmbedded("", fakeWindow({ framed: false }))).toBe(false);
    expect(isEmbedded("?appEmbed=1", fakeWindow({ framed: false }))).toBe(true);
    expect(isEmbedded("", fakeWindow({ framed: true, throws: true }))).toBe(true);
    expect(isEmbedded("", undefined)).toBe(false);
  });
});
