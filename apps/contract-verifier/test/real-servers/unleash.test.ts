import { startUnleash } from "@payspec/third-party";
import { realServerSuite } from "../support/real-server-suite.js";

realServerSuite("Unleash (feature flags, PostgreSQL, three kinds of token)", startUnleash, { keepCreatedRun: false });
