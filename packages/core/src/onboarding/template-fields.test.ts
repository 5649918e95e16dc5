import { describe, expect, it } from "vitest";
import {
  applyFieldPlaceholders,
  applyPrefillToFields,
  isFieldDisabled,
  isFieldSkipped,
  isTemplateStale,
  nextActiveFieldIndex,
  parseDisabledIf,
  prefillValueFor,
  previousActiveFieldIndex,
  type TemplateField,
  templateIntegrationsOf,
} from "./template-fields.ts";

const fields: TemplateField[] = [
  { key: "business", type: "text" },
  { key: "hasWebsite", type: "select", options: [{ value: "yes" }, { value: "no" }], value: "no" },
  { key: "website", type: "text", disabledIf: "hasWebsite=no" },
  { key: "services", type: "multiselect", options: [{ value: "cut" }, { value: "color" }, "perm"] },
  { key: "greeting", type: "text", autoPrefilled: true },
];

describe("field skipping", () => {
  it("reads key=value conditions", () => {
    expect(parseDisabledIf("a=b")).toEqual({ key: "a", value: "b" });
    expect(parseDisabledIf(" a = b=c ")).toEqual({ key: "a", value: "b=c" });
    expect(parseDisabledIf("=b")).toBeNull();
    expect(parseDisabledIf("ab")).toBeNull();
    expect(parseDisabledIf(undefined)).toBeNull();
  });

  it("disables a field while the other field holds the value", () => {
    expect(isFieldDisabled(fields[2] as TemplateField, fields)).toBe(true);
    const changed = fields.map((field) => (field.key === "hasWebsite" ? { ...field, value: "yes" } : field));
    expect(isFieldDisabled(changed[2] as TemplateField, changed)).toBe(false);
  });

  it("matches lists, booleans and ignores missing fields", () => {
    const list: TemplateField[] = [
      { key: "a", value: ["x", "y"] },
      { key: "b", disabledIf: "a=y" },
    ];
    expect(isFieldDisabled(list[1] as TemplateField, list)).toBe(true);
    const bool: TemplateField[] = [
      { key: "a", value: true },
      { key: "b", disabledIf: "a=true" },
    ];
    expect(isFieldDisabled(bool[1] as TemplateField, bool)).toBe(true);
    const missing: TemplateField[] = [{ key: "b", disabledIf: "zzz=1" }];
    expect(isFieldDisabled(missing[0] as TemplateField, missing)).toBe(false);
  });

  it("skips disabled and auto-prefilled fields when moving", () => {
    expect(isFieldSkipped(fields[4] as TemplateField, fields)).toBe(true);
    expect(nextActiveFieldIndex(fields, 0)).toBe(0);
    expect(nextActiveFieldIndex(fields, 2)).toBe(3);
    expect(nextActiveFieldIndex(fields, 4)).toBeNull();
    expect(previousActiveFieldIndex(fields, 2)).toBe(1);
    expect(previousActiveFieldIndex(fields, 10)).toBe(3);
    expect(previousActiveFieldIndex([], 0)).toBeNull();
  });
});

