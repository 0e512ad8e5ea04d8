/**
 * A response body that is already JSON text, such as sessions the database keeps rendered. The reply
 * serializer sends `text` as it is rather than parsing and serializing it again. `T` is the shape of the
 * text, for the reader of a controller.
 */
export class RenderedJson<T> {
  declare readonly shape?: T;

  constructor(readonly text: string) {}
}

/** Fastify's reply serializer: rendered bodies as they are, every other body through `JSON.stringify`. */
export function serializeReply(payload: unknown): string {
  return payload instanceof RenderedJson ? payload.text : JSON.stringify(payload);
}
