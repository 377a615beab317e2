export { MemoryClockStore } from "./memory-clock-store.js";
export { MemoryGatewayStore } from "./memory-gateway-store.js";
export { MemoryPaymentsStore } from "./memory-payments-store.js";
export { memoryStores, postgresStores } from "./open-stores.js";
export { migrate, migrations } from "./postgres/migrate.js";
export { PostgresClockStore } from "./postgres/postgres-clock-store.js";
export { PostgresGatewayStore } from "./postgres/postgres-gateway-store.js";
export { PostgresPaymentsStore } from "./postgres/postgres-payments-store.js";
export type * from "./types.js";
