/** `npm run test:fleet`: test/tiers.js's FLEET files again, each test app three nodes behind nginx. */
const config = require('./jest.config');
const { FLEET, e2e } = require('./tiers');

process.env.OUTPOST_TEST_FLEET = '3';
const [, integration] = config.projects;

module.exports = { ...config, projects: [{ ...integration, displayName: 'fleet', testMatch: e2e(FLEET) }] };
