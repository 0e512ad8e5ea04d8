import { ServiceUnavailableError } from '@/common/errors';

/** plugin.update: 503 naming every target that failed (the others were switched over). */
export class PluginUpdateFailedError extends ServiceUnavailableError {
  constructor(failed: Array<{ target: string; error: string }>) {
    super(`Plugin update failed: ${failed.map((f) => `${f.target} (${f.error})`).join('; ')}`, 'plugins');
    Object.assign(this.fields, { targets: failed.map((f) => f.target) });
  }

  override get tag(): string {
    return 'ServiceUnavailableError';
  }
}
