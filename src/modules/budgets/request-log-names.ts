import type { RequestLogRowDto } from './dto/request-log.dto';

/** A name row of RequestLogRepository.names: a member, a key, or a connection with its models. */
export interface NameRow {
  kind: 'member' | 'key' | 'connection';
  id: string;
  name: string;
  models: unknown;
}

/** The ids a page names: its members, keys and the connections of its `conn_…/<model>` models. */
export function idsOf(rows: RequestLogRowDto[]) {
  const connection = (model: string | null) => /^(conn_[0-9A-Za-z]+)\//.exec(model ?? '')?.[1];
  return {
    members: [...new Set(rows.map((row) => row.member))],
    keys: [...new Set(rows.flatMap((row) => (row.key ? [row.key] : [])))],
    connections: [
      ...new Set(rows.flatMap((row) => [connection(row.model), connection(row.served_by)]).filter(Boolean)),
    ] as string[],
  };
}

/**
 * The rows with the names a person reads beside their ids: `member_name`, `key_name`, and `model_name` for a
 * connection's model (`conn_…/llama` → `Together / Llama 3.3 70B`; other models are named as they are called).
 * An id no longer known keeps a null name.
 */
export function withNames(rows: RequestLogRowDto[], names: NameRow[]): RequestLogRowDto[] {
  const members = new Map<string, string>();
  const keys = new Map<string, string>();
  const connections = new Map<string, { name: string; models: Record<string, { name?: string }> }>();
  for (const row of names) {
    if (row.kind === 'member') members.set(row.id, row.name);
    else if (row.kind === 'key') keys.set(row.id, row.name);
    else
      connections.set(row.id, {
        name: row.name,
        models: (row.models ?? {}) as Record<string, { name?: string }>,
      });
  }
  const modelName = (model: string) => {
    const [head, ...rest] = model.split('/');
    const connection = connections.get(head);
    if (!connection) return model;
    const id = rest.join('/');
    return `${connection.name} / ${connection.models[id]?.name ?? id}`;
  };
  return rows.map((row) => ({
    ...row,
    member_name: members.get(row.member) ?? null,
    key_name: row.key ? (keys.get(row.key) ?? null) : null,
    model_name: modelName(row.model),
    served_by_name: row.served_by === null ? null : modelName(row.served_by),
  }));
}
