import { isDatabaseUnavailable, markDatabaseUnavailable } from './database-unavailable';

describe('a failure meaning no working database connection', () => {
  it('is one the pool marked, however it is wrapped (TypeORM driverError, cause)', () => {
    const refused = markDatabaseUnavailable(
      Object.assign(new Error('database "x" is not currently accepting connections'), { code: '55000' }),
    );
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable({ message: 'query failed', driverError: refused })).toBe(true);
    expect(isDatabaseUnavailable(new Error('timed out', { cause: refused }))).toBe(true);
  });

  it('is PostgreSQL ending the session (severity FATAL or PANIC), whatever the code', () => {
    expect(isDatabaseUnavailable({ severity: 'FATAL', code: 'XX000' })).toBe(true);
    expect(isDatabaseUnavailable({ driverError: { severity: 'PANIC', code: 'XX000' } })).toBe(true);
  });

  it("is not a statement's own failure (a unique violation, a cancelled statement)", () => {
    expect(isDatabaseUnavailable({ severity: 'ERROR', code: '23505' })).toBe(false);
    expect(isDatabaseUnavailable({ severity: 'ERROR', code: '57014' })).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(markDatabaseUnavailable(undefined)).toBeUndefined();
  });
});
