/** Who a dashboard session is for: one payments workspace (by its tag) or the card gateway. */
export type SessionSubject =
  | {
      readonly kind: "workspace";
      readonly tag: string;
      /** Who signed in: a keyed fingerprint and the masked key (see the payments' `Actor`). */
      readonly signer?: string;
    }
  | { readonly kind: "gateway" };

/** What the dashboard's pages know of the signed-in session: whom it is for and its CSRF token. */
export interface SignedInSession {
  readonly subject: SessionSubject;
  readonly csrfToken: string;
}

/** Who is signed in to a workspace's session, as histories record it; undefined for the gateway or nobody. */
export function signerOf(session: SignedInSession | undefined): string | undefined {
  return session?.subject.kind === "workspace" ? session.subject.signer : undefined;
}
