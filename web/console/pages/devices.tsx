import { useState } from 'preact/hooks';
import { api, call, day, when } from '../api';
import type { PageProps } from '../main';
import { ConfirmButton, ErrorText, Loading, Notice, useAction, useLoad } from '../ui';

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
      <Loading state={sessions}>
        {(list) =>
          list.length === 0 ? (
            <p>No device is signed in.</p>
          ) : (
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Client</th>
                    <th scope="col">Workspace</th>
                    <th scope="col">Signed in</th>
                    <th scope="col">Last used</th>
                    <th scope="col">
                      <span class="sr">Action</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((device) => (
                    <tr key={device.id}>
                      <td data-label="Client">
                        {device.client_id}
                        {device.user_agent ? <div class="muted small">{device.user_agent}</div> : null}
                      </td>
                      <td data-label="Workspace">
                        {device.org_id === workspace.id
                          ? workspace.name
                          : (device.org_id ?? 'any (not bound)')}
                      </td>
                      <td data-label="Signed in">{day(device.created_at)}</td>
                      <td data-label="Last used">{when(device.last_used_at)}</td>
                      <td>
                        <ConfirmButton
                          label="Sign out"
                          ariaLabel={`Sign out ${device.client_id}`}
                          question={`Sign out ${device.client_id}?`}
                          confirm="Yes, sign out"
                          onConfirm={() =>
                            action.run(async () => {
                              await call(
                                api.DELETE('/console/api/sessions/{id}', {
                                  params: { path: { id: device.id } },
                                }),
                              );
                              setNotice(`${device.client_id} was signed out.`);
                              sessions.reload();
                            })
                          }
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loading>
    </>
  );
}
