import { SequentialUlids } from './ids';

describe('SequentialUlids', () => {
  it('makes ULID-shaped ids that sort in the order they were made, within a millisecond and across them', () => {
    const ids = new SequentialUlids('rql');
    const made = [ids.next(1_795_000_000_000), ids.next(1_795_000_000_000), ids.next(1_795_000_000_001)];
    for (const id of made) expect(id).toMatch(/^rql_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(3);
  });

  it('gives two processes (two generators) different ids in the same millisecond', () => {
    expect(new SequentialUlids('rql').next(1)).not.toBe(new SequentialUlids('rql').next(1));
  });
});
