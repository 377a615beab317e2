import { ApiFailure, basicCredentials, credentialsFor } from "@payspec/server-kit";

/**
 * A mock cannot know real keys, so it checks the shape of the credentials each operation declares:
 * Basic `key:secret` on the gateway's login, a non-empty Bearer everywhere else. Missing or
 * malformed credentials get the API's own 401.
 */
export function assertCredentials(path: string, authorization: string | undefined): void {
  if (path === "/auth/login") {
    if (!basicCredentials(authorization)) {
      throw new ApiFailure("unauthorized", "Send 'Authorization: Basic base64(<API_KEY>:<API_SECRET>)'.");
    }
    return;
  }
  const token = credentialsFor("Bearer", authorization);
  if (!token) {
    const gateway = path.startsWith("/api/");
    throw new ApiFailure(
      "unauthorized",
      gateway
        ? "Access token is missing; log in at /auth/login and send 'Authorization: Bearer <ACCESS_TOKEN>'."
        : "Send the API key as 'Authorization: Bearer <API_KEY>'.",
    );
  }
}
