/** Money and time as the console's pages write them (no imports: the unit tier reads it too). */

export const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * Micro-cents (decimal string) as dollars: `$1,250.00`. Spend below a cent says so, instead of a `$0.00` that
 * contradicts the bar beside it.
 */
export function dollars(microCents: string | null | undefined): string {
  if (microCents === null || microCents === undefined) return 'no limit';
  const value = Number(BigInt(microCents)) / 100_000_000;
  if (value > 0 && value < 0.01) return 'less than $0.01';
  return usd.format(value);
}

export const microToNumber = (microCents: string) => Number(BigInt(microCents)) / 100_000_000;

/** An ISO time as `YYYY-MM-DD HH:MM UTC`, the same for every reader. */
export function when(iso: string | null | undefined, never = 'never'): string {
  if (!iso) return never;
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export const day = (iso: string | null | undefined, never = 'never') => (iso ? iso.slice(0, 10) : never);
