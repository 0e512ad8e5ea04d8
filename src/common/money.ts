/** 1 USD in micro-cents. */
export const MICRO_CENTS_PER_DOLLAR = 100_000_000n;

/** Dollars (any precision, e.g. a price per million tokens) → integer micro-cents, rounded. */
export function usdToMicroCents(usd: number): bigint {
  return BigInt(Math.round(usd * Number(MICRO_CENTS_PER_DOLLAR)));
}

/** Dollars with at most two decimals (validated) → micro-cents, exactly: 75.25 → 7525000000n. */
export function dollarsToMicroCents(dollars: number): bigint {
  return BigInt(Math.round(dollars * 100)) * (MICRO_CENTS_PER_DOLLAR / 100n);
}

/** Micro-cents to a number of dollars, for the API's dollar fields (exact to the cent; prices in micro-cents may round). */
export function microCentsToDollars(value: bigint | string | number): number {
  return Number(value) / Number(MICRO_CENTS_PER_DOLLAR);
}

/** Micro-cents as an exact decimal text of dollars: 150000000n → "1.5", 18n → "0.00000018". */
export function microCentsToUsd(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / MICRO_CENTS_PER_DOLLAR;
  const fraction = (abs % MICRO_CENTS_PER_DOLLAR).toString().padStart(8, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The first instant of the UTC calendar month of `epochMs`, and of the next one. */
export function utcMonth(epochMs: number): { start: Date; next: Date } {
  const date = new Date(epochMs);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { start: new Date(Date.UTC(year, month, 1)), next: new Date(Date.UTC(year, month + 1, 1)) };
}
