import { useState } from 'preact/hooks';
import { api, call, day, when } from '../api';
import type { PageProps } from '../main';
import { LoadedTable } from '../table';
import { DeleteButton, ErrorText, Notice, useAction, useLoad } from '../ui';

export function DevicesPage({ workspace }: PageProps) {
  const sessions = useLoad(() => call(api.GET('/console/api/sessions')), []);
  const [notice, setNotice] = useState<string>();
  const action = useAction();
  return (
    <>
      <h2>Devices signed in as you</h2>
      <p class="muted">
        CLIs signed in with a code (<a href="/console/device">sign in a device</a>). Signing one out ends its
        access at once.
      </p>
      <Notice message={notice} />
      <ErrorText message={action.error} />
      <LoadedTable
        state={sessions}
        rowKey={(device) => device.id}
        empty={<p>No device is signed in.</p>}
        columns={[
          {
            header: 'Client',
            cell: (device) => (
              <>
                {device.client_id}
                {device.user_agent ? <div class="muted small">{device.user_agent}</div> : null}
              </>
            ),
          },
          {
            header: 'Workspace',
            cell: (device) =>
              device.org_id === workspace.id ? workspace.name : (device.org_id ?? 'any (not bound)'),
          },
          { header: 'Signed in', cell: (device) => day(device.created_at) },
          { header: 'Last used', cell: (device) => when(device.last_used_at) },
        ]}
        action={(device) => (
          <DeleteButton
            label="Sign out"
            ariaLabel={`Sign out ${device.client_id}`}
            question={`Sign out ${device.client_id}?`}
            action={action}
            request={() => api.DELETE('/console/api/sessions/{id}', { params: { path: { id: device.id } } })}
            onDone={() => {
              setNotice(`${device.client_id} was signed out.`);
              sessions.reload();
            }}
          />
        )}
      />
    </>
  );
}