describe("pre-fill", () => {
  it.each<[string, TemplateField, unknown, unknown]>([
    [
      "multi-select list filtered to options",
      fields[3] as TemplateField,
      ["cut", "bogus", "perm"],
      ["cut", "perm"],
    ],
    ["multi-select comma text", fields[3] as TemplateField, "color, cut,cut", ["color", "cut"]],
    ["multi-select with nothing valid", fields[3] as TemplateField, ["bogus"], undefined],
    ["select kept when valid", fields[1] as TemplateField, "yes", "yes"],
    ["select dropped when invalid", fields[1] as TemplateField, "maybe", undefined],
    ["text kept", fields[0] as TemplateField, "Acme", "Acme"],
    ["blank ignored", fields[0] as TemplateField, "  ", undefined],
    ["multi_select spelling", { key: "m", inputType: "multi_select", options: ["a"] }, ["a", "b"], ["a"]],
  ])("%s", (_, field, raw, expected) => {
    expect(prefillValueFor(field, raw)).toEqual(expected);
  });

  it("fills values, marks fields to skip and replaces placeholders", () => {
    const template: TemplateField[] = [
      { key: "businessName", type: "text" },
      {
        key: "greeting",
        type: "text",
        value: "Thanks for calling {businessName}!",
        placeholder: "Hi from {businessName}",
      },
      { key: "city", type: "text", placeholder: "Where is {businessName}?" },
      { key: "tone", type: "select", options: ["warm", "formal"] },
    ];
    const filled = applyPrefillToFields(template, {
      templateFields: { businessName: "Acme", tone: "loud", unknown: "x" },
      fieldsToSkip: ["businessName"],
    });
    expect(filled).toEqual([
      { key: "businessName", type: "text", value: "Acme", autoPrefilled: true },
      { key: "greeting", type: "text", value: "Thanks for calling Acme!", placeholder: "Hi from Acme" },
      { key: "city", type: "text", placeholder: "Where is Acme?" },
      { key: "tone", type: "select", options: ["warm", "formal"] },
    ]);
    expect(template[1]?.value).toBe("Thanks for calling {businessName}!");
  });

  it("replaces placeholders from every valued field, never in its own", () => {
    expect(
      applyFieldPlaceholders([
        { key: "a", value: "{b}-{a}" },
        { key: "b", value: 7 },
        { key: "c", placeholder: "{a}/{b}/{c}" },
      ]),
    ).toEqual([
      { key: "a", value: "7-{a}" },
      { key: "b", value: 7 },
      { key: "c", placeholder: "{b}-{a}/7/{c}" },
    ]);
  });
});

describe("templates", () => {
  it("adds the calendar integration when an action is named schedule", () => {
    expect(
      templateIntegrationsOf({ id: "t", templateIntegrations: ["crm"], actions: [{ name: "schedule" }] }),
    ).toEqual(["crm", "calendar"]);
    expect(
      templateIntegrationsOf({
        id: "t",
        templateIntegrations: ["calendar"],
        actions: [{ name: "schedule" }],
      }),
    ).toEqual(["calendar"]);
    expect(templateIntegrationsOf({ id: "t", actions: [{ name: "transfer" }] })).toEqual([]);
  });

  const current = {
    id: "t",
    templateIntegrations: ["crm", "sheets"],
    templateFields: [
      { key: "a", type: "text" },
      { key: "b", type: "select", options: [{ value: "x" }, { value: "y" }] },
    ],
  };
  type Saved = { templateIntegrations: string[]; templateFields: TemplateField[] };
  const saved: Saved = {
    templateIntegrations: ["sheets", "crm"],
    templateFields: [
      { key: "a", type: "text", value: "typed", autoPrefilled: true },
      { key: "b", type: "select", options: [{ value: "x", label: "X" }, "y"], value: "x" },
    ],
  };

  it.each<[string, Saved, boolean]>([
    ["same template (values, labels and order of integrations do not matter)", saved, false],
    ["integrations differ", { ...saved, templateIntegrations: ["crm"] }, true],
    [
      "a field key differs",
      { ...saved, templateFields: [{ key: "z", type: "text" }, saved.templateFields[1] as TemplateField] },
      true,
    ],
    [
      "a field type differs",
      {
        ...saved,
        templateFields: [{ key: "a", type: "textarea" }, saved.templateFields[1] as TemplateField],
      },
      true,
    ],
    [
      "options differ",
      {
        ...saved,
        templateFields: [
          saved.templateFields[0] as TemplateField,
          { key: "b", type: "select", options: ["x"] },
        ],
      },
      true,
    ],
    ["a field is missing", { ...saved, templateFields: [saved.templateFields[0] as TemplateField] }, true],
  ])("stale when %s: %s", (_, candidate, stale) => {
    expect(isTemplateStale(candidate, current)).toBe(stale);
  });
});
