import { register } from 'prom-client';
import { Tally } from './metrics';

describe('Tally', () => {
  const tally = new Tally({
    name: 'outpost_test_tally_total',
    help: 'A test counter.',
    labelNames: ['kind'] as const,
  });
  const read = async () => {
    const text = await register.getSingleMetricAsString('outpost_test_tally_total');
    return Object.fromEntries(
      [...text.matchAll(/kind="(\w+)"\} (\S+)/g)].map(([, kind, value]) => [kind, Number(value)]),
    );
  };

  it('hands its sums to prom-client when the metrics are read, each increment once', async () => {
    tally.add({ kind: 'a' });
    tally.add({ kind: 'a' }, 2.5);
    tally.add({ kind: 'b' }, 4);
    expect(await read()).toEqual({ a: 3.5, b: 4 });
    expect(await read()).toEqual({ a: 3.5, b: 4 }); // read again: nothing counted twice
    tally.add({ kind: 'b' });
    expect(await read()).toEqual({ a: 3.5, b: 5 });
  });
});
