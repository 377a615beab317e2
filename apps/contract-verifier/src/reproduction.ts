import type { SentRequest } from "./exchange.js";
import { variableFor } from "./options.js";

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
/** Double quotes, so that `$VARIABLE`s expand; every other character the shell reads is escaped. */
const expanding = (text: string) => `"${text.replace(/[\\"`]/g, "\\$&").replace(/\$(?![A-Z_][A-Z0-9_]*)/g, "\\$")}"`;

/** A masked value (`***`, `Bearer ***`) becomes `$VARIABLE` (`Bearer $AUTHORIZATION`). */
function unmask(value: string, variable: string): string | undefined {
  const match = /^(?:(\S+) )?\*\*\*$/.exec(value);
  if (!match) return undefined;
  return match[1] ? `${match[1]} $${variable}` : `$${variable}`;
}

/**
 * Where the run's own credentials go in a request, each written with the variable the rerun line
 * reads (`--header "authorization: $AUTHORIZATION"` → `-H "authorization: $AUTHORIZATION"`;
 * `--auth "bearer=$BEARER"` → `-H "authorization: Bearer $BEARER"`): one variable, one meaning, so
 * that exporting what one line needs makes the other right too.
 */
export interface CredentialPlaceholders {
  /** By lower-case header name: the header's value as written, `$VARIABLE`s in it. */
  readonly headers: Readonly<Record<string, string>>;
  /** By query parameter name. */
  readonly query: Readonly<Record<string, string>>;
  /** A Basic scheme's `user:password`, for `curl -u`. */
  readonly user?: string;
}

/**
 * A one-line `curl` that sends the request again, for a person to paste: every credential as an
 * environment variable (never its value), the run's own as `placeholders` says, card numbers
 * masked and CVCs blanked as in every report. The payspec APIs keep their documented variables.
 */
export function curlFor(
  request: SentRequest,
  baseUrl: string,
  api: string,
  placeholders: CredentialPlaceholders = { headers: {}, query: {} },
): string {
  const path = request.path.replace(/([?&])([^=&]+)=\*\*\*/g, (_, sep: string, name: string) => {
    const decoded = decodeURIComponent(name);
    return `${sep}${name}=${placeholders.query[decoded] ?? `$${variableFor(decoded)}`}`;
  });
  const url = `${baseUrl}${path}`;
  const parts = ["curl", "-sS", "-X", request.method, path === request.path ? quote(url) : expanding(url)];
  for (const [name, value] of Object.entries(request.headers)) {
    const scheme = name.toLowerCase() === "authorization" ? value.split(" ")[0]?.toLowerCase() : undefined;
    if (api === "payments" && scheme === "bearer") parts.push("-H", '"Authorization: Bearer $PAYSPEC_VERIFY_API_KEY"');
    else if (api === "gateway" && scheme === "basic")
      parts.push("-u", '"$PAYSPEC_VERIFY_GATEWAY_KEY:$PAYSPEC_VERIFY_GATEWAY_SECRET"');
    else if (api === "gateway" && scheme === "bearer") parts.push("-H", '"Authorization: Bearer $GATEWAY_TOKEN"');
    else if (placeholders.headers[name.toLowerCase()] !== undefined)
      parts.push("-H", expanding(`${name}: ${placeholders.headers[name.toLowerCase()]}`));
    else if (scheme === "basic" && placeholders.user) parts.push("-u", expanding(placeholders.user));
    else {
      const variable = unmask(value, variableFor(name));
      parts.push("-H", variable ? expanding(`${name}: ${variable}`) : quote(`${name}: ${value}`));
    }
  }
  if (request.body !== undefined) parts.push("--data", quote(request.body));
  return parts.join(" ");
}
