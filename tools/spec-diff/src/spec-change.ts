/** One classified difference between two versions of a spec. */
export interface SpecChange {
  readonly severity: "breaking" | "safe";
  /** The rule that classified it: an Optic rule name, or `payspec: bound tightened`. */
  readonly rule: string;
  readonly message: string;
  /** Where, in the words of the spec: `POST /v1/payments request body: property amount`. */
  readonly where: string;
  /** JSON pointer into the (denormalised) spec. */
  readonly pointer: string;
}

/** Whatever tool compares two spec files; the gate depends on this interface only. */
export interface SpecDiffer {
  compare(beforeFile: string, afterFile: string): Promise<SpecChange[]>;
}
