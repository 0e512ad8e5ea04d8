/** `npm run test:embedded`: test/tiers.js's EMBEDDED files again, on the embedded PostgreSQL of `npm start`. */
const config = require('./jest.config');
const { EMBEDDED, e2e } = require('./tiers');

process.env.OUTPOST_TEST_EMBEDDED = '1';
const [, integration] = config.projects;

module.exports = {
  ...config,
  projects: [{ ...integration, displayName: 'embedded', testMatch: e2e(EMBEDDED) }],
};
