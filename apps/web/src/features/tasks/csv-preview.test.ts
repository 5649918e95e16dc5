import { describe, expect, it } from "vitest";
import { mapColumns, mappingQuery, parseCsvStart, previewCsv } from "./csv-preview.ts";

describe("parseCsvStart", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, and skips empty lines", () => {
    const text = 'Phone,Note\r\n+15035550100,"Hi, ""there""\nagain"\n\n+15035550101,plain\n';
    expect(parseCsvStart(text, 10)).toEqual([
      ["Phone", "Note"],
      ["+15035550100", 'Hi, "there"\nagain'],
      ["+15035550101", "plain"],
    ]);
  });

  it("drops a byte-order mark and trims fields, as the server does", () => {
    expect(parseCsvStart("\uFEFF phone , name \n 1 , Ann ", 10)).toEqual([
      ["phone", "name"],
      ["1", "Ann"],
    ]);
  });

  it("stops after the records asked for and drops a last line cut off by the read", () => {
    const text = "phone\n1\n2\n3\n4";
    expect(parseCsvStart(text, 3)).toEqual([["phone"], ["1"], ["2"]]);
    expect(parseCsvStart("phone\n1\n2\n3", 10, true)).toEqual([["phone"], ["1"], ["2"]]);
    expect(parseCsvStart('phone\n"unclosed', 10)).toEqual([["phone"]]);
  });
});

describe("mapColumns", () => {
  it("matches headers without case, spaces, dashes or underscores; the rest are variables", () => {
    expect(mapColumns(["Full Name", "Phone_Number", "E-mail", "Time Zone", "Appointment"])).toEqual([
      "name",
      "phone",
      "email",
      "timeZone",
      "variable",
    ]);
    expect(mapColumns(["Mobile", "Email Address", "tz"])).toEqual(["phone", "email", "timeZone"]);
  });

  it("takes the first of two candidate columns, and a column chosen by hand before the guess", () => {
    expect(mapColumns(["phone", "mobile"])).toEqual(["phone", "variable"]);
    expect(mapColumns(["phone", "mobile"], { phone: "MOBILE" })).toEqual(["variable", "phone"]);
    expect(mapColumns(["cell", "who"], { name: "who" })).toEqual(["phone", "name"]);
  });

  it("does not give one column two fields: a column chosen for a second field stays the first's", () => {
    expect(mapColumns(["phone", "name"], { name: "phone" })).toEqual(["phone", "variable"]);
  });
});

describe("previewCsv", () => {
  it("answers the header, the first rows and whether a phone column is missing", () => {
    const preview = previewCsv("Name,Doctor\nAnn,Lee\nBo,Kim\nCy,Lee", {}, { rows: 2 });
    expect(preview).toEqual({
      headers: ["Name", "Doctor"],
      rows: [
        ["Ann", "Lee"],
        ["Bo", "Kim"],
      ],
      fields: ["name", "variable"],
      missingPhone: true,
    });
    expect(previewCsv("", {})).toBeNull();
  });
});

describe("mappingQuery", () => {
  it("sends only the columns chosen against the server's own guess", () => {
    const headers = ["phone", "mobile", "name"];
    expect(mappingQuery(headers, {})).toEqual({});
    expect(mappingQuery(headers, { phone: "phone" })).toEqual({});
    expect(mappingQuery(headers, { phone: "mobile", name: "name" })).toEqual({ phoneColumn: "mobile" });
    expect(mappingQuery(["number", "Who"], { name: "Who" })).toEqual({ nameColumn: "Who" });
  });
});
