/** The OpenAPI schema of the `location` every location-scoped answer carries (`publicInfo`). */
const LOCATION_SCHEMA = {
  type: 'object',
  required: ['directory', 'project'],
  properties: {
    directory: { type: 'string' },
    project: {
      type: 'object',
      required: ['id', 'directory', 'canonical'],
      properties: { id: { type: 'string' }, directory: { type: 'string' }, canonical: { type: 'string' } },
    },
  },
};

/** The OpenAPI schema of a location-scoped list: `{ location, data: [item…] }`. */
export function locationListSchema(item: object, description?: string) {
  return {
    type: 'object',
    required: ['location', 'data'],
    properties: {
      location: LOCATION_SCHEMA,
      data: { type: 'array', ...(description ? { description } : {}), items: item },
    },
  };
}
