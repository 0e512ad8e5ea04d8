/** `/inference/custom/{connection}/v1/…`: the path an SDK builds on a connection's base URL given with `/v1`. */
const CONNECTION_V1 = /^(\/inference\/custom\/[^/?]+)\/v1(?=[/?]|$)/;

/**
 * A connection's routes under the SDKs' own paths (`custom/{connection}/v1/messages`, `…/v1/models`, …) are its
 * routes without `/v1`: the lane matches them so (MODEL_CALL, inference-lane.ts) and Fastify routes them so
 * (`rewriteUrl`, app.setup.ts), so the request log names either by one route pattern, a call without a key gets
 * the same 401, and the model list the same answer.
 */
export function withoutConnectionV1(url: string): string {
  return url.startsWith('/inference/custom/') ? url.replace(CONNECTION_V1, '$1') : url;
}
