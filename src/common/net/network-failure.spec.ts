import { networkFailure } from './network-failure';

describe('network failures in words', () => {
  it('names the cause by its code, however deep it is wrapped', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(networkFailure(new Error('fetch failed', { cause: refused }))).toBe(
      'nothing answers at that address and port (connection refused)',
    );
    expect(networkFailure(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }))).toBe(
      'the server did not start answering in time',
    );
  });

  it("keeps an error's own words when no code is known, and survives a cycle of causes", () => {
    const looped: Error & { cause?: unknown } = new Error('odd failure');
    looped.cause = looped;
    expect(networkFailure(looped)).toBe('odd failure');
    expect(networkFailure('plain')).toBe('plain');
  });
});
