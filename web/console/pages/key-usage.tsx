import { useState } from 'preact/hooks';

/**
 * How to use a key just made, as the OpenAI and Anthropic consoles show it: the gateway's base URLs and snippets
 * (curl, environment variables, the `openai` and `@anthropic-ai/sdk` clients, opencode's config) with the key in
 * them, each with a copy button. A user token gets the console API's instead.
 */
export function KeyUsage(props: {
  secret: string;
  use: 'inference' | 'console';
  org: string;
  model?: string;
}) {
  const origin = location.origin;
  const openai = `${origin}/inference/openai/v1`;
  const anthropic = `${origin}/inference/anthropic`;
  const model = props.model ?? 'MODEL';
  if (props.use === 'console')
    return (
      <section class="key-usage" aria-labelledby="key-usage-title">
        <h3 id="key-usage-title">Use it</h3>
        <p>
          A user token calls the console API as you; the workspace is named by the <code>x-org-id</code>{' '}
          header.
        </p>
        <Snippet
          label="curl"
          text={`curl ${origin}/console/api/v2/config \\\n  -H "Authorization: Bearer ${props.secret}" \\\n  -H "x-org-id: ${props.org}"`}
        />
      </section>
    );
  const snippets: Array<[string, string]> = [
    [
      'curl',
      `curl ${openai}/chat/completions \\\n  -H "Authorization: Bearer ${props.secret}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"model": "${model}", "messages": [{"role": "user", "content": "Hello"}]}'`,
    ],
    [
      'Environment variables (OpenAI and Anthropic SDKs, most tools)',
      `export OPENAI_BASE_URL=${openai}\nexport OPENAI_API_KEY=${props.secret}\nexport ANTHROPIC_BASE_URL=${anthropic}\nexport ANTHROPIC_API_KEY=${props.secret}`,
    ],
    [
      'openai (JavaScript)',
      `import OpenAI from 'openai';\n\nconst client = new OpenAI({ baseURL: '${openai}', apiKey: process.env.OUTPOST_API_KEY });\nconst answer = await client.chat.completions.create({\n  model: '${model}',\n  messages: [{ role: 'user', content: 'Hello' }],\n});`,
    ],
    [
      'anthropic (JavaScript)',
      `import Anthropic from '@anthropic-ai/sdk';\n\nconst client = new Anthropic({ baseURL: '${anthropic}', apiKey: process.env.OUTPOST_API_KEY });\nconst answer = await client.messages.create({\n  model: '${model}',\n  max_tokens: 1024,\n  messages: [{ role: 'user', content: 'Hello' }],\n});`,
    ],
    [
      'opencode (opencode.json; the key in OUTPOST_API_KEY)',
      JSON.stringify(
        {
          $schema: 'https://opencode.ai/config.json',
          provider: {
            outpost: {
              npm: '@ai-sdk/openai-compatible',
              name: 'Outpost',
              options: { baseURL: openai, apiKey: '{env:OUTPOST_API_KEY}' },
              models: { [model]: {} },
            },
          },
          model: `outpost/${model}`,
        },
        null,
        2,
      ),
    ],
  ];
  return (
    <section class="key-usage" aria-labelledby="key-usage-title">
      <h3 id="key-usage-title">Use it</h3>
      <dl>
        <dt>OpenAI-compatible base URL</dt>
        <dd>
          <code>{openai}</code>
        </dd>
        <dt>Anthropic base URL</dt>
        <dd>
          <code>{anthropic}</code>
        </dd>
      </dl>
      {snippets.map(([label, text]) => (
        <Snippet key={label} label={label} text={text} />
      ))}
    </section>
  );
}

/** A labelled code block with a copy button; it scrolls sideways, so it takes keyboard focus. */
function Snippet({ label, text }: { label: string; text: string }) {
  const [copied, setCopied] = useState<string>();
  return (
    <figure class="snippet">
      <figcaption>
        {label}{' '}
        <button
          type="button"
          class="secondary small"
          aria-label={`Copy ${label}`}
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(text);
              setCopied('Copied.');
            } catch {
              setCopied('Select the text and copy it.');
            }
          }}
        >
          Copy
        </button>
        {copied ? <span role="status"> {copied}</span> : null}
      </figcaption>
      <pre tabIndex={0} aria-label={label}>
        <code>{text}</code>
      </pre>
    </figure>
  );
}
