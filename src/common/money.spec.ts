import { dollarsToMicroCents, utcMonth } from './money';

describe('money', () => {
  it.each([
    [0, 0n],
    [0.01, 1_000_000n],
    [0.29, 29_000_000n],
    [0.57, 57_000_000n],
    [75.25, 7_525_000_000n],
    [1_000_000_000, 100_000_000_000_000_000n],
  ])('%p dollars are %p micro-cents, exactly', (dollars, micro) => {
    expect(dollarsToMicroCents(dollars)).toBe(micro);
  });

  it('gives the UTC calendar month of an instant, across a year end and in leap years', () => {
    expect(utcMonth(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toEqual({
      start: new Date('2026-12-01T00:00:00.000Z'),
      next: new Date('2027-01-01T00:00:00.000Z'),
    });
    expect(utcMonth(Date.UTC(2028, 1, 29, 12)).next).toEqual(new Date('2028-03-01T00:00:00.000Z'));
    expect(utcMonth(Date.UTC(2027, 0, 1)).start).toEqual(new Date('2027-01-01T00:00:00.000Z'));
  });
});
