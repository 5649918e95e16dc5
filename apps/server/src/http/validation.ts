import type { z } from "zod";
import { badRequest } from "./api-error.ts";

/** Parses one part of a request; a failure names the field: `email: Invalid email address`. */
export function parseRequestPart<S extends z.ZodType>(schema: S, value: unknown, part: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join(".") : part;
  throw badRequest(`${field}: ${issue?.message ?? "is invalid"}`);
}
