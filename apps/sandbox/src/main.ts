import { configFromEnv } from "./config.js";
import { seedWorkspace } from "./payments/seed.js";
import { startSandbox } from "./server.js";

const config = configFromEnv();
const sandbox = await startSandbox(config);
const lines = [
  `payspec sandbox listening on ${sandbox.url}`,
  "",
  "Payments and accounts API (Authorization: Bearer <key>):",
  ...config.apiKeys.map(
    (key) =>
      `  key ${key}: accounts ${seedWorkspace(key)
        .accounts.map((a) => a.id)
        .join(", ")}`,
  ),
  "",
  `Card gateway: POST ${sandbox.url}/auth/login with Basic ${config.gatewayKey}:${config.gatewaySecret}`,
  `  tokens live ${config.tokenTtlSeconds} s; payments complete after ${config.completeAfterSeconds} s`,
  `  control API /_sandbox: ${config.control ? "on" : "off"}; request log: ${config.logRequests ? "on" : "off (PAYSPEC_LOG=requests)"}`,
];
process.stdout.write(`${lines.join("\n")}\n`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}
