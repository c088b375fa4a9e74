import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compileInputSchema, mcpParameters } from "./input-schema.js";

const parameters = (schema: Record<string, unknown>) => mcpParameters(schema, compileInputSchema(schema, new AjvJsonSchemaValidator()));

describe("MCP input schemas as tool parameters", () => {
  it("exposes the server's JSON schema verbatim, $defs and dialect included", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { path: { $ref: "#/$defs/path" }, depth: { type: "integer", minimum: 0 } },
      required: ["path"],
      $defs: { path: { type: "string", pattern: "^/" } },
    };
    expect(z.toJSONSchema(parameters(schema))).toEqual(schema);
  });

  it("validates with the server's schema: types, required fields, formats, refs", () => {
    const p = parameters({
      type: "object",
      properties: { path: { $ref: "#/$defs/path" }, when: { type: "string", format: "date" } },
      required: ["path"],
      additionalProperties: false,
      $defs: { path: { type: "string", pattern: "^/" } },
    });
    expect(p.safeParse({ path: "/etc", when: "2024-01-31" }).success).toBe(true);
    expect(p.safeParse({ path: "etc" }).success).toBe(false);
    expect(p.safeParse({ path: "/etc", when: "yesterday" }).success).toBe(false);
    expect(p.safeParse({ path: "/etc", extra: 1 }).success).toBe(false);
    expect(p.safeParse({}).error?.issues[0]?.message).toMatch(/must have required property 'path'/);
  });

  it("drops draft-04 `id`, which would make zod move the schema into $defs", () => {
    const json = z.toJSONSchema(parameters({ id: "https://example.com/x.json", type: "object", properties: {} }), { target: "draft-7" });
    expect(json).toEqual({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: {} });
  });

  it("a schema Ajv cannot compile accepts any input (the server still validates)", () => {
    const validate = compileInputSchema({ type: "object", properties: { a: { $ref: "#/nowhere" } } }, new AjvJsonSchemaValidator());
    expect(validate({ a: 1 })).toBeUndefined();
  });

  it("one validator per server: two servers may use the same $id for different schemas", () => {
    const first = compileInputSchema({ $id: "https://example.com/input.json", type: "object", required: ["a"] }, new AjvJsonSchemaValidator());
    const second = compileInputSchema({ $id: "https://example.com/input.json", type: "object", required: ["b"] }, new AjvJsonSchemaValidator());
    expect(first({ a: 1 })).toBeUndefined();
    expect(second({ a: 1 })).toMatch(/'b'/);
  });
});
