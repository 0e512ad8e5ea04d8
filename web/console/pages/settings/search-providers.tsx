import { useState } from 'preact/hooks';
import { api, call, day, type Schemas } from '../../api';
import { FormEnd, SelectField, TextField, useFormAction } from '../../field-errors';
import { type Column, DataTable } from '../../table';
import { DeleteButton, ErrorText, Notice, useAction } from '../../ui';

export type SearchProvider = Schemas['SearchProviderDto'];
type Kind = SearchProvider['kind'];

const KINDS: Array<[Kind, string]> = [
  ['brave', 'Brave Search'],
  ['tavily', 'Tavily'],
  ['exa', 'Exa'],
  ['searxng', 'SearXNG (self-hosted)'],
];

const kindName = (kind: Kind) => KINDS.find(([value]) => value === kind)?.[1] ?? kind;

const COLUMNS: Array<Column<SearchProvider>> = [
  { header: 'Name', cell: (provider) => provider.name },
  {
    header: 'API',
    cell: (provider) => (
      <>
        {kindName(provider.kind)}
        <div class="muted small">{provider.base_url}</div>
      </>
    ),
  },
  { header: 'Key', cell: (provider) => (provider.api_key_last4 ? `…${provider.api_key_last4}` : 'none') },
  { header: 'Price', cell: (provider) => `$${provider.price_per_1000} per 1,000 searches` },
  { header: 'Added', cell: (provider) => day(provider.created_at) },
];

/**
 * The workspace's web search APIs (owners and admins): a table, add one (its key write-only), delete one. Which one
 * members search through is the "Web search" setting below.
 */
export function SearchProviders(props: { org: string; providers: SearchProvider[]; onChange: () => void }) {
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string>();
  const action = useAction();
  return (
    <section class="panel" aria-labelledby="search-providers">
      <h2 id="search-providers">Search providers</h2>
      <p class="muted small">
        The web search APIs members' searches go through, billed to them at the price per 1,000 searches. A
        key is write-only: only its last four characters are ever shown.
      </p>
      <Notice message={notice} />
      <DataTable
        rows={props.providers}
        rowKey={(provider) => provider.id}
        empty="No search provider yet."
        columns={COLUMNS}
        actionHeader="Actions"
        action={(provider) => (
          <DeleteButton
            label="Remove"
            ariaLabel={`Remove search provider ${provider.name}`}
            question={`Remove ${provider.name} and its key?`}
            action={action}
            request={() =>
              api.DELETE('/console/api/orgs/{org}/search-providers/{id}', {
                params: { path: { org: props.org, id: provider.id } },
              })
            }
            onDone={() => {
              setNotice(`${provider.name} was removed.`);
              props.onChange();
            }}
          />
        )}
      />
      <ErrorText message={action.error} />
      {adding ? (
        <SearchProviderForm
          org={props.org}
          onCancel={() => setAdding(false)}
          onAdded={(provider) => {
            setAdding(false);
            setNotice(`${provider.name} was added. Choose it under Web search to offer it to members.`);
            props.onChange();
          }}
        />
      ) : (
        <button
          type="button"
          onClick={() => {
            setNotice(undefined);
            setAdding(true);
          }}
        >
          Add a search provider
        </button>
      )}
    </section>
  );
}

/** Adds a search provider; empty fields are left out (the API's defaults apply). */
function addSearchProvider(
  org: string,
  fields: { kind: Kind; name: string; base_url: string; api_key: string; price_per_1000?: number },
) {
  const body = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== '' && value !== undefined),
  );
  return call(
    api.POST('/console/api/orgs/{org}/search-providers', {
      params: { path: { org } },
      body: body as Schemas['CreateSearchProviderDto'],
    }),
  );
}

function SearchProviderForm(props: {
  org: string;
  onCancel: () => void;
  onAdded: (provider: SearchProvider) => void;
}) {
  const [kind, setKind] = useState<Kind>('brave');
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [key, setKey] = useState('');
  const [price, setPrice] = useState('');
  const form = useFormAction(['kind', 'name', 'base_url', 'api_key', 'price_per_1000']);
  const submit = async (event: Event) => {
    event.preventDefault();
    const perThousand = price.trim() === '' ? undefined : Number(price.trim());
    if (perThousand !== undefined && (!Number.isFinite(perThousand) || perThousand < 0))
      return form.refuse('price_per_1000', 'The price is dollars per 1,000 searches, e.g. 5.');
    let added: SearchProvider | undefined;
    const body = {
      kind,
      name: name.trim(),
      base_url: baseUrl.trim(),
      api_key: key,
      price_per_1000: perThousand,
    };
    const ok = await form.run(async () => (added = await addSearchProvider(props.org, body)));
    if (ok && added) props.onAdded(added);
  };
  return (
    <form
      noValidate
      class="provider-form"
      aria-labelledby="search-provider-form-title"
      onSubmit={(e) => void submit(e)}
    >
      <h3 id="search-provider-form-title">Add a search provider</h3>
      <div class="row">
        <SelectField id="search-kind" label="API" value={kind} options={KINDS} onValue={setKind} />
        <TextField
          id="search-name"
          label="Name (optional)"
          value={name}
          onValue={setName}
          message={form.at('name')}
        />
        <TextField
          id="search-base_url"
          label={kind === 'searxng' ? 'Base URL' : 'Base URL (optional)'}
          value={baseUrl}
          onValue={setBaseUrl}
          message={form.at('base_url')}
          input={{ type: 'url' }}
        />
        {kind === 'searxng' ? null : (
          <TextField
            id="search-api_key"
            label="API key (write-only)"
            value={key}
            onValue={setKey}
            message={form.at('api_key')}
            input={{ type: 'password', autoComplete: 'off' }}
          />
        )}
        <TextField
          id="search-price"
          label="$ per 1,000 searches"
          value={price}
          onValue={setPrice}
          message={form.at('price_per_1000')}
          input={{ inputMode: 'decimal' }}
        />
      </div>
      <FormEnd form={form} submit="Add search provider" onCancel={props.onCancel} />
    </form>
  );
}
