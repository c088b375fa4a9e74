import { PermissionMode } from "@lathe/permission";
import { InvalidInputError } from "../errors.js";

/** Checks a permission mode a host passed, naming where it came from. */
export function parseMode(mode: unknown, where: string): PermissionMode {
  const parsed = PermissionMode.safeParse(mode);
  if (!parsed.success) throw new InvalidInputError(`${where} must be one of ${PermissionMode.options.join(", ")}, got ${JSON.stringify(mode)}.`);
  return parsed.data;
}
