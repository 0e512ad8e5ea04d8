import { useState } from 'preact/hooks';
import { api, call, day, dollars, inOrg, isAdmin, microToNumber, type Schemas } from '../api';
import type { PageProps } from '../main';
import { type Column, DataTable } from '../table';
import { Bar, ErrorText, Loading, Notice, useAction, useLoad } from '../ui';

/** Dollars typed by a person: a number with at most two decimals ("$1,250.50" is fine too). */
function parseDollars(text: string): number | undefined {
  const plain = text.trim().replace(/^\$/, '').replace(/,/g, '');
  return /^\d+(\.\d{1,2})?$/.test(plain) ? Number(plain) : undefined;
}

function LimitForm(props: {
  id: string;
  label: string;
  onSet: (value: number) => Promise<unknown>;
  onClear?: () => Promise<unknown>;
  clearLabel: string;
}) {
  const [text, setText] = useState('');
  const [invalid, setInvalid] = useState<string>();
  return (
    <form
      class="row"
      onSubmit={async (event) => {
        event.preventDefault();
        const value = parseDollars(text);
        if (value === undefined)
          return setInvalid('Enter an amount in US dollars with at most two decimals, e.g. 50 or 12.50.');
        setInvalid(undefined);
        await props.onSet(value);
        setText('');
      }}
    >
      <div>
        <label for={props.id}>{props.label}</label>
        <input
          id={props.id}
          type="text"
          inputMode="decimal"
          size={8}
          placeholder="USD"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? `${props.id}-error` : undefined}
        />
      </div>
      <button type="submit">Set</button>
      {props.onClear ? (
        <button type="button" class="secondary" onClick={() => props.onClear!()}>
          {props.clearLabel}
        </button>
      ) : null}
      {invalid ? (
        <p class="error" role="alert" id={`${props.id}-error`}>
          {invalid}
        </p>
      ) : null}
    </form>
  );
}

type Member = Schemas['BudgetMemberDto'];

/** A member's own limit: set, or cleared back to the workspace default. */
function MemberLimit({
  member,
  org,
  onChanged,
}: {
  member: Member;
  org: string;
  onChanged: (message: string) => void;
}) {
  const action = useAction();
  return (
    <>
      <LimitForm
        id={`limit-input-${member.user_id}`}
        label={`Monthly limit of ${member.name}`}
        clearLabel="Clear"
        onSet={(value) =>
          action.run(async () => {
            await call(
              api.PUT('/console/api/v1/budgets/members/{user_id}', {
                params: { ...inOrg(org), path: { user_id: member.user_id } },
                body: { budget_dollars: value },
              }),
            );
            onChanged(`${member.name} may spend $${value.toFixed(2)} a month.`);
          })
        }
        onClear={
          member.source === 'custom'
            ? () =>
                action.run(async () => {
                  await call(
                    api.DELETE('/console/api/v1/budgets/members/{user_id}', {
                      params: { ...inOrg(org), path: { user_id: member.user_id } },
                    }),
                  );
                  onChanged(`${member.name}'s own limit was cleared.`);
                })
            : undefined
        }
      />
      <ErrorText message={action.error} />
    </>
  );
}

function memberColumns(org: string, onChanged: (message: string) => void): Array<Column<Member>> {
  return [
    {
      header: 'Who',
      cell: (member) => (
        <>
          {member.name}
          <div class="muted small">{member.kind === 'person' ? member.email : 'service account'}</div>
        </>
      ),
    },
    {
      header: 'Limit',
      testId: (member) => `limit-${member.user_id}`,
      cell: (member) => (
        <>
          {dollars(member.limit_micro_cents)}
          {member.source === 'default' ? <span class="muted small"> (workspace default)</span> : null}
        </>
      ),
    },
    {
      header: 'Spent this month',
      cell: (member) => (
        <>
          <Bar
            value={microToNumber(member.spent_micro_cents)}
            max={member.limit_micro_cents === null ? null : microToNumber(member.limit_micro_cents)}
            label={`Spent by ${member.name} this month`}
          />
          <span class="small">{dollars(member.spent_micro_cents)}</span>
        </>
      ),
    },
    {
      header: 'Status',
      cell: (member) => (member.exceeded ? <strong class="error">exceeded</strong> : 'within'),
    },
    { header: 'Resets', cell: (member) => day(member.resets_at) },
    {
      header: 'Set a limit',
      cell: (member) => <MemberLimit member={member} org={org} onChanged={onChanged} />,
    },
  ];
}

