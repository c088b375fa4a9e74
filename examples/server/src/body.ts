import type { Context } from "hono";
import { z } from "zod";

/** A request body or query that is not what the endpoint takes. */
export class BadRequestError extends Error {
  override readonly name = "BadRequestError";
}

/** The request's JSON body (an empty body is `{}`), checked against `schema`. */
export async function readBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  const text = await c.req.text();
  let json: unknown = {};
  if (text.trim() !== "") {
    try {
      json = JSON.parse(text);
    } catch {
      throw new BadRequestError("The body is not JSON.");
    }
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new BadRequestError(z.prettifyError(parsed.error));
  return parsed.data;
}
