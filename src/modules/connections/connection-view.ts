import { ConnectionEntity } from './connection.entity';
import { ConnectionDto } from './dto/connection.dto';

/** The connection as answers show it: the credential only by its last four characters. */
export function connectionView(connection: ConnectionEntity, origin: string): ConnectionDto {
  return {
    id: connection.id,
    name: connection.name,
    base_url: connection.baseUrl,
    schema: connection.schema,
    auth: {
      mode: connection.authMode,
      ...(connection.authHeader ? { header: connection.authHeader } : {}),
      credential_last4: connection.credentialLast4,
    },
    models: connection.models,
    inference_url: `${origin}/inference/custom/${connection.id}`,
    created_at: connection.createdAt.toISOString(),
    updated_at: connection.updatedAt.toISOString(),
  };
}
