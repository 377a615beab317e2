import { fileURLToPath } from "node:url";

/** Where consumer tests write pact files, and where verification and the cross-check read them. Generated, not committed. */
export const pactsDir = fileURLToPath(new URL("../pacts", import.meta.url));

/**
 * A pact written the way a user of the APIs writes one (plain pact-js and fetch, not our clients),
 * right and wrong interactions together: committed, so the consumer test can run the published
 * verifier on it; its test regenerates it and fails when the two differ.
 */
export const usersPactsDir = fileURLToPath(new URL("../users-pacts", import.meta.url));
