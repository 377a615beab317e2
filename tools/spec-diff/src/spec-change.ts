import type { Affected } from "./change-catalogue.js";

/** One classified difference between two versions of a spec. */
export interface SpecChange {
  readonly severity: "breaking" | "safe";
  /** The catalogue class (`request.property.removed-strict`), or the tool's own rule name. */
  readonly rule: string;
  readonly message: string;
  /** Where, in the words of the spec: `POST /v1/payments request body: reference`. */
  readonly where: string;
  /** JSON pointer into the spec (after the change where the thing still exists). */
  readonly pointer: string;
  /** Who breaks, for breaking changes. */
  readonly affects?: Affected;
  /** The old and new values, where there are values to show. */
  readonly before?: unknown;
  readonly after?: unknown;
}

/** Whatever tool compares two spec files; the gate depends on this interface only. */
export interface SpecDiffer {
  compare(beforeFile: string, afterFile: string): Promise<SpecChange[]>;
}
