import { parseLogScreenQuery } from "@switchboard/core";
import { describe, expect, it } from "vitest";
import { defaultColumns, searchWithLogState } from "./log-screen-query.ts";
import { draftsOf, filtersOf } from "./logs-overlays.tsx";

describe("the logs screen's query", () => {
  it("writes filters, fields, page, pageSize and dateFilter and keeps other keys (overlays)", () => {
    const search = searchWithLogState("?callTranscript=room%2Fuuid&page=3", {
      filters: { direction: { value: "outbound", op: "is" } },
      fields: ["timestamp", "reason"],
      pageSize: 50,
      dateFilter: "7 day",
    });
    const params = new URLSearchParams(search);
    expect(params.get("callTranscript")).toBe("room/uuid");
    expect(params.has("page")).toBe(false);
    expect(parseLogScreenQuery(search)).toEqual({
      filters: { direction: { value: "outbound", op: "is" } },
      fields: ["timestamp", "reason"],
      pageSize: 50,
      dateFilter: "7 day",
    });
  });

  it("shows at most 10 columns by default, the usual call columns first", () => {
    const available = [
      "accountId",
      "timestamp",
      "duration",
      "direction",
      "fromNumber",
      "toNumber",
      "cnam",
      "transfer",
      "uuid",
      "a",
      "b",
      "c",
      "d",
    ];
    expect(defaultColumns(available)).toEqual([
      "timestamp",
      "direction",
      "fromNumber",
      "toNumber",
      "cnam",
      "duration",
      "transfer",
      "a",
      "b",
      "c",
    ]);
  });

  it("turns the builder's rows into filters by core's rules: lists by comma, empty values dropped", () => {
    const types = { duration: "integer", timestamp: "date" } as const;
    const filters = filtersOf(
      [
        { key: 1, field: "direction", op: "is", value: "inbound, outbound" },
        { key: 2, field: "duration", op: "eq", value: "0" },
        { key: 3, field: "reason", op: "is", value: "  " },
        { key: 4, field: "", op: "is", value: "x" },
      ],
      types,
    );
    expect(filters).toEqual({
      direction: { value: ["inbound", "outbound"], op: "is" },
      duration: { value: "0", op: "eq" },
    });
    expect(draftsOf(filters).map((draft) => draft.value)).toEqual(["inbound, outbound", "0"]);
  });
});
