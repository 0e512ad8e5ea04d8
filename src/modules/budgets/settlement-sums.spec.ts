import { Settlement } from './usage-journal';
import { SettlementSums, usageRows } from './settlement-sums';

const AT = Date.UTC(2026, 10, 26, 12, 0, 0);

function settlement(
  at: number,
  changes: Partial<Settlement['usage']> = {},
  holds: Partial<Pick<Settlement, 'held' | 'workspaceHeld' | 'keyHeld'>> = {},
): Settlement {
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
    ...holds,
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

describe('SettlementSums.statement', () => {
  const holds = { held: 100n, workspaceHeld: 40n, keyHeld: 70n };

  it("sums each member's, key's and workspace's spend and releases, in one order, with the last sequence number", () => {
    const sums = new SettlementSums();
    sums.add(settlement(AT, { memberId: 'sa_b', keyId: null }, holds), 7);
    sums.add(settlement(AT + 5, {}, holds), 8);
    sums.add(settlement(AT + 9, { costMicroCents: 1n }, holds), 9);
    const { members, workspaces, writtenSeq, nodeId } = sums.statement('node-1');
    const month = '2026-11-01';
    expect({ writtenSeq, nodeId, count: sums.count }).toEqual({ writtenSeq: 9, nodeId: 'node-1', count: 3 });
    expect(members).toEqual([
      {
        workspaceId: 'org_a',
        memberId: 'key_a',
        month,
        spent: '124',
        released: '140',
        workspaceReleased: '0',
      },
      {
        workspaceId: 'org_a',
        memberId: 'sa_a',
        month,
        spent: '124',
        released: '200',
        workspaceReleased: '80',
      },
      {
        workspaceId: 'org_a',
        memberId: 'sa_b',
        month,
        spent: '123',
        released: '100',
        workspaceReleased: '40',
      },
    ]);
    expect(workspaces).toEqual([{ workspaceId: 'org_a', month, spent: '247', released: '120' }]);
  });

  it("counts only the newest month's spend, and releases every hold, across a month's end", () => {
    const sums = new SettlementSums();
    const lastSecondOfOctober = Date.UTC(2026, 10, 1) - 1;
    sums.add(settlement(lastSecondOfOctober, { costMicroCents: 1000n }, holds), 1);
    sums.add(settlement(AT, { costMicroCents: 5n }, holds), 2);
    sums.add(settlement(lastSecondOfOctober, { costMicroCents: 300n }, holds), 3); // a clock a little behind
    const { members, workspaces } = sums.statement('node-1');
    const member = members.find((entry) => entry.memberId === 'sa_a');
    expect(member).toMatchObject({ month: '2026-11-01', spent: '5', released: '300' });
    expect(workspaces).toEqual([{ workspaceId: 'org_a', month: '2026-11-01', spent: '5', released: '120' }]);
    expect(JSON.parse(sums.statement('node-1').rows).map((row: { c: string }) => row.c)).toEqual([
      '1300',
      '5',
    ]);
  });
});
