/**
 * The dependency rules of docs/ARCHITECTURE.md, checked by `npm run check` (and so by CI). A rule's `pathNot` lists
 * today's known exceptions, each a debt named in docs/ARCHITECTURE.md; a new one fails the check.
 */
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The module folders are read from src/modules, so a new module is held to the rules the day it is added: a folder
 * named in neither list below is an instance module (the console and the gateway may not import it) until it is
 * listed as a console or shared one. A name below that is no folder fails the check.
 */
const MODULES = readdirSync(join(__dirname, 'src', 'modules'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** The console surface's modules and what they build on. */
const CONSOLE_MODULES = [
  'console-access',
  'identity',
  'workspaces',
  'keys',
  'audit',
  'device',
  'console-web',
  'workspace-config',
  'budgets',
  'connections',
  'mail',
  'sso',
];
/** The gateway's modules (and the console's MCP server, served beside it): they import console modules only. */
const GATEWAY_MODULES = ['inference', 'console-mcp'];
/** Modules of every surface (Swagger, health, the home page, metrics): any may import them. */
const SHARED_MODULES = ['docs', 'health', 'home', 'metrics'];
const unknown = [...CONSOLE_MODULES, ...GATEWAY_MODULES, ...SHARED_MODULES].filter(
  (name) => !MODULES.includes(name),
);
if (unknown.length) throw new Error(`.dependency-cruiser.cjs names no module folder: ${unknown.join(', ')}`);
const INSTANCE_MODULES = MODULES.filter(
  (name) => ![...CONSOLE_MODULES, ...GATEWAY_MODULES, ...SHARED_MODULES].includes(name),
);
const INSTANCE = `(${INSTANCE_MODULES.join('|')})`;
const CONSOLE = `(${CONSOLE_MODULES.join('|')})`;

module.exports = {
  forbidden: [
    {
      name: 'platform-imports-no-module',
      comment:
        'src/common, src/config and src/database are the platform: modules register with it, it imports none.',
      severity: 'error',
      from: { path: '^src/(common|config|database)/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'console-imports-no-instance-module',
      comment: 'A console-and-gateway node runs without the instance surface.',
      severity: 'error',
      from: { path: `^src/modules/${CONSOLE}/` },
      to: { path: `^src/modules/${INSTANCE}/` },
    },
    {
      name: 'gateway-imports-no-instance-module',
      comment: 'The inference gateway uses console modules only.',
      severity: 'error',
      from: { path: `^src/modules/(${GATEWAY_MODULES.join('|')})/` },
      to: { path: `^src/modules/${INSTANCE}/` },
    },
    {
      name: 'no-other-modules-entities',
      comment:
        "A module reads another module's data through its exported service, not its entities or repositories.",
      severity: 'error',
      // An entity may name another module's entity in a relation (a foreign key); nothing else may.
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.entity\\.ts$' },
      to: {
        path: '^src/modules/([^/]+)/.+\\.(entity|repository)\\.ts$',
        pathNot: '^src/modules/$1/',
      },
    },
    {
      name: 'sql-in-repositories',
      comment:
        "A module's SQL and TypeORM calls live in its *.repository.ts files (immich's way): services and the rest call them.",
      severity: 'error',
      from: {
        path: '^src/modules/',
        pathNot: '\\.(repository|entity|module|columns|transformer)\\.ts$',
      },
      to: { path: '^node_modules/(typeorm|@nestjs/typeorm)/|^src/database/(pool-query|execute)\\.ts$' },
    },
    {
      name: 'no-module-cycles',
      comment: 'No module folder imports another that imports it back.',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.spec\\.ts$' },
  },
};
