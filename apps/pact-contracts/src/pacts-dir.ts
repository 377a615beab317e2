import { fileURLToPath } from "node:url";

/** Where consumer tests write pact files, and where verification and the cross-check read them. Generated, not committed. */
export const pactsDir = fileURLToPath(new URL("../pacts", import.meta.url));
