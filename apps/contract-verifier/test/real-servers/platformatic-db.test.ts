import { startPlatformaticDb } from "@payspec/third-party";
import { realServerSuite } from "../support/real-server-suite.js";

realServerSuite("Platformatic DB (REST generated from PostgreSQL tables)", startPlatformaticDb);
