/** OpenAPI schemas of the success responses of the session-history operations. */

const message = {
  type: 'object',
  description:
    'Session.Message.Info: user, assistant, synthetic, system, shell, switch or compaction message',
  required: ['id', 'type', 'time'],
  properties: {
    id: { type: 'string', pattern: '^msg' },
    type: {
      type: 'string',
      enum: [
        'user',
        'synthetic',
        'system',
        'skill',
        'shell',
        'agent-switched',
        'model-switched',
        'location-switched',
        'compaction',
        'assistant',
      ],
    },
    metadata: { type: 'object', additionalProperties: true },
    time: {
      type: 'object',
      required: ['created'],
      properties: { created: { type: 'number' }, completed: { type: 'number' } },
    },
  },
  additionalProperties: true,
};

const durableEvent = {
  type: 'object',
  description: 'A durable `session.next.*` event derived from the transcript',
  required: ['id', 'type', 'durable', 'data'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string', example: 'session.next.step.ended' },
    durable: {
      type: 'object',
      required: ['aggregateID', 'seq', 'version'],
      properties: { aggregateID: { type: 'string' }, seq: { type: 'integer' }, version: { type: 'integer' } },
    },
    data: {
      type: 'object',
      required: ['timestamp', 'sessionID'],
      properties: { timestamp: { type: 'number' }, sessionID: { type: 'string' } },
      additionalProperties: true,
    },
  },
};

export const MESSAGE_RESPONSE = { type: 'object', required: ['data'], properties: { data: message } };

export const CONTEXT_RESPONSE = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', items: message } },
};

export const HISTORY_RESPONSE = {
  type: 'object',
  required: ['data', 'hasMore'],
  properties: { data: { type: 'array', items: durableEvent }, hasMore: { type: 'boolean' } },
};

export const QUESTIONS_RESPONSE = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'sessionID', 'questions'],
        properties: {
          id: { type: 'string' },
          sessionID: { type: 'string' },
          questions: { type: 'array', items: { type: 'object', additionalProperties: true } },
        },
      },
    },
  },
};

export const SESSION_EVENTS_RESPONSE = {
  description:
    'SSE: `id:`, `event:` and `data:` lines; the durable history, then the live events of the session',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};
