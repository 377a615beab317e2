import type { ApiName } from "./options.js";
/** The operations a spec declares, as checks and records name them. */

export interface OperationInfo {
  readonly api: ApiName;
  readonly operationId: string;
  readonly method: string;
  readonly template: string;
}

/**
 * An operation's name in check ids: its operationId made safe for `--only` and JUnit (`find pet by
 * id` → `find-pet-by-id`), or method and path as people write them when the spec gives none
 * (`GET /pets/{id}`).
 */
function operationName(method: string, template: string, operationId: string | undefined): string {
  if (typeof operationId !== "string" || operationId.trim() === "") return `${method.toUpperCase()} ${template}`;
  return operationId.replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "");
}

/** Every operation of a spec, in spec order. */
export function operationsOf(api: ApiName, spec: object): OperationInfo[] {
  const paths = (spec as { paths?: Record<string, Record<string, { operationId?: string }>> }).paths ?? {};
  return Object.entries(paths).flatMap(([template, item]) =>
    ["get", "post", "put", "delete", "patch"]
      .filter((m) => item[m])
      .map((m) => ({
        api,
        operationId: operationName(m, template, item[m]?.operationId),
        method: m.toUpperCase(),
        template,
      })),
  );
}
