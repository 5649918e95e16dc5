import { describe, expect, it } from "vitest";
import {
  type FieldRow,
  type FieldValue,
  freeFields,
  fromFieldRows,
  mergeNewData,
  newContactRows,
  orderedEntries,
  rowId,
  toFieldRows,
} from "./contact-fields.ts";

const stored = {
  id: 7,
  displayName: "Maria Lopez",
  addresses: ["+15035550142"],
  createdAt: 1,
  updatedAt: 2,
  firstName: "Maria",
  lastName: "Lopez",
  phones: [{ label: "mobile", value: "+15035550142" }],
  insurance: { provider: "Delta", member: "X123", active: true, visits: 3 },
  notes: "Prefers morning visits.",
};
const loadedKeys = ["firstName", "lastName", "phones", "insurance", "notes"];

function setText(rows: FieldRow[], path: string[], text: string): FieldRow[] {
  const [key, ...rest] = path;
  return rows.map((row) => {
    if (row.key !== key) return row;
    if (rest.length === 0) return { ...row, value: { kind: "text", text } };
    if (row.value.kind !== "group") throw new Error(`${key} is not a group`);
    return { ...row, value: { ...row.value, fields: setText(row.value.fields, rest, text) } };
  });
}

describe("contact fields -> newData", () => {
  it("an untouched form sends back the stored free fields, values of every type as they were", () => {
    const rows = toFieldRows(freeFields(stored));
    expect(mergeNewData(stored, rows, loadedKeys)).toEqual({
      firstName: "Maria",
      lastName: "Lopez",
      phones: [{ label: "mobile", value: "+15035550142" }],
      insurance: { provider: "Delta", member: "X123", active: true, visits: 3 },
      notes: "Prefers morning visits.",
    });
    // The server's own fields never go back as free fields, even typed as keys.
    const typed = [
      ...rows,
      { id: rowId(), key: "displayName", newKey: true, value: { kind: "text", text: "X" } },
    ];
    expect(Object.keys(mergeNewData(stored, typed as FieldRow[], loadedKeys))).not.toContain("displayName");
  });

  it("editing one nested field sends the whole merged object", () => {
    const rows = toFieldRows({
      firstName: "Maria",
      lastName: "Lopez",
      phones: stored.phones,
      insurance: stored.insurance,
      notes: stored.notes,
    });
    const edited = setText(rows, ["insurance", "provider"], "Cigna");
    expect(mergeNewData(stored, edited, loadedKeys)).toEqual({
      firstName: "Maria",
      lastName: "Lopez",
      phones: [{ label: "mobile", value: "+15035550142" }],
      insurance: { provider: "Cigna", member: "X123", active: true, visits: 3 },
      notes: "Prefers morning visits.",
    });
  });

  it("a removed row, a blanked field and a renamed key remove their stored keys", () => {
    let rows = toFieldRows({
      firstName: "Maria",
      lastName: "Lopez",
      phones: stored.phones,
      insurance: stored.insurance,
      notes: stored.notes,
    });
    rows = rows.filter((row) => row.key !== "phones");
    rows = setText(rows, ["notes"], "   ");
    rows = rows.map((row) => (row.key === "lastName" ? { ...row, key: "surname" } : row));
    expect(mergeNewData(stored, rows, loadedKeys)).toEqual({
      firstName: "Maria",
      surname: "Lopez",
      insurance: { provider: "Delta", member: "X123", active: true, visits: 3 },
    });
  });

  it("a field stored since the form opened stays; one the form shows is the form's", () => {
    const rows = toFieldRows({ firstName: "Maria", notes: "Old" });
    const current = { ...stored, company: "Bluebird", notes: "Changed elsewhere" };
    expect(mergeNewData(current, setText(rows, ["notes"], "Mine"), ["firstName", "notes"])).toMatchObject({
      company: "Bluebird",
      notes: "Mine",
      firstName: "Maria",
    });
  });

  it("a new contact: blank rows and empty list items are left out, added fields and groups go in", () => {
    const rows = newContactRows().map((row): FieldRow => {
      if (row.key === "name") return { ...row, value: { kind: "text", text: " Zed Zimmer " } };
      if (row.key === "phoneNumbers")
        return {
          ...row,
          value: {
            kind: "list",
            items: [
              { kind: "text", text: "(503) 555-0402" },
              { kind: "text", text: "" },
            ],
          },
        };
      return row;
    });
    const group: FieldValue = {
      kind: "group",
      fields: [
        { id: rowId(), key: "provider", newKey: true, value: { kind: "text", text: "Delta" } },
        { id: rowId(), key: "", newKey: true, value: { kind: "text", text: "no key" } },
      ],
    };
    rows.push({ id: rowId(), key: "insurance", newKey: true, value: group });
    rows.push({ id: rowId(), key: "  ", newKey: true, value: { kind: "text", text: "dropped" } });
    expect(fromFieldRows(rows)).toEqual({
      name: "Zed Zimmer",
      phoneNumbers: ["(503) 555-0402"],
      insurance: { provider: "Delta" },
    });
  });

  it("a number or true edited as text is sent as the text typed", () => {
    const rows = setText(toFieldRows({ visits: 3, vip: true, nothing: null }), ["visits"], "4");
    expect(fromFieldRows(rows)).toEqual({ visits: "4", vip: true, nothing: null });
  });

  it("rows read like a contact: names, company, numbers, e-mails, the rest alphabetically, notes last", () => {
    const keys = orderedEntries({
      notes: "",
      phone: "",
      zodiac: "",
      lastName: "",
      email: "",
      firstName: "",
      allergies: "",
      company: "",
    }).map(([key]) => key);
    expect(keys).toEqual([
      "firstName",
      "lastName",
      "company",
      "phone",
      "email",
      "allergies",
      "zodiac",
      "notes",
    ]);
  });
});
