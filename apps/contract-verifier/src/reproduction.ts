import type { SentRequest } from "./exchange.js";
import type { ApiName } from "./options.js";

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * A one-line `curl` that sends the request again, for a person to paste: credentials as environment
 * variables (never their values), card numbers masked and CVCs blanked as in every report.
 */
export function curlFor(request: SentRequest, baseUrl: string, api: ApiName): string {
  const parts = ["curl", "-sS", "-X", request.method, quote(`${baseUrl}${request.path}`)];
  const authorization = Object.entries(request.headers).find(([name]) => name.toLowerCase() === "authorization")?.[1];
  const scheme = authorization?.split(" ")[0]?.toLowerCase();
  if (scheme === "basic") parts.push("-u", '"$PAYSPEC_VERIFY_GATEWAY_KEY:$PAYSPEC_VERIFY_GATEWAY_SECRET"');
  else if (scheme === "bearer") {
    parts.push(
      "-H",
      api === "payments" ? '"Authorization: Bearer $PAYSPEC_VERIFY_API_KEY"' : '"Authorization: Bearer $GATEWAY_TOKEN"',
    );
  }
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() !== "authorization") parts.push("-H", quote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push("--data", quote(request.body));
  return parts.join(" ");
}
