export { node24BinDir } from "./node-24.js";
export { freePort, getText, type ServerProcess, startProcess } from "./process-server.js";
export {
  ARA_RELEASE,
  LOOPBACK_TODO_RELEASE,
  PLATFORMATIC_ADMIN_SECRET,
  PLATFORMATIC_DB_RELEASE,
  type RealServer,
  startAra,
  startLoopBackTodo,
  startPlatformaticDb,
  startUnleash,
  startWireMock,
  UNLEASH_RELEASE,
  UNLEASH_TOKENS,
  WIREMOCK_RELEASE,
} from "./real-servers.js";
export { CACHE_DIR, installFromRegistry, plainEnv } from "./registry-install.js";
