import { Settlement } from './usage-journal';
import { usageRows } from './usage-ledger';

const AT = Date.UTC(2026, 10, 26, 12, 0, 0);

function settlement(at: number, changes: Partial<Settlement['usage']> = {}): Settlement {
  return {
    usage: {
      workspaceId: 'org_a',
      memberId: 'sa_a',
      keyId: 'key_a',
      model: 'up/small',
      inputTokens: 10,
      outputTokens: 5,
      cacheReadTokens: 2,
      costMicroCents: 123n,
      ...changes,
    },
    held: 0n,
    workspaceHeld: 0n,
    keyHeld: 0n,
    at,
    requests: 1,
  };
}

describe('usageRows', () => {
  it('sums one row per member, key and model for each second, with the latest settlement time', () => {
    const rows = usageRows([
      settlement(AT + 10),
      settlement(AT + 990),
      settlement(AT + 400),
      settlement(AT + 1000),
      settlement(AT + 20, { model: 'up/large', costMicroCents: 7n }),
      settlement(AT + 30, { keyId: null }),
      settlement(AT + 40, { memberId: 'usr_b' }),
    ]);
    const one = {
      w: 'org_a',
      m: 'sa_a',
      k: 'key_a',
      model: 'up/small',
      n: 1,
      i: 10,
      o: 5,
      cr: 2,
      cw: 0,
      c: '123',
    };
    const at = (ms: number) => new Date(AT + ms).toISOString();
    expect(rows).toEqual([
      { ...one, n: 3, i: 30, o: 15, cr: 6, c: '369', at: at(990) },
      { ...one, at: at(1000) },
      { ...one, model: 'up/large', c: '7', at: at(20) },
      { ...one, k: null, at: at(30) },
      { ...one, m: 'usr_b', at: at(40) },
    ]);
  });

  it('starts another row where a token count would pass what an integer column holds', () => {
    const big = { inputTokens: 1_500_000_000, costMicroCents: 10n ** 15n };
    const rows = usageRows([settlement(AT, big), settlement(AT + 1, big), settlement(AT + 2)]);
    expect(rows.map((row) => [row.n, row.i, row.c])).toEqual([
      [1, 1_500_000_000, '1000000000000000'],
      [2, 1_500_000_010, '1000000000000123'],
    ]);
  });

  it('keeps every request and micro-cent of a large batch', () => {
    const batch = Array.from({ length: 500 }, (_, i) =>
      settlement(AT + i * 7, { costMicroCents: BigInt(i), model: i % 3 ? 'up/small' : 'up/large' }),
    );
    const rows = usageRows(batch);
    expect(rows.length).toBeLessThan(20);
    expect(rows.reduce((sum, row) => sum + row.n, 0)).toBe(500);
    expect(rows.reduce((sum, row) => sum + BigInt(row.c), 0n)).toBe(BigInt((499 * 500) / 2));
  });
});
