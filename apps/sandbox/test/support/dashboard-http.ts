/**
 * The dashboard over plain HTTP, as a browser would drive it (cookies kept, forms posted urlencoded
 * with their token and this origin), plus the knobs an attacker turns: another origin, another
 * content type, a replayed cookie or token.
 */
export class DashboardHttp {
  readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  get url(): string {
    return `${this.base}/_sandbox/dashboard`;
  }

  #cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  #keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = (pair ?? "").split("=");
      if (!name) continue;
      const text = value.join("=");
      if (text === "" || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), text);
    }
  }

  async get(path: string): Promise<{ status: number; text: string; headers: Headers }> {
    const response = await fetch(`${this.url}${path}`, {
      headers: { cookie: this.#cookieHeader() },
      redirect: "manual",
    });
    this.#keep(response);
    return { status: response.status, text: await response.text(), headers: response.headers };
  }

  /** The CSRF token of the first form on a page. */
  async token(path = ""): Promise<string> {
    const { text } = await this.get(path);
    const match = /name="_csrf" value="([^"]+)"/.exec(text);
    if (!match?.[1]) throw new Error(`No form token on ${path || "/"}`);
    return match[1];
  }

  async post(
    path: string,
    fields: Record<string, string>,
    options: { origin?: string | null; contentType?: string; body?: string; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; text: string; location: string | null }> {
    const headers: Record<string, string> = {
      cookie: this.#cookieHeader(),
      "content-type": options.contentType ?? "application/x-www-form-urlencoded",
      ...options.headers,
    };
    const origin = options.origin === undefined ? this.base : options.origin;
    if (origin !== null) headers.origin = origin;
    const response = await fetch(`${this.url}${path}`, {
      method: "POST",
      headers,
      body: options.body ?? new URLSearchParams(fields).toString(),
      redirect: "manual",
    });
    this.#keep(response);
    return { status: response.status, text: await response.text(), location: response.headers.get("location") };
  }

  /** A form with a file box, as a browser sends `enctype="multipart/form-data"` (no script needed). */
  async postFile(
    path: string,
    fields: Record<string, string>,
    file: { box: string; name: string; bytes: Buffer; type?: string },
  ): Promise<{ status: number; text: string; location: string | null }> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append(file.box, new Blob([file.bytes], { type: file.type ?? "application/octet-stream" }), file.name);
    const response = await fetch(`${this.url}${path}`, {
      method: "POST",
      headers: { cookie: this.#cookieHeader(), origin: this.base },
      body: form,
      redirect: "manual",
    });
    this.#keep(response);
    return { status: response.status, text: await response.text(), location: response.headers.get("location") };
  }

  async signIn(apiKey: string): Promise<void> {
    const answer = await this.post("/sign-in", { _csrf: await this.token(), apiKey });
    if (answer.status !== 303) throw new Error(`Sign-in failed: ${answer.status}`);
  }

  async signInToGateway(gatewayKey: string, gatewaySecret: string): Promise<{ status: number }> {
    return this.post("/sign-in", { _csrf: await this.token(), gatewayKey, gatewaySecret });
  }

  /** Whether the overview shows a workspace (not the sign-in page). */
  async signedIn(): Promise<boolean> {
    const { status, text } = await this.get("");
    return status === 200 && text.includes("Accounts and payments") && !text.includes('name="apiKey"');
  }
}
