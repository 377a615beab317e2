import { createResponseChecker, createSpecValidator, pointerOf } from "@payspec/specs";

/** The parts of a Pact V4 file the cross-check reads. */
export interface PactFile {
  readonly consumer: { readonly name: string };
  readonly provider: { readonly name: string };
  readonly interactions: readonly PactInteraction[];
}

interface PactBody {
  readonly content?: unknown;
  readonly contentType?: string;
  readonly encoded?: string | false;
}

export interface PactInteraction {
  readonly description: string;
  readonly request: {
    readonly method: string;
    readonly path: string;
    readonly headers?: Record<string, string[]>;
    readonly body?: PactBody;
  };
  readonly response: { readonly status: number; readonly headers?: Record<string, string[]>; readonly body?: PactBody };
}

function header(headers: Record<string, string[]> | undefined, name: string): string | undefined {
  const entry = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase());
  return entry?.[1]?.[0];
}

/**
 * Holds every interaction of a pact to the spec, strictly: the operation must exist, a JSON request
 * body must respect every bound of its schema (unless the interaction expects the 400 that such a
 * request earns), the response status must be declared, its content type declared, and a JSON
 * response body must have every required field and valid values.
 * Returns one line per disagreement; none means the pact and the spec agree.
 */
export function crossCheckPact(pact: PactFile, spec: object): string[] {
  const checker = createResponseChecker(spec);
  const validator = createSpecValidator(spec);
  const problems: string[] = [];
  for (const interaction of pact.interactions) {
    const where = `${pact.consumer.name} -> ${pact.provider.name}: "${interaction.description}"`;
    const { request, response } = interaction;
    const operation = checker.operationFor(request.method, request.path);
    if (!operation) {
      problems.push(`${where}: ${request.method} ${request.path} is not an operation of the spec`);
      continue;
    }
    // An interaction that expects a 400 sends an invalid request on purpose; every other one must respect every bound.
    if (response.status !== 400 && request.body?.content !== undefined && request.body.contentType?.includes("json")) {
      const pointer = pointerOf(
        "paths",
        operation.template,
        request.method.toLowerCase(),
        "requestBody",
        "content",
        "application/json",
        "schema",
      );
      for (const error of validator.validate(pointer, request.body.content).errors)
        problems.push(`${where}: request body ${error}`);
    }
    const contentType = header(response.headers, "content-type") ?? response.body?.contentType ?? null;
    const json = contentType?.includes("json") ? response.body?.content : undefined;
    const headers = Object.fromEntries(
      Object.entries(response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v[0] ?? ""]),
    );
    for (const problem of checker.check({
      method: request.method,
      path: request.path,
      status: response.status,
      contentType,
      headers,
      body: json,
    })) {
      problems.push(`${where}: ${problem}`);
    }
  }
  return problems;
}
