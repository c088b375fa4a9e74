import type { Session } from "@lathe/message";
import type { SessionQuery } from "./storage.js";

/** The page size when a query names none. */
export const DEFAULT_PAGE_SIZE = 100;

/** The page size a query asks for: a positive whole number, {@link DEFAULT_PAGE_SIZE} when absent. */
export function pageLimit(query: SessionQuery): number {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  return Number.isFinite(limit) ? Math.max(1, Math.floor(limit)) : DEFAULT_PAGE_SIZE;
}

/** Whether a session belongs in the answer to a query (cursor aside). */
export function matchesQuery(session: Pick<Session, "parentID">, query: SessionQuery): boolean {
  if (query.parentID !== undefined) return session.parentID === query.parentID;
  if (query.rootsOnly) return session.parentID === undefined;
  return true;
}
