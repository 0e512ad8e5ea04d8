import type { RequestLogRowDto } from './dto/request-log.dto';
import { idsOf, withNames } from './request-log-names';

const row = (change: Partial<RequestLogRowDto>) =>
  ({ member: 'sa_1', key: 'key_1', model: 'gpt-4o', served_by: null, ...change }) as RequestLogRowDto;

describe('the request log named', () => {
  it('asks for the members, keys and connections a page names, each once', () => {
    const rows = [
      row({ model: 'conn_A/llama', served_by: 'conn_B/x' }),
      row({ member: 'usr_2', key: null, model: 'conn_A/llama' }),
    ];
    expect(idsOf(rows)).toEqual({
      members: ['sa_1', 'usr_2'],
      keys: ['key_1'],
      connections: ['conn_A', 'conn_B'],
    });
  });

  it("names a connection's model by the connection and the model's name; others as called; unknown ids null", () => {
    const names = [
      { kind: 'member' as const, id: 'sa_1', name: 'ci', models: null },
      { kind: 'key' as const, id: 'key_1', name: 'ci / deploy', models: null },
      {
        kind: 'connection' as const,
        id: 'conn_A',
        name: 'Together',
        models: { llama: { name: 'Llama 3.3' } },
      },
    ];
    const [named, other] = withNames(
      [row({ model: 'conn_A/llama' }), row({ member: 'usr_9', key: 'key_9', served_by: 'up/gpt-4o' })],
      names,
    );
    expect(named).toMatchObject({
      member_name: 'ci',
      key_name: 'ci / deploy',
      model_name: 'Together / Llama 3.3',
    });
    expect(other).toMatchObject({
      member_name: null,
      key_name: null,
      model_name: 'gpt-4o',
      served_by_name: 'up/gpt-4o',
    });
  });
});