/** Sets the workspace's budget, or the default of its members; `null` clears it. */
const putBudget = (org: string, which: 'workspace' | 'default', budget_dollars: number | null) =>
  call(
    which === 'workspace'
      ? api.PUT('/console/api/v1/budgets/workspace', { params: inOrg(org), body: { budget_dollars } })
      : api.PUT('/console/api/v1/budgets/default', { params: inOrg(org), body: { budget_dollars } }),
  );

/** Sets a limit (`null` clears it), then says so in `message`. */
type SetLimit = (value: number | null, message: string) => Promise<unknown>;

function WorkspaceBudget({ whole, onSet }: { whole: Schemas['WorkspaceBudgetDto']; onSet: SetLimit }) {
  return (
    <section class="panel" aria-labelledby="whole">
      <h2 id="whole">Workspace budget</h2>
      <p>
        {dollars(whole.spent_micro_cents)} spent this month of {dollars(whole.limit_micro_cents)}
        {whole.exceeded ? <strong class="error"> (exceeded)</strong> : null}; resets {day(whole.resets_at)}.
      </p>
      <Bar
        value={microToNumber(whole.spent_micro_cents)}
        max={whole.limit_micro_cents === null ? null : microToNumber(whole.limit_micro_cents)}
        label="Spent by the workspace this month"
      />
      <LimitForm
        id="workspace-limit"
        label="Monthly limit of the whole workspace (USD)"
        clearLabel="No limit"
        onSet={(value) => onSet(value, `The workspace may spend $${value.toFixed(2)} a month.`)}
        onClear={() => onSet(null, 'The workspace has no monthly limit.')}
      />
    </section>
  );
}

function DefaultBudget({ fallback, onSet }: { fallback: Schemas['DefaultBudgetDto']; onSet: SetLimit }) {
  return (
    <section class="panel" aria-labelledby="default">
      <h2 id="default">Default member budget</h2>
      <p>
        Applies to every member and service account without a limit of their own:{' '}
        {dollars(fallback.limit_micro_cents)}.
      </p>
      <LimitForm
        id="default-limit"
        label="Default monthly limit per member (USD)"
        clearLabel="No default"
        onSet={(value) =>
          onSet(value, `Members without a limit of their own may spend $${value.toFixed(2)} a month.`)
        }
        onClear={() => onSet(null, 'There is no default member budget.')}
      />
    </section>
  );
}

export function BudgetsPage({ workspace }: PageProps) {
  const org = workspace.id;
  const state = useLoad(
    async () => ({
      workspace: await call(api.GET('/console/api/v1/budgets/workspace', { params: inOrg(org) })),
      fallback: await call(api.GET('/console/api/v1/budgets/default', { params: inOrg(org) })),
      members: await call(api.GET('/console/api/v1/budgets/members', { params: inOrg(org) })),
    }),
    [org],
  );
  const [notice, setNotice] = useState<string>();
  const action = useAction();
  if (!isAdmin(workspace.role))
    return <p class="muted">Only owners and admins of {workspace.name} see and set budgets.</p>;
  const changed = (message: string) => {
    setNotice(message);
    state.reload();
  };
  const setLimit =
    (which: 'workspace' | 'default'): SetLimit =>
    (value, message) =>
      action.run(async () => {
        await putBudget(org, which, value);
        changed(message);
      });
  return (
    <Loading state={state}>
      {({ workspace: whole, fallback, members }) => (
        <>
          <Notice message={notice} />
          <ErrorText message={action.error} />
          <WorkspaceBudget whole={whole} onSet={setLimit('workspace')} />
          <DefaultBudget fallback={fallback} onSet={setLimit('default')} />
          <h2>Members and service accounts</h2>
          <DataTable
            columns={memberColumns(org, changed)}
            rows={members}
            rowKey={(member) => member.user_id}
          />
        </>
      )}
    </Loading>
  );
}
