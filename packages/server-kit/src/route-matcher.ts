/** A spec operation a request resolved to, with its path parameters. */
export interface MatchedRoute<R> {
  readonly key: string;
  readonly route: R;
  readonly params: Record<string, string>;
}

interface Compiled<R> {
  readonly key: string;
  readonly method: string;
  readonly regex: RegExp;
  readonly names: readonly string[];
  readonly route: R;
}

export interface RouteMatcher<R> {
  (method: string, path: string): MatchedRoute<R> | undefined;
  /** The methods some route answers on `path` (for a 405's `Allow`); empty when no route has the path. */
  allowedMethods(path: string): string[];
}

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Matches `METHOD /concrete/path` against a generated route table keyed by `METHOD /path/{template}`. */
export function routeMatcher<R>(table: Readonly<Record<string, R>>): RouteMatcher<R> {
  const compiled: Compiled<R>[] = Object.entries(table).map(([key, route]) => {
    const [method = "", template = ""] = key.split(" ");
    const names: string[] = [];
    const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{([^}]+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    return { key, method, regex: new RegExp(`^${pattern}$`), names, route };
  });
  // Literal paths win over templates: /v1/payments/batch is never /v1/payments/{id}.
  compiled.sort((a, b) => a.names.length - b.names.length);

  const match = (method: string, path: string): MatchedRoute<R> | undefined => {
    for (const c of compiled) {
      if (c.method !== method.toUpperCase()) continue;
      const m = c.regex.exec(path);
      if (!m) continue;
      const params = Object.fromEntries(c.names.map((name, i) => [name, decodeParam(m[i + 1] ?? "")]));
      return { key: c.key, route: c.route, params };
    }
    return undefined;
  };
  const allowedMethods = (path: string) => {
    const methods = new Set(compiled.filter((c) => c.regex.test(path)).map((c) => c.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
  return Object.assign(match, { allowedMethods });
}
