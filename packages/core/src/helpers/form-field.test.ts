import { describe, expect, it } from "vitest";
import {
  blurFormField,
  coerceFormValue,
  createFormField,
  type FormFields,
  REQUIRED_FIELD_MESSAGE,
  setFormFieldValue,
  submitForm,
  validateFormField,
} from "./form-field.ts";

describe("form field helper", () => {
  it("creates a blank, clean field", () => {
    expect(createFormField({ required: true, label: "Name" })).toEqual({
      value: "",
      type: "string",
      required: true,
      label: "Name",
      error: null,
      blurred: false,
    });
  });

  it.each([null, undefined, "", "   ", []])(
    "a required field holding %j fails with the spec message",
    (value) => {
      expect(validateFormField(createFormField({ required: true, value }))).toBe("This field is required");
    },
  );

  it("an optional empty field passes without running its validator", () => {
    const field = createFormField({ validator: () => "never" });
    expect(validateFormField(field)).toBeNull();
  });

  it("runs custom validators with every field's value", () => {
    const fields: FormFields = {
      password: createFormField({ value: "secret" }),
      confirm: createFormField({
        value: "other",
        validator: (value, values) => (value === values.password ? null : "Passwords do not match"),
      }),
    };
    expect(blurFormField(fields, "confirm").confirm?.error).toBe("Passwords do not match");
    const fixed = setFormFieldValue(blurFormField(fields, "confirm"), "confirm", "secret");
    expect(fixed.confirm?.error).toBeNull();
  });

  it("validates on value change only after blur", () => {
    const fields: FormFields = { name: createFormField({ required: true, value: "x" }) };
    expect(setFormFieldValue(fields, "name", "").name?.error).toBeNull();
    const blurred = blurFormField(fields, "name");
    expect(blurred.name).toMatchObject({ blurred: true, error: null });
    expect(setFormFieldValue(blurred, "name", "").name?.error).toBe(REQUIRED_FIELD_MESSAGE);
  });

  it("leaves unknown fields alone and never mutates", () => {
    const fields: FormFields = { name: createFormField() };
    expect(setFormFieldValue(fields, "missing", 1)).toBe(fields);
    expect(blurFormField(fields, "missing")).toBe(fields);
    setFormFieldValue(fields, "name", "changed");
    expect(fields.name?.value).toBe("");
  });

  it.each([
    ["integer", "42", 42],
    ["integer", "42.9", 42],
    ["integer", "abc", null],
    ["integer", "", null],
    ["float", "3.25", 3.25],
    ["float", 2, 2],
    ["float", "x", null],
    ["boolean", "true", true],
    ["boolean", true, true],
    ["boolean", "false", false],
    ["boolean", "yes", false],
    ["boolean", 1, false],
    ["string", " keep ", " keep "],
  ] as const)("coerces %s %j to %j", (type, value, expected) => {
    expect(coerceFormValue(type, value)).toEqual(expected);
  });

  it("coerces dates", () => {
    expect(coerceFormValue("date", "2024-05-01")).toEqual(new Date(Date.UTC(2024, 4, 1)));
    expect(coerceFormValue("date", 0)).toEqual(new Date(0));
    expect(coerceFormValue("date", "not a date")).toBeNull();
    expect(coerceFormValue("date", "")).toBeNull();
  });

  it("submit blocks on errors and marks every field blurred", () => {
    const result = submitForm({
      name: createFormField({ required: true }),
      age: createFormField({ type: "integer", value: "7" }),
    });
    expect(result.valid).toBe(false);
    expect(result.fields.name).toMatchObject({ blurred: true, error: REQUIRED_FIELD_MESSAGE });
    expect(result.fields.age).toMatchObject({ blurred: true, error: null });
  });

  it("submit returns values coerced by type", () => {
    const result = submitForm({
      name: createFormField({ required: true, value: "Ann" }),
      age: createFormField({ type: "integer", value: "7" }),
      rate: createFormField({ type: "float", value: "0.5" }),
      vip: createFormField({ type: "boolean", value: "true" }),
      since: createFormField({ type: "date", value: "2024-01-02" }),
    });
    expect(result).toMatchObject({
      valid: true,
      values: { name: "Ann", age: 7, rate: 0.5, vip: true, since: new Date(Date.UTC(2024, 0, 2)) },
    });
  });
});
