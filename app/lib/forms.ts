import type { z } from "zod";

/** Turns form fields named like "billing.city" into nested objects. */
export function formToObject(formData: FormData): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [name, value] of formData.entries()) {
    if (typeof value !== "string") continue;
    const path = name.split(".");
    if (path.some((key) => key === "__proto__" || key === "constructor" || key === "prototype")) continue;
    let target = result;
    for (const key of path.slice(0, -1)) {
      const next = target[key];
      target = (typeof next === "object" && next !== null ? next : (target[key] = {})) as Record<
        string,
        unknown
      >;
    }
    target[path[path.length - 1]!] = value;
  }
  return result;
}

/** zod issues as "billing.city" -> first message, for messages beside the fields. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "form";
    errors[key] ??= issue.message;
  }
  return errors;
}
