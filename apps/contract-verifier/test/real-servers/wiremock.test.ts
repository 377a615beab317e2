import { startWireMock } from "@payspec/third-party";
import { realServerSuite } from "../support/real-server-suite.js";

realServerSuite("WireMock (its admin API)", startWireMock);
