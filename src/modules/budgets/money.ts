/** 1 USD in micro-cents. */
export const MICRO_CENTS_PER_DOLLAR = 100_000_000n;

/** Dollars with at most two decimals (validated) → micro-cents, exactly: 75.25 → 7525000000n. */
export function dollarsToMicroCents(dollars: number): bigint {
  return BigInt(Math.round(dollars * 100)) * (MICRO_CENTS_PER_DOLLAR / 100n);
}

/** The first instant of the UTC calendar month of `epochMs`, and of the next one. */
export function utcMonth(epochMs: number): { start: Date; next: Date } {
  const date = new Date(epochMs);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { start: new Date(Date.UTC(year, month, 1)), next: new Date(Date.UTC(year, month + 1, 1)) };
}
