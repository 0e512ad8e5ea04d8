import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * deploy/helm/outpost, rendered by scripts/render-helm.mjs (no helm binary can be installed here) and checked
 * against Kubernetes' schemas (kubernetes-models) and Outpost's own rules.
 */
const root = join(__dirname, '..', '..', '..');
const script = join(root, 'scripts', 'render-helm.mjs');
const chart = join(root, 'deploy', 'helm', 'outpost');

type Env = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };
type Container = {
  env: Env[];
  livenessProbe: { httpGet: { path: string } };
  readinessProbe: { httpGet: { path: string } };
  volumeMounts: Array<{ name: string; mountPath: string }>;
};
type K8sObject = {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  stringData?: Record<string, string>;
  data?: Record<string, string>;
};
type Rendered = { objects: K8sObject[]; notes: string; problems: string[]; error?: string };

const SECRETS = {
  secret: {
    secretKey: '0123456789abcdef0123456789abcdef',
    databaseUrl: 'postgres://outpost:pw@db.internal:5432/outpost',
  },
};

async function render(values: object, chartDir = chart): Promise<Rendered> {
  const run = await promisify(execFile)(process.execPath, [
    script,
    chartDir,
    '--json',
    '--values-json',
    JSON.stringify(values),
  ]).catch((failure: { stdout: string; stderr: string }) => failure);
  if (!run.stdout) throw new Error(`render-helm printed nothing: ${run.stderr}`);
  return JSON.parse(run.stdout) as Rendered;
}

