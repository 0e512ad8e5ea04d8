#!/usr/bin/env node
// @ts-check
// Renders deploy/helm/outpost without a helm binary (none can be installed on this project's machines), then
// checks every object against Kubernetes' schemas (kubernetes-models) and against what Outpost needs of them.
//
// The renderer is NOT Helm. It implements only the Go text/template subset the chart uses: text with `{{- -}}`
// trimming and comments; `if / else if / else`, `range` (lists, maps, `$k, $v :=`), `with`, `define`, `end`;
// variables (`$x := …`, `$x = …`, `$`); field chains on `.`, `$` and variables; parenthesised pipelines; and the
// functions in FUNCTIONS below, with Helm's meaning (`include`, `toYaml`, `nindent`, `quote`, `default`, …).
// Anything else (`template`, `block`, `tpl`, `lookup`, another function, a method call) stops it with an error
// naming the construct and the file, so a chart change that needs more fails here instead of rendering wrong.
// Values follow Helm: values.yaml deep-merged with overrides (null deletes a key), validated by values.schema.json,
// numbers printed as Go prints float64 (1000000 as 1e+06, like Helm).
//
//   node scripts/render-helm.mjs [chart dir] [-f values.yaml]... [--values-json '{"a":{"b":1}}'] [--check] [--json]
//     prints the manifests as YAML (or {objects, notes, problems} with --json); --check exits 1 on any problem.
//   node scripts/render-helm.mjs --check-manifests rendered.yaml [--external-secret name]
//     checks manifests rendered elsewhere (by a real `helm template`, where there is one) the same way.
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import YAML from 'yaml';
import { checkManifests } from './helm/checks.mjs';
import { mergeValues, renderChart } from './helm/template-run.mjs';
import { TemplateError } from './helm/template-parse.mjs';

export { checkManifests, mergeValues, renderChart, TemplateError };

/** @param {string[]} argv */
async function main(argv) {
  const here = dirname(fileURLToPath(import.meta.url));
  let chartDir = resolve(here, '..', 'deploy', 'helm', 'outpost');
  let values = {};
  let check = false;
  let json = false;
  let release = 'outpost';
  let namespace = 'default';
  /** @type {string | null} */
  let manifests = null;
  /** @type {string[]} */
  const external = [];
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k];
    if (arg === '-f' || arg === '--values')
      values = mergeValues(values, YAML.parse(readFileSync(argv[++k], 'utf8'), { version: '1.1' }));
    else if (arg === '--values-json') values = mergeValues(values, JSON.parse(argv[++k]));
    else if (arg === '--check') check = true;
    else if (arg === '--check-manifests') manifests = argv[++k];
    else if (arg === '--external-secret') external.push(argv[++k]);
    else if (arg === '--json') json = true;
    else if (arg === '--release') release = argv[++k];
    else if (arg === '--namespace' || arg === '-n') namespace = argv[++k];
    else if (!arg.startsWith('-')) chartDir = resolve(arg);
    else throw new Error(`unknown option ${arg}`);
  }
  if (manifests) {
    const objects = YAML.parseAllDocuments(readFileSync(manifests, 'utf8'), { version: '1.1' })
      .map((doc) => {
        if (doc.errors.length) throw new Error(`${manifests}: ${doc.errors[0].message}`);
        return doc.toJS();
      })
      .filter((object) => object !== null)
      .map((object) => ({ source: manifests, object }));
    const problems = await checkManifests(objects, { external });
    for (const problem of problems) process.stderr.write(`problem: ${problem}\n`);
    process.stderr.write(`${manifests}: ${objects.length} objects; ${problems.length} problems\n`);
    return problems.length ? 1 : 0;
  }
  let rendered;
  try {
    rendered = renderChart(chartDir, { values, release, namespace });
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    if (json) process.stdout.write(`${JSON.stringify({ error: error.message })}\n`);
    else process.stderr.write(`${basename(chartDir)}: ${error.message}\n`);
    return 2;
  }
  external.push(...[rendered.values.secret?.existingSecret].filter(Boolean));
  const problems = await checkManifests(rendered.objects, { external });
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ objects: rendered.objects.map((o) => o.object), notes: rendered.notes, problems })}\n`,
    );
  } else if (!check) {
    process.stdout.write(
      rendered.objects.map((o) => `---\n# Source: ${o.source}\n${o.text.replace(/\n*$/, '\n')}`).join(''),
    );
  }
  for (const problem of problems) process.stderr.write(`problem: ${problem}\n`);
  if (check && !json) {
    const kinds = rendered.objects.map((o) => `${o.object.kind}/${o.object.metadata.name}`);
    process.stderr.write(
      `${basename(chartDir)}: ${kinds.length} objects rendered (${kinds.join(', ')}); ${problems.length} problems\n`,
    );
  }
  return check && problems.length ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error.stack ?? error}\n`);
      process.exit(2);
    },
  );
}
