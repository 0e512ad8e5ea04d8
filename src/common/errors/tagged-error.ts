/**
 * The one family of errors services throw. The global filter renders each as
 * `{ _tag, message, ...fields }` with its status; nothing else reaches a client.
 */
export abstract class TaggedError extends Error {
  abstract readonly status: number;
  /** Extra members of the body, e.g. `{ sessionID }`. */
  readonly fields: Record<string, unknown>;
  /** Extra response headers, e.g. `WWW-Authenticate` or `Retry-After`. */
  headers: Record<string, string> = {};

  constructor(message: string, fields: Record<string, unknown> = {}) {
    super(message);
    this.fields = fields;
  }

  /** The `_tag`: the class name unless a subclass says otherwise (console tags such as `Forbidden`). */
  get tag(): string {
    return this.constructor.name;
  }

  toBody(): Record<string, unknown> {
    return { _tag: this.tag, message: this.message, ...this.fields };
  }
}
