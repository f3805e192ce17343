import type { z } from "zod";

/** The limits of a form field that its input shows the browser: read from the schema the action checks with. */
export type FieldLimits = {
  required?: true;
  maxLength?: number;
  inputMode?: "numeric" | "decimal";
};

/** What zod 4 keeps of a schema that is read here: its kind, what it wraps and the bag of its checks. */
type Internals = {
  def: {
    type: string;
    innerType?: z.ZodType;
    in?: z.ZodType;
    out?: z.ZodType;
    left?: z.ZodType;
    right?: z.ZodType;
    options?: readonly z.ZodType[];
    values?: readonly unknown[];
    shape?: Record<string, z.ZodType>;
  };
  bag: { minimum?: number; maximum?: number; format?: string; patterns?: Set<RegExp>; pattern?: RegExp };
};

const internals = (schema: z.ZodType) => (schema as unknown as { _zod: Internals })._zod;

/** The empty answer that a text field left empty gives a union like `z.string().max(9).or(z.literal(""))`. */
const isEmptyLiteral = (schema: z.ZodType) => {
  const { def } = internals(schema);
  return def.type === "literal" && def.values?.length === 1 && def.values[0] === "";
};

/**
 * The schema a field's text is checked by, under its wrappers (optional, default, catch, a transform after it, a
 * preprocess before it), and whether it may be left empty.
 */
function unwrap(schema: z.ZodType): { core: z.ZodType; optional: boolean } {
  let core = schema;
  let optional = false;
  for (let depth = 0; depth < 20; depth += 1) {
    const { def } = internals(core);
    if (["optional", "nullable", "default", "prefault", "catch"].includes(def.type)) optional = true;
    if (def.innerType) core = def.innerType;
    else if (def.type === "pipe" && def.in && def.out)
      core = internals(def.in).def.type === "transform" ? def.out : def.in;
    else if (def.type === "union" && def.options) {
      const rest = def.options.filter((option) => !isEmptyLiteral(option));
      if (rest.length !== 1) break;
      optional ||= rest.length < def.options.length;
      core = rest[0]!;
    } else break;
  }
  return { core, optional };
}

/** A schema's fields by name, through intersections (`a.and(b)`) and wrappers. */
function fieldsOf(schema: z.ZodType): Record<string, z.ZodType> {
  const { core } = unwrap(schema);
  const { def } = internals(core);
  if (def.type === "object" && def.shape) return def.shape;
  if (def.type === "intersection" && def.left && def.right)
    return { ...fieldsOf(def.left), ...fieldsOf(def.right) };
  return {};
}

/** Whether a pattern takes numbers written with a decimal point ("12.50"), or whole numbers only ("12"). */
function numberPattern(patterns: Iterable<RegExp>): FieldLimits["inputMode"] {
  for (const pattern of patterns) {
    if (["x", "X", "+1"].some((text) => pattern.test(text))) continue;
    if (["1.5", "12.50"].some((text) => pattern.test(text))) return "decimal";
    if (["1", "12", "1234"].some((text) => pattern.test(text))) return "numeric";
  }
  return undefined;
}

/** The input props one field's schema gives: required, maxLength, inputMode; none that it does not say. */
export function limitsOf(schema: z.ZodType): FieldLimits {
  const { core, optional } = unwrap(schema);
  const { def, bag } = internals(core);
  const limits: FieldLimits = {};
  if (def.type === "string") {
    if (!optional && (bag.minimum ?? 0) >= 1) limits.required = true;
    if (bag.maximum !== undefined) limits.maxLength = bag.maximum;
    const inputMode = numberPattern(bag.patterns ?? []);
    if (inputMode) limits.inputMode = inputMode;
  } else if (def.type === "number") {
    if (!optional) limits.required = true;
    limits.inputMode = bag.format === "safeint" || bag.format === "int32" ? "numeric" : "decimal";
  }
  return limits;
}

/** Each schema's fields, read once: forms read them on every render. */
const read = new WeakMap<z.ZodType, Record<string, FieldLimits>>();

/**
 * The input props of every field of a form's object schema, by name: `<TextField {...limits.title} />`.
 * A field the schema does not have gives no props.
 */
export function fieldLimits<Schema extends z.ZodType>(
  schema: Schema,
): Record<Extract<keyof z.input<Schema>, string>, FieldLimits> & Record<string, FieldLimits | undefined> {
  let limits = read.get(schema);
  if (!limits) {
    limits = {};
    for (const [name, field] of Object.entries(fieldsOf(schema))) limits[name] = limitsOf(field);
    read.set(schema, limits);
  }
  return limits as Record<Extract<keyof z.input<Schema>, string>, FieldLimits>;
}
