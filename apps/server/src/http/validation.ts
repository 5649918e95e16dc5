import { findInputProblem } from "@switchboard/api";
import type { z } from "zod";
import { badRequest } from "../api-error.ts";

const fieldName = (path: readonly PropertyKey[], part: string) =>
  path.length > 0 ? path.map(String).join(".") : part;

/**
 * Parses one part of a request; a failure names the field: `email: Invalid email address`. Before the
 * route's schema, the raw part must be storable text at any depth (no NUL, no lone surrogate, in values
 * and keys) and not nested too deeply: the rule of every route's every field, records and free-form JSON
 * included, so none of them reaches the database or JSON.stringify as input they cannot take.
 */
export function parseRequestPart<S extends z.ZodType>(schema: S, value: unknown, part: string): z.output<S> {
  const problem = findInputProblem(value);
  if (problem) throw badRequest(`${fieldName(problem.path, part)}: ${problem.message}`);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw badRequest(`${issue ? fieldName(issue.path, part) : part}: ${issue?.message ?? "is invalid"}`);
}
