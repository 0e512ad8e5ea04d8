/**
 * `read()` again and again until `done(value)` holds or `timeoutMs` has passed, and the last value: the test
 * asserts on it, so a condition never met fails on what was seen, and one met at once costs no wait. For what
 * happens on its own time (a batch written, a count written after the answer left, a line another process logs,
 * a notice from another node), instead of a fixed sleep before the assertion.
 */
export async function eventually<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
