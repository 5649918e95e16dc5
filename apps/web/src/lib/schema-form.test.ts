import { accountFieldsSchema, createOrganization } from "@switchboard/api";
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { bodySchemaOf, fieldErrors, presentFields, useSchemaForm } from "./schema-form.ts";

describe("forms validated with the API's schemas", () => {
  it("leave out empty optional fields", () => {
    expect(presentFields({ name: "Acme", email: " ", phone: "" })).toEqual({ name: "Acme" });
  });

  it("show the schema's message for an empty required field", () => {
    const { result } = renderHook(() =>
      useSchemaForm(bodySchemaOf(createOrganization), { name: "", email: "" }, { required: ["name"] }),
    );
    let parsed: unknown;
    act(() => {
      parsed = result.current.parse();
    });
    expect(parsed).toBeNull();
    expect(result.current.errors).toEqual({ name: "Enter a name." });
  });

  it("answer the parsed body", () => {
    const { result } = renderHook(() =>
      useSchemaForm(bodySchemaOf(createOrganization), { name: " Acme ", email: "Owner@Acme.example" }),
    );
    let parsed: unknown;
    act(() => {
      parsed = result.current.parse({ targetResellerId: "3" });
    });
    expect(parsed).toEqual({ name: "Acme", email: "owner@acme.example", targetResellerId: 3 });
  });

  it("map issues to fields", () => {
    const failed = accountFieldsSchema.safeParse({ email: "nope", name: "" });
    expect(failed.success).toBe(false);
    if (!failed.success)
      expect(fieldErrors(failed.error, ["email", "name"])).toEqual({
        email: "Enter a valid e-mail address.",
        name: "A name cannot be empty.",
      });
  });
});
