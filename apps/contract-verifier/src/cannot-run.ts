/** Thrown when the run cannot start or go on for a reason that is not a verdict: the CLI exits 2 with its message. */
export class CannotRun extends Error {}
