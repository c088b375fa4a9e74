import { z } from "zod";

/**
 * Other names models use for Lathe's canonical argument names. Models trained on other agents call
 * the file tools with those agents' names (`file_path`, `absolute_path`, `filePath`); a call that
 * means the right thing should not cost a step on a schema error.
 */
const NAME_ALIASES: Readonly<Record<string, readonly string[]>> = {
  path: ["file_path", "filePath", "filepath", "absolute_path", "absolutePath", "file"],
  content: ["contents", "file_text", "fileText"],
};

/** `old_string` → `oldString`: the other common spelling of every camel-case argument. */
const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The object schema inside optional/nullable/default wrappers, or undefined when there is none. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let current: z.ZodType = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) {
    current = current.unwrap() as z.ZodType;
  }
  if (current instanceof z.ZodPipe) current = current.out as z.ZodType;
  return current instanceof z.ZodObject ? (current.shape as Record<string, z.ZodType>) : undefined;
}

/** The element schema of an array (inside wrappers), or undefined when `schema` is not an array. */
function arrayElement(schema: z.ZodType): z.ZodType | undefined {
  let current: z.ZodType = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) {
    current = current.unwrap() as z.ZodType;
  }
  return current instanceof z.ZodArray ? (current.element as z.ZodType) : undefined;
}

/** The canonical name an argument called `key` stands for, among `known`; undefined when none. */
function canonicalName(key: string, known: ReadonlySet<string>): string | undefined {
  if (known.has(key)) return key;
  const camel = camelCase(key);
  if (known.has(camel)) return camel;
  for (const [name, aliases] of Object.entries(NAME_ALIASES)) {
    if (known.has(name) && (aliases.includes(key) || aliases.includes(camel))) return name;
  }
  return undefined;
}

/**
 * Renames aliased keys of `input` to the names `shape` declares, at every depth the schema has
 * objects (arrays of objects too). A canonical name given by the model wins over its alias; keys that
 * match nothing are left for the schema to judge.
 */
function renameArguments(input: unknown, shape: Record<string, z.ZodType>): unknown {
  if (!isPlainObject(input)) return input;
  const known = new Set(Object.keys(shape));
  const output: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const name = canonicalName(key, known);
    if (name === undefined) {
      if (!(key in output)) output[key] = value;
      continue;
    }
    if (name !== key && name in input) continue; // the model also sent the canonical name: that wins
    output[name] = normalizeValue(value, shape[name]!);
  }
  return output;
}

function normalizeValue(value: unknown, schema: z.ZodType): unknown {
  const nested = objectShape(schema);
  if (nested) return renameArguments(value, nested);
  const element = arrayElement(schema);
  const elementShape = element && objectShape(element);
  if (elementShape && Array.isArray(value)) return value.map((item) => renameArguments(item, elementShape));
  return value;
}

/**
 * Wraps a tool's object schema so the argument names models commonly send instead of Lathe's are
 * accepted before validation: snake_case for camelCase (`old_string`, `new_string`, `replace_all`,
 * also inside arrays of objects such as `multiedit`'s `edits`) and the usual names for a file's path
 * (`file_path`, `filePath`, `absolute_path`) and content (`contents`). The schema the model is shown
 * (its JSON schema, made from the input side) stays the canonical one.
 */
export function acceptArgumentAliases<T extends z.ZodObject>(schema: T) {
  const shape = schema.shape as Record<string, z.ZodType>;
  return z.preprocess((input) => renameArguments(input, shape), schema);
}
