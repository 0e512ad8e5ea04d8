// Calls v2 operations of the released `@opencode-ai/sdk` that Outpost answered 404 before:
// node sdk-v2-more-client.mjs <baseUrl> <password> <directory> <sessionID>. Prints what each returned as JSON.
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { result } from '../../helpers/sdk-result.mjs';

const [baseUrl, password, directory, sessionID] = process.argv.slice(2);
const headers = { authorization: `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}` };
const v2 = createOpencodeClient({ baseUrl, directory, headers }).v2;
const location = { directory };

const out = {
  provider: await result(v2.provider.get({ providerID: 'scripted', location })),
  missingProvider: await result(v2.provider.get({ providerID: 'nobody', location })),
  integration: await result(v2.integration.get({ integrationID: 'github', location })),
  wait: await result(v2.session.wait({ sessionID })),
  allowed: await result(
    v2.session.permission.create({ sessionID, action: 'read', resources: ['src/main.ts'] }),
  ),
  asked: await result(
    v2.session.permission.create({ sessionID, action: 'bash', resources: ['make deploy'] }),
  ),
  ptyCreate: await result(v2.pty.create({ location, command: 'bash' })),
};
out.pending = await result(
  v2.session.permission.get({ sessionID, requestID: out.asked.data?.data?.id ?? 'per_x' }),
);
process.stdout.write(JSON.stringify(out));
