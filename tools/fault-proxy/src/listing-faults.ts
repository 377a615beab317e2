import type { FaultRule } from "./fault-proxy.js";

/**
 * A listing whose cursor repeats: every page asked for by cursor is the page before it again (same
 * records, same next_cursor), so a client that follows cursors never reaches the end. Fresh state per
 * call: use one rule per run.
 */
export function repeatingCursor(path: string): FaultRule {
  let previous: unknown;
  return {
    when: (request) => request.method === "GET" && request.url.split("?")[0] === path,
    fault: {
      kind: "rewrite",
      rewrite: (page, request) => {
        const answer = request.url.includes("cursor=") && previous ? previous : page;
        previous = page;
        return answer;
      },
    },
  };
}
