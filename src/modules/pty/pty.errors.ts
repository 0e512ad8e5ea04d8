import { NotFoundError } from '@/common/errors';

export class PtyNotFoundError extends NotFoundError {
  constructor(ptyID: string) {
    super(`Pseudo-terminal not found: ${ptyID} (Outpost runs none)`, { ptyID });
  }
}
