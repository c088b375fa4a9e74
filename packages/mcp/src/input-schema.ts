import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";

/** A JSON-schema validator answering with the first problems it found, or nothing when the value is valid. */
export type InputValidator = (value: unknown) => string | undefined;

/**
 * Compiles a server's JSON input schema with `ajv` (one instance per server, since Ajv caches schemas
 * by `$id` and two servers may reuse one). A schema Ajv cannot compile (a dialect or keyword it does
 * not know) validates nothing here: the server still validates the call, and its answer reaches the model.
 */
export function compileInputSchema(schema: Record<string, unknown>, ajv: AjvJsonSchemaValidator): InputValidator {
  let check: ReturnType<AjvJsonSchemaValidator["getValidator"]>;
  try {
    check = ajv.getValidator(schema as never);
  } catch {
    return () => undefined;
  }
  return (value) => {
    const result = check(value);
    return result.valid ? undefined : (result.errorMessage ?? "does not match the schema");
  };
}

/**
 * The tool's `parameters`: a zod schema whose JSON Schema is exactly the server's (zod writes schema
 * metadata verbatim into `z.toJSONSchema`, which is what the AI SDK sends the model) and whose
 * validation is the server's schema run by Ajv. MCP tools thus stay ordinary zod-parameter tools.
 */
export function mcpParameters(schema: Record<string, unknown>, validate: InputValidator): z.ZodType<Record<string, unknown>> {
  // `id` (draft-04's `$id`) would make zod move the schema into `$defs`; `$schema` is kept as given.
  const { id: _id, ...metadata } = schema;
  return z
    .unknown()
    .superRefine((value, ctx) => {
      const problem = validate(value);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
    })
    .meta({ type: "object", ...metadata }) as unknown as z.ZodType<Record<string, unknown>>;
}
