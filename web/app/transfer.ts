import { client, ok } from './api';

/** Downloads a session's export (`<id>.json`, the `data` of the export: `{ info, messages }`). */
export async function downloadExport(sessionID: string): Promise<void> {
  const exported = await ok(
    client.GET('/api/experimental/session/{sessionID}/export', { params: { path: { sessionID } } }),
  );
  const link = document.createElement('a');
  link.href = URL.createObjectURL(
    new Blob([JSON.stringify(exported.data, null, 2)], { type: 'application/json' }),
  );
  link.download = `${sessionID}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
