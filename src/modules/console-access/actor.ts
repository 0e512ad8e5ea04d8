import { ConsolePrincipal } from './console-principal';

/** Who changed something and from where: what the audit log records with every change. */
export interface Actor {
  type: 'user' | 'service_account' | 'system';
  id: string | null;
  sourceAddress: string | null;
}

export function actorOf(principal: ConsolePrincipal): Actor {
  return principal.serviceAccountId
    ? { type: 'service_account', id: principal.serviceAccountId, sourceAddress: principal.ip }
    : { type: 'user', id: principal.userId, sourceAddress: principal.ip };
}
