/** The OpenAPI schema of the `location` every location-scoped answer carries (`publicInfo`). */
export const LOCATION_SCHEMA = {
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
