/** An HTTP Basic `Authorization` value (RFC 7617) for `user:password`: the gateway's login, a Pact Broker's user, an --auth basic scheme. */
export function basicAuthorization(userAndPassword: string): string {
  return `Basic ${Buffer.from(userAndPassword).toString("base64")}`;
}
