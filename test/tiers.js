/**
 * What runs where (README "Tests", docs/operations.md#tests). Paths are globs under test/e2e.
 *
 * - unit: every `*.spec.ts` beside the code in src (and test/*.spec.ts): no database, no server.
 * - integration: every `test/e2e/**\/*.e2e-spec.ts` not listed in SYSTEM: the Nest app in process on PostgreSQL.
 * - system: SYSTEM, the files that start real processes (`node dist/main.js`, the `outpost` CLI, a script or client
 *   in a process of its own, opencode's binaries, chromium, nginx) or fuzz. test/tiers.spec.ts holds a file that
 *   starts one out of the integration tier.
 * - embedded: EMBEDDED run again on the embedded PostgreSQL (`OUTPOST_TEST_EMBEDDED=1`), the files whose outcome
 *   depends on how the database behaves.
 * - fleet: FLEET run again with `OUTPOST_TEST_FLEET=3` (three nodes behind nginx).
 */

const SYSTEM = [
  // `outpost serve` / `node dist/main.js` processes: start-up, probes, logs, restarts, kills, outages
  'foundation/boot.e2e-spec.ts',
  'foundation/cli-help.e2e-spec.ts',
  'foundation/embedded-default.e2e-spec.ts',
  'foundation/fuzz.e2e-spec.ts',
  'foundation/probes.e2e-spec.ts',
  'foundation/request-log-lines.e2e-spec.ts',
  'foundation/request-logs.e2e-spec.ts',
  'foundation/secrets-in-logs.e2e-spec.ts',
  'foundation/startup-banner.e2e-spec.ts',
  'console/audit.e2e-spec.ts',
  'inference/gateway-errors.e2e-spec.ts',
  'inference/gateway-lane.e2e-spec.ts',
  'inference/gateway-request-log-journal.e2e-spec.ts',
  'inference/gateway-shutdown.e2e-spec.ts',
  'prompt/prompt-drain-owners.e2e-spec.ts',
  'prompt/prompt-embedded.e2e-spec.ts',
  'prompt/prompt-restart.e2e-spec.ts',
  'prompt/drain-clock-skew.e2e-spec.ts',
  'security/database-outage.e2e-spec.ts',
  'security/gateway-kill.e2e-spec.ts',
  'security/gateway-kill-answered.e2e-spec.ts',
  'security/usage-journal.e2e-spec.ts',
  'fleet/*.e2e-spec.ts',
  // the `outpost` CLI, and scripts or clients run as processes of their own
  // MCP servers the app starts as processes (test/helpers/mcp-server.js)
  'mcp/*.e2e-spec.ts',
  'console/sign-in.e2e-spec.ts',
  'console-link/*.e2e-spec.ts',
  'console-web/api-documents.e2e-spec.ts',
  'instance/pair-cli.e2e-spec.ts',
  'sessions/sdk.e2e-spec.ts',
  // opencode's released CLI, TUI and SDK clients
  'opencode/cli-*.e2e-spec.ts',
  'opencode/console-login.e2e-spec.ts',
  'opencode/opencode-configs.e2e-spec.ts',
  'opencode/auth-login-well-known.e2e-spec.ts',
  'opencode/sdk-v2*.e2e-spec.ts',
  'opencode/tui*.e2e-spec.ts',
  'opencode/v1-more-routes.e2e-spec.ts',
  'opencode/sdk-sweep.e2e-spec.ts',
  // chromium
  'console/device-browser.e2e-spec.ts',
  'console-web/*-browser.e2e-spec.ts',
  'console-web/console-design.e2e-spec.ts',
  'console-web/settings-forms.e2e-spec.ts',
  'web-app/!(web-app-server).e2e-spec.ts',
];

/**
 * Run on the embedded PostgreSQL as well: migrations and the embedded server itself, restarts and outages,
 * LISTEN/NOTIFY between processes, COPY (the journals), advisory locks and row locks under concurrency, leases,
 * transactions whose outcome the test reads. The rest behaves the same on any PostgreSQL 16+ (measured in
 * docs/operations.md#tests).
 */
const EMBEDDED = [
  // migrations, start-up and health against the database (embedded-default and prompt-embedded start an embedded
  // server of their own in every run: not repeated here)
  'foundation/boot.e2e-spec.ts',
  'foundation/probes.e2e-spec.ts',
  // restarts, outages, killed processes, leases taken over
  'security/database-outage.e2e-spec.ts',
  'security/gateway-kill.e2e-spec.ts',
  'prompt/prompt-restart.e2e-spec.ts',
  'prompt/prompt-drain-owners.e2e-spec.ts',
  'prompt/drain-clock-skew.e2e-spec.ts',
  'inference/gateway-shutdown.e2e-spec.ts',
  // COPY: the usage and request-log journals and their batch writers
  'security/usage-journal.e2e-spec.ts',
  'inference/gateway-request-log-journal.e2e-spec.ts',
  'inference/gateway-request-log.e2e-spec.ts',
  'inference/usage-batches.e2e-spec.ts',
  // LISTEN/NOTIFY between processes: the credential cache, table changes, throttles shared by every process
  'inference/gateway-errors.e2e-spec.ts',
  'inference/gateway-routes.e2e-spec.ts',
  'foundation/shared-throttles.e2e-spec.ts',
  'foundation/rate-limit-leases.e2e-spec.ts',
  'fleet/secret-key.e2e-spec.ts',
  'console/keys.e2e-spec.ts',
  'console/workspace-config.e2e-spec.ts',
  // locks and transactions under concurrency: budgets, holds, the audit log written with the change
  'console/budgets.e2e-spec.ts',
  'console/audit.e2e-spec.ts',
  'inference/gateway-budgets.e2e-spec.ts',
  'inference/gateway-budget-back-to-back.e2e-spec.ts',
  'inference/gateway-key-budget.e2e-spec.ts',
  'instance/pairing.e2e-spec.ts',
  // triggers that keep sums, prepared statements past the server's cap
  'session-transfer/usage.e2e-spec.ts',
  'sessions/paging.e2e-spec.ts',
];

/**
 * Run again as three nodes behind nginx: the console and gateway files whose apps (createTestApp) become fleets,
 * where state crosses nodes (caches told by NOTIFY, limits, holds, batches, cookies, device codes). Left out, by
 * measurement (a fleet run of 44 files took 574 s, these 13 were 426 s of its 1,133 file-seconds): the pages in
 * chromium (rendering is the same on any node; their API calls are the files kept) and the API documents, and the
 * files that start their own processes instead of a test app (the fleet mode changes nothing in them).
 */
const FLEET = [
  'console/!(device-browser).e2e-spec.ts',
  'console-web/audit-filters.e2e-spec.ts',
  'console-web/service-account-rename.e2e-spec.ts',
  'console-link/!(untrusted-console).e2e-spec.ts',
  'inference/!(gateway-lane|gateway-request-log-journal|gateway-shutdown).e2e-spec.ts',
  'fleet/test-fleet.e2e-spec.ts',
];

/**
 * Files that run for a long time, slowest first: started first (test/helpers/slow-first-sequencer.js), so no worker
 * is left alone with one of them at the end of a run. From the slowest files a run prints (clean-clone CI).
 */
const SLOW = ['session-transfer/transfer-round-trip.e2e-spec.ts'];

/** The globs as Jest's testMatch wants them (matched against absolute paths). */
const e2e = (globs) => globs.map((glob) => `**/test/e2e/${glob}`);

module.exports = { SYSTEM, EMBEDDED, FLEET, SLOW, e2e };