const find = (rendered: Rendered, kind: string, name: string): K8sObject => {
  const found = rendered.objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} not rendered`);
  return found;
};
const containerOf = (workload: K8sObject): Container =>
  workload.spec.template.spec.containers[0] as Container;
const env = (container: Container, name: string) => container.env.find((e) => e.name === name);
const ids = (rendered: Rendered) => rendered.objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();

/** A copy of the chart with one template file edited, to show that a broken chart is caught. */
function editedChart(file: string, edit: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-chart-'));
  cpSync(chart, dir, { recursive: true });
  const path = join(dir, 'templates', file);
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  return dir;
}

describe('the Helm chart', () => {
  const copies: string[] = [];
  afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('refuses to render without OUTPOST_SECRET_KEY and DATABASE_URL or an existing Secret', async () => {
    const rendered = await render({});
    expect(rendered.error).toContain('set secret.secretKey');
    expect(rendered.objects).toBeUndefined();
  });

  it('renders the console and the gateway as separate Deployments that pass every check by default', async () => {
    const rendered = await render(SECRETS);
    expect(rendered.problems).toEqual([]);
    expect(ids(rendered)).toEqual([
      'Deployment/outpost-console',
      'Deployment/outpost-gateway',
      'HorizontalPodAutoscaler/outpost-console',
      'HorizontalPodAutoscaler/outpost-gateway',
      'Ingress/outpost',
      'PodDisruptionBudget/outpost-console',
      'PodDisruptionBudget/outpost-gateway',
      'Secret/outpost-secrets',
      'Service/outpost-console',
      'Service/outpost-gateway',
    ]);

    const console = find(rendered, 'Deployment', 'outpost-console');
    const gateway = find(rendered, 'Deployment', 'outpost-gateway');
    expect(env(containerOf(console), 'OUTPOST_SURFACES')?.value).toBe('console');
    expect(env(containerOf(gateway), 'OUTPOST_SURFACES')?.value).toBe('inference');
    for (const deployment of [console, gateway]) {
      const container = containerOf(deployment);
      expect(container.livenessProbe.httpGet.path).toBe('/health/live');
      expect(container.readinessProbe.httpGet.path).toBe('/health/ready');
      expect(env(container, 'OUTPOST_SECRET_KEY')?.valueFrom?.secretKeyRef).toEqual({
        name: 'outpost-secrets',
        key: 'OUTPOST_SECRET_KEY',
      });
      expect(env(container, 'DATABASE_URL')?.valueFrom?.secretKeyRef?.key).toBe('DATABASE_URL');
      expect(env(container, 'OUTPOST_DRAIN_DELAY_MS')?.value).toBe('5000');
      // Kubernetes waits longer than the drain delay plus the shutdown grace before it kills a node.
      expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(35);
      // The HPA owns the replica count.
      expect(deployment.spec.replicas).toBeUndefined();
    }
    expect(find(rendered, 'Secret', 'outpost-secrets').stringData).toEqual({
      OUTPOST_SECRET_KEY: SECRETS.secret.secretKey,
      DATABASE_URL: SECRETS.secret.databaseUrl,
    });

    const hpa = find(rendered, 'HorizontalPodAutoscaler', 'outpost-gateway');
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'outpost-gateway',
    });
    expect(hpa.spec.metrics[0].resource).toEqual({
      name: 'cpu',
      target: { type: 'Utilization', averageUtilization: 70 },
    });
    expect(find(rendered, 'PodDisruptionBudget', 'outpost-console').spec.selector.matchLabels).toEqual(
      console.spec.selector.matchLabels,
    );

    const ingress = find(rendered, 'Ingress', 'outpost');
    expect(ingress.metadata.annotations).toMatchObject({
      'nginx.ingress.kubernetes.io/proxy-buffering': 'off',
      'nginx.ingress.kubernetes.io/proxy-request-buffering': 'off',
      'nginx.ingress.kubernetes.io/proxy-read-timeout': '600',
    });
    const routes = ingress.spec.rules[0].http.paths.map(
      (p: { path: string; backend: { service: { name: string } } }) => [p.path, p.backend.service.name],
    );
    expect(routes).toEqual([
      ['/', 'outpost-console'],
      ['/console', 'outpost-console'],
      ['/inference', 'outpost-gateway'],
    ]);
    expect(rendered.notes).toContain('outpost-console');
  });

  it('takes fixed replicas, an existing Secret and the instance StatefulSet from values', async () => {
    const rendered = await render({
      secret: { existingSecret: 'outpost-prod' },
      console: { replicas: 2, autoscaling: { enabled: false } },
      gateway: { replicas: 5, autoscaling: { enabled: false } },
      instance: { enabled: true, persistence: { storageClassName: 'fast', projectsSize: '50Gi' } },
    });
    expect(rendered.problems).toEqual([]);
    expect(ids(rendered)).toEqual([
      'Deployment/outpost-console',
      'Deployment/outpost-gateway',
      'Ingress/outpost',
      'PodDisruptionBudget/outpost-console',
      'PodDisruptionBudget/outpost-gateway',
      'Service/outpost-console',
      'Service/outpost-gateway',
      'Service/outpost-instance',
      'StatefulSet/outpost-instance',
    ]);
    expect(find(rendered, 'Deployment', 'outpost-gateway').spec.replicas).toBe(5);
    expect(find(rendered, 'Deployment', 'outpost-console').spec.replicas).toBe(2);
    const gateway = containerOf(find(rendered, 'Deployment', 'outpost-gateway'));
    expect(env(gateway, 'OUTPOST_SECRET_KEY')?.valueFrom?.secretKeyRef?.name).toBe('outpost-prod');

    const instance = find(rendered, 'StatefulSet', 'outpost-instance');
    expect(instance.spec.replicas).toBe(1);
    expect(env(containerOf(instance), 'OUTPOST_SURFACES')?.value).toBe('instance');
    expect(env(containerOf(instance), 'DATABASE_URL')).toBeUndefined();
    expect(containerOf(instance).volumeMounts).toEqual([
      { name: 'data', mountPath: '/data' },
      { name: 'projects', mountPath: '/projects' },
    ]);
    const claims = instance.spec.volumeClaimTemplates.map(
      (c: {
        metadata: { name: string };
        spec: { storageClassName: string; resources: { requests: object } };
      }) => [c.metadata.name, c.spec.storageClassName, c.spec.resources.requests],
    );
    expect(claims).toEqual([
      ['data', 'fast', { storage: '2Gi' }],
      ['projects', 'fast', { storage: '50Gi' }],
    ]);
  });

  it('serves both surfaces from one Deployment with layout: combined', async () => {
    const rendered = await render({ ...SECRETS, layout: 'combined' });
    expect(rendered.problems).toEqual([]);
    const fleet = find(rendered, 'Deployment', 'outpost-fleet');
    expect(env(containerOf(fleet), 'OUTPOST_SURFACES')?.value).toBe('console,inference');
    expect(rendered.objects.filter((o) => o.kind === 'Deployment')).toHaveLength(1);
    const backends = find(rendered, 'Ingress', 'outpost').spec.rules[0].http.paths.map(
      (p: { backend: { service: { name: string } } }) => p.backend.service.name,
    );
    expect(backends).toEqual(['outpost-fleet', 'outpost-fleet', 'outpost-fleet']);
  });

  it('rejects values outside the schema', async () => {
    const short = await render({
      secret: { secretKey: 'too-short', databaseUrl: SECRETS.secret.databaseUrl },
    });
    expect(short.error).toContain('/secret/secretKey');
    const layout = await render({ ...SECRETS, layout: 'sideways' });
    expect(layout.error).toContain('/layout');
  });

  it('reports a node that Kubernetes would kill while it drains, or that drains for less than the readiness probe needs to notice', async () => {
    const rendered = await render({
      ...SECRETS,
      terminationGracePeriodSeconds: 30,
      config: { drainDelayMs: 1000 },
    });
    expect(rendered.problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Deployment/outpost-gateway: terminationGracePeriodSeconds 30 s'),
        expect.stringContaining(
          'Deployment/outpost-console: OUTPOST_DRAIN_DELAY_MS 1000 is shorter than the 4000 ms the readiness probe takes to notice a drain',
        ),
      ]),
    );
  });

  it('reports a broken template: a wrong probe path, a schema violation, an Ingress that buffers or misroutes', async () => {
    const probe = editedChart('_helpers.tpl', (text) => text.replace('path: /health/ready', 'path: /health'));
    const port = editedChart('_component.tpl', (text) =>
      text.replace('containerPort: 4096', 'containerPort: "4096"'),
    );
    const buffering = editedChart('ingress.yaml', (text) =>
      text.replace('proxy-buffering: "off"', 'proxy-buffering: "on"'),
    );
    const route = editedChart('ingress.yaml', (text) =>
      text.replace('name: {{ $gateway }}', 'name: {{ $console }}'),
    );
    copies.push(probe, port, buffering, route);
    expect((await render(SECRETS, route)).problems).toEqual([
      'Ingress/outpost: /inference/v1/chat/completions goes to Service outpost-console, whose pods do not serve inference',
    ]);
    expect((await render(SECRETS, probe)).problems).toContain(
      'Deployment/outpost-console: readinessProbe must GET /health/ready, not /health',
    );
    expect((await render(SECRETS, port)).problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Deployment\/outpost-console .* must be integer/)]),
    );
    expect((await render(SECRETS, buffering)).problems).toEqual([
      'Ingress/outpost: proxy-buffering must be "off" (SSE)',
    ]);
  });

  it('renders the Go template constructs it knows as Helm does (YAML 1.1 values, float64 numbers)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-chart-'));
    copies.push(dir);
    mkdirSync(join(dir, 'templates'));
    writeFileSync(join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: probe\nversion: 1.0.0\n');
    writeFileSync(
      join(dir, 'values.yaml'),
      'big: 1000000\nsmall: 5000\nratio: 0.5\nmap: {b: 2, a: "x y"}\nlist: [x, y]\nflag: off\n',
    );
    writeFileSync(
      join(dir, 'templates', 'probe.yaml'),
      [
        '{{- /* a comment */ -}}',
        '{{- $x := 1 }}',
        '{{- if true }}{{ $x = 2 }}{{ end }}',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: {{ .Release.Name }}-probe',
        'data:',
        '  big: {{ .Values.big | quote }}',
        '  small: {{ .Values.small | quote }}',
        '  ratio: {{ .Values.ratio | quote }}',
        '  flag: {{ .Values.flag | quote }}',
        '  assigned: {{ $x | quote }}',
        '  {{- range $k, $v := .Values.map }}',
        '  {{ $k }}: {{ $v | quote }}',
        '  {{- end }}',
        '  list: {{ range $i, $e := .Values.list }}{{ $i }}={{ $e }},{{ end }}',
        '  empty: {{ range .Values.none }}never{{ else }}"none"{{ end }}',
        '  yaml: |',
        '    {{- toYaml .Values.map | nindent 4 }}',
        '  {{- with .Values.map }}',
        '  with: {{ .a | quote }}',
        '  {{- end }}',
      ].join('\n'),
    );
    const rendered = await render({}, dir);
    expect(rendered.problems).toEqual([]);
    expect(find(rendered, 'ConfigMap', 'outpost-probe').data).toEqual({
      big: '1e+06', // Helm's values are float64, printed by Go's %v
      small: '5000',
      ratio: '0.5',
      flag: 'false', // YAML 1.1: off is false
      assigned: '2',
      a: 'x y',
      b: '2',
      list: '0=x,1=true,', // YAML 1.1: y is true
      empty: 'none',
      yaml: 'a: x y\nb: 2\n',
      with: 'x y',
    });
  });

  it('stops on a template construct the renderer does not implement instead of rendering it wrong', async () => {
    const tpl = editedChart('ingress.yaml', (text) =>
      text.replace('{{ .Values.ingress.className }}', '{{ tpl .Values.ingress.className . }}'),
    );
    const template = editedChart('secret.yaml', (text) => `{{ template "outpost.labels" . }}\n${text}`);
    copies.push(tpl, template);
    expect((await render(SECRETS, tpl)).error).toContain('function "tpl" is not supported');
    expect((await render(SECRETS, template)).error).toContain('"template" is not supported');
  });
});
