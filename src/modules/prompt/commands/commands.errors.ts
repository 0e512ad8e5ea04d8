import { NotFoundError } from '@/common/errors';

export class CommandNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`Command not found: ${name}`, { command: name });
  }
}
