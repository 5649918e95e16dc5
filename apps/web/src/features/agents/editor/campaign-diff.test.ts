import { describe, expect, it } from "vitest";
import { fakeCampaign } from "../../../test/campaign.ts";
import { changedFields, lineDiff } from "./campaign-diff.ts";
import { fieldsOf } from "./campaign-editor.ts";
import { compareValue, parseCompareValue } from "./compare-sides.ts";

const base = fieldsOf(
  fakeCampaign({ agentInstructions: "Line one\nLine two\nLine three", variables: { b: "2", a: "1" } }),
);

describe("campaign diff", () => {
  it("lists only the fields whose content differs, ignoring key order and the published state", () => {
    const other = { ...base, published: false, variables: { a: "1", b: "2" }, voice: "ava" };
    expect(changedFields(base, other)).toEqual([{ field: "voice", label: "Voice", left: "", right: "ava" }]);
  });

  it("diffs lines: a changed line is removed and added, the rest stays", () => {
    expect(lineDiff("Line one\nLine two\nLine three", "Line one\nLine 2\nLine three\nLine four")).toEqual([
      { kind: "same", text: "Line one" },
      { kind: "removed", text: "Line two" },
      { kind: "added", text: "Line 2" },
      { kind: "same", text: "Line three" },
      { kind: "added", text: "Line four" },
    ]);
    expect(lineDiff("", "")).toEqual([{ kind: "same", text: "" }]);
  });

  it("round-trips the compareChanges value and refuses a malformed one", () => {
    expect(parseCompareValue(compareValue(4, 12, "staging"))).toEqual({
      agentId: 4,
      left: 12,
      right: "staging",
    });
    expect(parseCompareValue("4:mine:production")).toEqual({ agentId: 4, left: "mine", right: "production" });
    expect(parseCompareValue("4:12")).toBeNull();
    expect(parseCompareValue("x:1:2")).toBeNull();
  });
});
