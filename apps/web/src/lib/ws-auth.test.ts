import { WS_BEARER_PROTOCOL as API_PROTOCOL } from "@switchboard/api";
import { describe, expect, it } from "vitest";
import { WS_BEARER_PROTOCOL, wsProtocols } from "./ws-auth.ts";

describe("WebSocket sign-in", () => {
  it("offers the server's bearer subprotocol, then the token", () => {
    expect(WS_BEARER_PROTOCOL).toBe(API_PROTOCOL);
    expect(wsProtocols("s_abc-123")).toEqual(["switchboard.bearer", "s_abc-123"]);
    expect(wsProtocols(null)).toEqual([]);
  });
});
