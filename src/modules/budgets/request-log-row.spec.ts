import { decodeRow, encodeRow, RequestLogRow } from './request-log-row';

const ROW: RequestLogRow = {
  id: 'rql_01KB0000000000000000000001',
  workspaceId: 'org_a',
  memberId: 'sa_a',
  keyId: 'key_a',
  requestId: 'req-1',
  route: '/inference/openai/v1/chat/completions',
  model: 'up/small',
  servedBy: 'up/small',
  status: 200,
  outcome: 'answered',
  inputTokens: 20,
  outputTokens: 5,
  costMicroCents: '30',
  durationMs: 3,
  ttfbMs: 2,
  createdAt: '2026-11-27T12:00:00.000Z',
};

describe('request log lines', () => {
  it('reads back every field of the line it wrote, as a tab-separated line', () => {
    const line = encodeRow(ROW);
    expect(line.split('\t')).toHaveLength(16);
    expect(line).not.toContain('\n');
    expect(decodeRow(line)).toEqual(ROW);
  });

  it('escapes what COPY reads specially in a caller-given model, and keeps nulls apart from the text "\\N"', () => {
    const row = { ...ROW, model: 'a\tb\nc\rd\\e\\N', keyId: null, servedBy: null, ttfbMs: null };
    const line = encodeRow(row);
    expect(line.split('\t')).toHaveLength(16);
    expect(line).not.toMatch(/[\n\r]/);
    expect(line).toContain('a\\tb\\nc\\rd\\\\e\\\\N');
    expect(decodeRow(line)).toEqual(row);
  });

  it('writes a NUL, which no PostgreSQL text holds, as U+FFFD', () => {
    expect(decodeRow(encodeRow({ ...ROW, model: 'x\0y' }))?.model).toBe('x\uFFFDy');
  });

  it("reads an earlier version's JSON line, and nothing from a line cut short by a kill", () => {
    expect(decodeRow(JSON.stringify(ROW))).toEqual(ROW);
    expect(decodeRow(JSON.stringify(ROW).slice(0, 40))).toBeUndefined();
    const line = encodeRow(ROW);
    expect(decodeRow(line.slice(0, line.length - 5))).toBeUndefined();
    expect(decodeRow(line.slice(0, 60))).toBeUndefined();
  });
});
