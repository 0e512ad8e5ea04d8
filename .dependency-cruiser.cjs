/**
 * The dependency rules of docs/ARCHITECTURE.md, checked by `npm run check` (and so by CI). A rule's `pathNot` lists
 * today's known exceptions, each a debt named in docs/ARCHITECTURE.md; a new one fails the check.
 */
const INSTANCE =
  '(instance-auth|pairing|locations|location-config|location-reload|agents|plugins|runtime|sessions|prompt|session-history|session-transfer|session-stats|events|server|location-catalog|opencode-v1|console-link)';
const CONSOLE = '(identity|workspaces|keys|audit|device|console-web|workspace-config|budgets|connections)';

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
      from: { path: '^src/modules/inference/' },
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
