/**
 * `work`, or the error `expired()` makes once `ms` have passed without it settling. Only the wait ends: `work`
 * goes on (a shared build another request may still use).
 */
export function withDeadline<T>(work: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Resolves once `work` settles (either way) or `ms` have passed, whichever comes first; never rejects. */
export async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([work.then(noop, noop), late]);
  clearTimeout(timer);
}

const noop = () => undefined;
