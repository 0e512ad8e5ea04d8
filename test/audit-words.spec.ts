import { describe as sentence } from '../web/console/audit-words';

type Entry = Parameters<typeof sentence>[0];

const entry = (details: Record<string, unknown>): Entry =>
  ({
    id: 'aud_1',
    action: 'key.updated',
    target: { type: 'key', id: 'key_01ABC' },
    details,
  }) as unknown as Entry;
const nobody = () => undefined;
const controls = {
  rate_limit: { requests_per_minute: 60, tokens_per_minute: null },
  allowed_models: ['small', 'big'],
  monthly_budget_dollars: 10,
};

describe("the console's audit log says what changed on a key", () => {
  it('each changed control from its old value to its new one, in words', () => {
    const text = sentence(
      entry({
        name: 'ci',
        changed: ['rate_limit.requests_per_minute', 'allowed_models', 'monthly_budget_dollars'],
        previous: {
          'rate_limit.requests_per_minute': null,
          allowed_models: null,
          monthly_budget_dollars: 5,
        },
        ...controls,
      }),
      nobody,
    );
    expect(text).toBe(
      'Changed the key “ci”: requests per minute from no limit to 60; allowed models from every model to small, big; ' +
        'monthly budget from $5.00 a month to $10.00 a month',
    );
  });

  it('a rename says both names, and a control removed says so', () => {
    const text = sentence(
      entry({
        name: 'deploys',
        changed: ['name', 'monthly_budget_dollars'],
        previous: { name: 'ci', monthly_budget_dollars: 5 },
        ...controls,
        monthly_budget_dollars: null,
      }),
      nobody,
    );
    expect(text).toBe(
      'Renamed the key “ci” to “deploys”; changed monthly budget from $5.00 a month to no limit',
    );
  });

  it('an entry written before previous values were kept names the new values', () => {
    const text = sentence(
      entry({ name: 'ci', changed: ['rate_limit.requests_per_minute'], ...controls }),
      nobody,
    );
    expect(text).toBe('Changed the key “ci”: requests per minute to 60');
  });
});
