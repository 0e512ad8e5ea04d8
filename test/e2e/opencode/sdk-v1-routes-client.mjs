// Calls the v1 routes the released `@opencode-ai/sdk` (and its v2 client's v1 members) use that Outpost served
// as 404 before: node sdk-v1-routes-client.mjs <baseUrl> <password> <directory> <sessionID>. Prints what each
// returned as JSON.
import { createOpencodeClient } from '@opencode-ai/sdk/client';
import { createOpencodeClient as createV2Client } from '@opencode-ai/sdk/v2/client';
import { result } from '../../helpers/sdk-result.mjs';

const [baseUrl, password, directory, sessionID] = process.argv.slice(2);
const headers = { authorization: `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}` };
const v1 = createOpencodeClient({ baseUrl, headers });
const v2 = createV2Client({ baseUrl, directory, headers });
const query = { directory };

const out = {
  projectList: await result(v1.project.list({ query })),
  fileStatus: await result(v1.file.status({ query })),
  findText: await result(v1.find.text({ query: { ...query, pattern: 'greet' } })),
  findSymbols: await result(v1.find.symbols({ query: { ...query, query: 'greet' } })),
  appLog: await result(
    v1.app.log({ query, body: { service: 'sdk-test', level: 'warn', message: 'hello from the sdk' } }),
  ),
  toolIds: await result(v1.tool.ids({ query })),
  ptyList: await result(v1.pty.list({ query })),
  ptyCreate: await result(v1.pty.create({ query, body: { command: 'bash' } })),
  fork: await result(v1.session.fork({ query, path: { id: sessionID }, body: {} })),
  vcsStatus: await result(v2.vcs.status()),
  vcsDiff: await result(v2.vcs.diff({ mode: 'git' })),
  globalConfig: await result(v2.global.config.get()),
};
process.stdout.write(JSON.stringify(out));
