import { configFromEnv } from "./config.js";
import { startSandbox } from "./server.js";
import { startupBanner } from "./startup-banner.js";

const config = configFromEnv();
const sandbox = await startSandbox(config);
process.stdout.write(startupBanner(config, sandbox.url));

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}
