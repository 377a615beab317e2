import { cardGatewaySpec, paymentsAccountsSpec } from "@payspec/specs";

const METHODS = ["get", "put", "post", "delete", "patch"];

export interface OperationNames {
  /** "METHOD /template" for an operationId or a "METHOD /path" of the API; undefined when neither. */
  resolve(name: string, api: "payments" | "gateway"): string | undefined;
  /** The API's operations as "operationId (METHOD /template)", for error messages. */
  listFor(api: "payments" | "gateway"): string[];
  /** The API's operations by the name a fault is declared with: operationId, or "METHOD /template". */
  namesFor(api: "payments" | "gateway"): string[];
}

function operationsOf(spec: object): Map<string, string> {
  const byId = new Map<string, string>();
  const paths = (spec as { paths: Record<string, Record<string, { operationId?: string }>> }).paths;
  for (const [template, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation)
        byId.set(operation.operationId ?? `${method.toUpperCase()} ${template}`, `${method.toUpperCase()} ${template}`);
    }
  }
  return byId;
}

/** The two specs' operations, by operationId and by method and path: how a fault names what it strikes. */
export function operationNames(): OperationNames {
  const apis = { payments: operationsOf(paymentsAccountsSpec), gateway: operationsOf(cardGatewaySpec) };
  return {
    resolve(name, api) {
      const byId = apis[api];
      const direct = byId.get(name);
      if (direct) return direct;
      const [method = "", path = ""] = name.trim().split(/\s+/);
      const key = `${method.toUpperCase()} ${path}`;
      return [...byId.values()].includes(key) ? key : undefined;
    },
    listFor(api) {
      return [...apis[api].entries()].map(([id, key]) => (id === key ? key : `${id} (${key})`));
    },
    namesFor(api) {
      return [...apis[api].keys()];
    },
  };
}

const keys = new Map<string, string>();

/**
 * A Fastify route (`/v1/payments/:id`) as the spec writes it (`/v1/payments/{id}`), with its method.
 * Asked on every request of a workspace with faults: kept per route, not rebuilt each time.
 */
export function operationKey(method: string, routeUrl: string): string {
  const route = `${method} ${routeUrl}`;
  let key = keys.get(route);
  if (key === undefined) {
    key = `${method} ${routeUrl.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`;
    // Routes are few and fixed; the bound only guards against a caller passing raw URLs.
    if (keys.size < 1_000) keys.set(route, key);
  }
  return key;
}
