// Calls the MCP operations of the released `@opencode-ai/sdk` v2 client (mcp.status, mcp.add, mcp.disconnect,
// mcp.connect, mcp.auth.start, mcp.auth.remove): node sdk-mcp-client.mjs <baseUrl> <password> <directory> <config>.
// Prints what each returned as JSON.
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { result } from '../../helpers/sdk-result.mjs';

const [baseUrl, password, directory, config] = process.argv.slice(2);
const headers = { authorization: `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}` };
const client = createOpencodeClient({ baseUrl, directory, headers });

const out = {
  status: await result(client.mcp.status()),
  add: await result(client.mcp.add({ name: 'added', config: JSON.parse(config) })),
  disconnect: await result(client.mcp.disconnect({ name: 'added' })),
  afterDisconnect: await result(client.mcp.status()),
  connect: await result(client.mcp.connect({ name: 'added' })),
  afterConnect: await result(client.mcp.status()),
  missing: await result(client.mcp.connect({ name: 'missing' })),
  authStart: await result(client.mcp.auth.start({ name: 'added' })),
  authRemove: await result(client.mcp.auth.remove({ name: 'added' })),
};
process.stdout.write(JSON.stringify(out));
