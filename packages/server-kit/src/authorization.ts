/**
 * The credentials of an `Authorization` header for one scheme, or undefined. Scheme names are
 * case-insensitive (RFC 7235 section 2.1): `Bearer`, `bearer` and `BEARER` are the same.
 */
export function credentialsFor(scheme: "Bearer" | "Basic", header: string | undefined): string | undefined {
  if (!header) return undefined;
  const space = header.indexOf(" ");
  if (space < 0 || header.slice(0, space).toLowerCase() !== scheme.toLowerCase()) return undefined;
  const credentials = header.slice(space + 1).trim();
  return credentials || undefined;
}

/** The `key:secret` pair of a Basic header, or undefined. */
export function basicCredentials(header: string | undefined): { key: string; secret: string } | undefined {
  const encoded = credentialsFor("Basic", header);
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
