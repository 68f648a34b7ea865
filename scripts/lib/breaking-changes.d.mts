// Types of breaking-changes.mjs (for the TypeScript tests that import it).

export interface BreakingChange {
  /** The stable, human-readable id spec/CHANGELOG.md lists, e.g. `GET /v1/keys 200 response: property data removed`. */
  id: string;
  /** A coarse category, e.g. `response-property-removed`, `request-required`, `request-narrowed`. */
  kind: string;
}

export interface ChangelogEntry {
  id: string;
  /** The version that made the change: the last version in its `## ` heading. */
  version: string;
  reason: string;
  /** 1-based line in the changelog. */
  line: number;
}

export interface ExpandedSchema {
  nullable: boolean;
  variants: Array<{ schema: Record<string, unknown>; ref: string | null }>;
}

export function findBreakingChanges(released: object, current: object): BreakingChange[];
export function parseChangelog(markdown: string): { entries: ChangelogEntry[]; errors: string[] };
export function changelogLine(id: string, reason?: string): string;
export function compareVersions(a: string | undefined, b: string | undefined): number;
export function classify(
  changes: BreakingChange[],
  entries: ChangelogEntry[],
  options?: { releasedVersion?: string },
): {
  allowed: Array<BreakingChange & { entry: ChangelogEntry }>;
  unlisted: BreakingChange[];
  todo: Array<BreakingChange & { entry: ChangelogEntry }>;
};
export function expandSchema(doc: object, node: unknown, refs?: string[]): ExpandedSchema;
/** Why the version cannot carry `allowedCount` listed breaks (they need a new major info.version), or null. */
export function versionProblem(allowedCount: number, current: string | undefined, released: string | undefined): string | null;
/** The operations of `current` that `released` lacks (by method and path), each as `POST /v1/jobs: operation added (createJob)`. */
export function findAddedOperations(released: object, current: object): Array<{ id: string; operationId: string | undefined }>;
/** Why the version cannot carry `addedCount` new operations (they need a version newer than the released one), or null. */
export function additionProblem(addedCount: number, current: string | undefined, released: string | undefined): string | null;
