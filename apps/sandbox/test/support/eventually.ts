/**
 * What a sandbox does in the background, waited for: asks `probe` every `everyMs` until it answers
 * something other than undefined, and returns that. Fails, naming `what`, after `withinMs`: a wait in
 * a test is always bounded.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  { withinMs = 20_000, everyMs = 50 }: { withinMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${withinMs / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
