/** A check that cannot say anything here (a rate limit, --read-only, a body that is not JSON): skipped, with the reason. */
export class SkipCheck extends Error {}

/** The provider failed a scenario's setup; the check ends as an error saying what went wrong. */
export class SetupFailed extends Error {}
