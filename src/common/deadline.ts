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
