import { StorageVersionError } from "./errors.js";

/** One step of an adapter's schema: applying it brings the store from `version - 1` to `version`. */
export interface Migration<Context> {
  /** The schema version the store has after this step (1 for the first). */
  version: number;
  /** What the step does (for logs and errors). */
  description: string;
  /** Applies the step. Called inside whatever makes the step atomic for the adapter. */
  up(context: Context): void | Promise<void>;
}

/** The newest version a list of migrations reaches (0 for an empty list). */
export function latestVersion(migrations: ReadonlyArray<Migration<never>>): number {
  return migrations.reduce((max, m) => Math.max(max, m.version), 0);
}

/**
 * The migrations a store at `current` still needs, in order. Migrations must be numbered 1, 2, 3…
 * without gaps.
 *
 * @throws {@link StorageVersionError} when the store is newer than the newest migration.
 */
export function pendingMigrations<Context>(
  location: string,
  current: number,
  migrations: ReadonlyArray<Migration<Context>>,
): Array<Migration<Context>> {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations must be numbered 1..n without gaps; found ${m.version} at ${i + 1}`);
  });
  const latest = sorted.length;
  if (current > latest) throw new StorageVersionError(location, current, latest);
  return sorted.slice(current);
}
