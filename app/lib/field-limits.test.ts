import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldLimits, limitsOf } from "./field-limits";

describe("limitsOf", () => {
  it("reads a required text's bounds", () => {
    expect(limitsOf(z.string().trim().min(1).max(120))).toEqual({ required: true, maxLength: 120 });
  });

  it("leaves out required for text that may be empty, optional or defaulted", () => {
    expect(limitsOf(z.string().max(50))).toEqual({ maxLength: 50 });
    expect(limitsOf(z.string().min(1).max(50).optional())).toEqual({ maxLength: 50 });
    expect(limitsOf(z.string().min(1).max(9).default("x"))).toEqual({ maxLength: 9 });
    expect(limitsOf(z.string().min(1).max(9).or(z.literal("")))).toEqual({ maxLength: 9 });
  });

  it("looks through transforms after the text and preprocessing before it", () => {
    const trimmed = z
      .string()
      .max(5)
      .optional()
      .transform((value) => value ?? "");
    expect(limitsOf(trimmed)).toEqual({ maxLength: 5 });
    const position = z.preprocess((value) => value, z.coerce.number().int().min(0).optional());
    expect(limitsOf(position)).toEqual({ inputMode: "numeric" });
  });

  it("says which keyboard a number wants", () => {
    expect(limitsOf(z.coerce.number().int().min(1))).toEqual({ required: true, inputMode: "numeric" });
    expect(limitsOf(z.coerce.number().min(0))).toEqual({ required: true, inputMode: "decimal" });
    const amount = z
      .string()
      .min(1)
      .regex(/^\d{1,7}(\.\d{1,2})?$/)
      .transform(Number);
    expect(limitsOf(amount)).toEqual({ required: true, inputMode: "decimal" });
    expect(limitsOf(z.string().regex(/^\d{4,8}$/))).toEqual({ inputMode: "numeric" });
  });

  it("gives no keyboard for patterns that take more than numbers", () => {
    expect(limitsOf(z.string().regex(/^\+\d{6,15}$/))).toEqual({});
    expect(limitsOf(z.string().regex(/^[a-z0-9-]+$/))).toEqual({});
    expect(limitsOf(z.string().regex(/^[A-Z0-9][A-Z0-9 ./-]*$/))).toEqual({});
    expect(limitsOf(z.string().email().max(254))).toEqual({ maxLength: 254 });
  });

  it("gives nothing for what is not text or a number", () => {
    expect(limitsOf(z.boolean())).toEqual({});
    expect(limitsOf(z.array(z.string()).min(1))).toEqual({});
  });
});

describe("fieldLimits", () => {
  it("reads every field of an object, through refinements and intersections", () => {
    const schema = z
      .object({ name: z.string().min(1).max(10), note: z.string().max(99).optional() })
      .superRefine(() => undefined)
      .and(z.object({ count: z.coerce.number().int() }));
    expect(fieldLimits(schema)).toEqual({
      name: { required: true, maxLength: 10 },
      note: { maxLength: 99 },
      count: { required: true, inputMode: "numeric" },
    });
  });

  it("gives no props for a field the schema does not have", () => {
    expect(fieldLimits(z.object({ a: z.string() }))["b"]).toBeUndefined();
  });
});
