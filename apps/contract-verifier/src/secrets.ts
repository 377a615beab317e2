/** Query parameters whose values are credentials whatever the spec says: `?api_key=…`, `?token=…`. */
const SECRET_QUERY_NAME =
  /^(api[-_]?key|apikey|key|token|access[-_]?token|id[-_]?token|auth|secret|client[-_]?secret|password|passwd|pwd|signature|sig|session(id)?)$/i;

/** Headers that carry credentials by name: Authorization, Cookie, X-Api-Key, X-Auth-Token, … */
const SECRET_HEADER_NAME = /^(authorization|proxy-authorization|cookie)$|token|secret|passw|api[-_]?key|auth|session/i;

const MASK = "***";

/**
 * The credentials of a run (every --header value, the API keys and secrets, apiKey parameters):
 * which header and query names carry them, and their values, so that no report shows them and
 * `sensitive.credentials` can tell when an answer repeats one.
 */
export class RunSecrets {
  readonly #values = new Set<string>();
  readonly #headers = new Set<string>();
  readonly #query = new Set<string>();

  /** A header whose value is a credential (by name, or because the user gave it with --header). */
  addHeader(name: string, value?: string): void {
    this.#headers.add(name.toLowerCase());
    if (value !== undefined) this.addValue(value);
  }

  /** A query parameter that carries a credential (an apiKey scheme `in: query`). */
  addQuery(name: string): void {
    this.#query.add(name.toLowerCase());
  }

  /** A credential's value; `Bearer x` and `Basic x` also add `x`, and Basic's decoded secret. */
  addValue(value: string): void {
    const trimmed = value.trim();
    if (trimmed.length < 4) return;
    this.#values.add(trimmed);
    const [scheme, token] = trimmed.split(/\s+/, 2);
    if (!token) return;
    if (token.length >= 4) this.#values.add(token);
    if (scheme?.toLowerCase() === "basic") {
      const decoded = Buffer.from(token, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon > 0) {
        this.#values.add(decoded);
        const secret = decoded.slice(colon + 1);
        if (secret.length >= 4) this.#values.add(secret);
      }
    }
  }

  isSecretHeader(name: string): boolean {
    const lower = name.toLowerCase();
    return this.#headers.has(lower) || SECRET_HEADER_NAME.test(lower);
  }

  isSecretQuery(name: string): boolean {
    return this.#query.has(name.toLowerCase()) || SECRET_QUERY_NAME.test(name);
  }

  /** A header value as reports show it: `Bearer ***`, or `***`. */
  maskHeader(value: string): string {
    const scheme = /^(bearer|basic|token|digest)\s+/i.exec(value)?.[1];
    return scheme ? `${scheme} ${MASK}` : MASK;
  }

  /** A request path with the values of credential query parameters masked. */
  maskPath(path: string): string {
    const cut = path.indexOf("?");
    if (cut < 0) return path;
    const query = path
      .slice(cut + 1)
      .split("&")
      .map((pair) => {
        const eq = pair.indexOf("=");
        const name = decodeURIComponent((eq < 0 ? pair : pair.slice(0, eq)).replaceAll("+", " "));
        return eq >= 0 && this.isSecretQuery(name) ? `${pair.slice(0, eq)}=${MASK}` : pair;
      })
      .join("&");
    return `${path.slice(0, cut)}?${query}`;
  }

  /** The text with every known credential value replaced by `***`, longest first. */
  redact(text: string): string {
    let out = text;
    for (const value of [...this.#values].sort((a, b) => b.length - a.length)) out = out.replaceAll(value, MASK);
    return out;
  }

  /** Every string inside a value, redacted (for results before they reach any report). */
  redactDeep<T>(value: T): T {
    if (typeof value === "string") return this.redact(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.redactDeep(item)) as T;
    if (typeof value === "object" && value !== null && !Buffer.isBuffer(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.redactDeep(v)])) as T;
    }
    return value;
  }

  /**
   * The property names under which a parsed body holds a credential the run sent (`""` for one not
   * under a property, such as a bare string answer): whether each is a field the spec declares tells
   * a token-listing operation apart from a leak.
   */
  echoFieldsIn(json: unknown): string[] {
    const values = [...this.#values].filter((v) => v.length >= 6);
    const found = new Set<string>();
    const walk = (node: unknown, key: string, depth: number) => {
      if (depth > 64) return;
      if (typeof node === "string") {
        if (values.some((v) => node.includes(v))) found.add(key);
      } else if (Array.isArray(node)) for (const item of node) walk(item, key, depth + 1);
      else if (typeof node === "object" && node !== null)
        for (const [k, v] of Object.entries(node)) walk(v, k, depth + 1);
    };
    walk(json, "", 0);
    return [...found];
  }

  /** Where an answer repeats a credential the run sent: `the body`, `the set-cookie header`. */
  echoesIn(body: string, headers: Readonly<Record<string, string>>): string[] {
    const values = [...this.#values].filter((v) => v.length >= 6);
    const found: string[] = [];
    if (values.some((v) => body.includes(v))) found.push("the body");
    for (const [name, text] of Object.entries(headers))
      if (values.some((v) => text.includes(v))) found.push(`the ${name} header`);
    return found;
  }
}
