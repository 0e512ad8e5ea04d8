// @ts-check
// What every rendered object must satisfy: Kubernetes' schemas (kubernetes-models) and Outpost's rules.

/**
 * A Kubernetes object as rendered: YAML read as JSON, of any kind, so its fields are read as they come.
 * @typedef {Record<string, any>} Manifest
 */
/** @typedef {{ source: string, object: Manifest }} RenderedObject */

/**
 * The schema validator of each kind the chart may render, from kubernetes-models.
 * @param {string} apiVersion
 * @param {string} kind
 * @returns {Promise<(new (object: Manifest) => { validate(): void }) | null>}
 */
async function modelFor(apiVersion, kind) {
  /** @type {Record<string, [string, string]>} */
  const models = {
    'v1/Secret': ['kubernetes-models/v1', 'Secret'],
    'v1/Service': ['kubernetes-models/v1', 'Service'],
    'v1/ConfigMap': ['kubernetes-models/v1', 'ConfigMap'],
    'apps/v1/Deployment': ['kubernetes-models/apps/v1', 'Deployment'],
    'apps/v1/StatefulSet': ['kubernetes-models/apps/v1', 'StatefulSet'],
    'autoscaling/v2/HorizontalPodAutoscaler': ['kubernetes-models/autoscaling/v2', 'HorizontalPodAutoscaler'],
    'policy/v1/PodDisruptionBudget': ['kubernetes-models/policy/v1', 'PodDisruptionBudget'],
    'networking.k8s.io/v1/Ingress': ['kubernetes-models/networking.k8s.io/v1', 'Ingress'],
  };
  const found = models[`${apiVersion}/${kind}`];
  if (!found) return null;
  const module = await import(found[0]);
  return module[found[1]];
}

/**
 * @param {Record<string, string> | undefined} selector
 * @param {Record<string, string> | undefined} labels
 */
const selects = (selector, labels) =>
  Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value) &&
  Object.keys(selector ?? {}).length > 0;

/**
 * Problems of the rendered objects: Kubernetes' schema of each kind, then what Outpost needs (probes on its health
 * routes, Secret references that resolve (or name one of `external`, the Secrets made outside the chart), HPAs and PDBs that reach Deployments' pods, an Ingress that streams).
 */
/**
 * @param {RenderedObject[]} objects
 * @param {{ external?: string[] }} [options]
 * @returns {Promise<string[]>}
 */
export async function checkManifests(objects, { external = [] } = {}) {
  /** @type {string[]} */
  const problems = [];
  /** @param {string} kind */
  const byKind = (kind) => objects.map((o) => o.object).filter((o) => o.kind === kind);
  const names = new Set();
  for (const { source, object } of objects) {
    const id = `${object.kind}/${object.metadata?.name}`;
    if (names.has(id)) problems.push(`${id}: rendered twice`);
    names.add(id);
    const Model = await modelFor(object.apiVersion, object.kind);
    if (!Model) {
      problems.push(`${source}: ${object.apiVersion} ${object.kind} has no schema here`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      problems.push(`${id} (${source}) against Kubernetes' schema: ${/** @type {Error} */ (error).message}`);
    }
  }

  const secrets = new Map(byKind('Secret').map((s) => [s.metadata.name, s]));
  const workloads = [...byKind('Deployment'), ...byKind('StatefulSet')];
  for (const workload of workloads) {
    const id = `${workload.kind}/${workload.metadata.name}`;
    const pod = workload.spec?.template;
    if (!selects(workload.spec?.selector?.matchLabels, pod?.metadata?.labels))
      problems.push(`${id}: its selector does not select its own pods`);
    const containers = pod?.spec?.containers ?? [];
    for (const container of containers) {
      const port = (/** @type {string} */ name) =>
        container.ports?.find((/** @type {Manifest} */ p) => p.name === name);
      for (const [probe, path] of [
        ['livenessProbe', '/health/live'],
        ['readinessProbe', '/health/ready'],
      ]) {
        const get = container[probe]?.httpGet;
        if (get?.path !== path)
          problems.push(`${id}: ${probe} must GET ${path}, not ${get?.path ?? 'nothing'}`);
        else if (typeof get.port === 'string' && !port(get.port))
          problems.push(`${id}: ${probe} names port ${get.port}, which the container does not have`);
      }
      const env = new Map((container.env ?? []).map((/** @type {Manifest} */ e) => [e.name, e]));
      for (const variable of env.values()) {
        const ref = variable.valueFrom?.secretKeyRef;
        if (!ref) continue;
        const secret = secrets.get(ref.name);
        if (!secret && !ref.optional && !external.includes(ref.name))
          problems.push(
            `${id}: ${variable.name} refers to Secret ${ref.name}, which is neither rendered nor existingSecret`,
          );
        if (
          secret &&
          !ref.optional &&
          !(ref.key in (secret.stringData ?? {}) || ref.key in (secret.data ?? {}))
        )
          problems.push(`${id}: ${variable.name} refers to key ${ref.key} that Secret ${ref.name} lacks`);
      }
      for (const mount of container.volumeMounts ?? [])
        if (
          !pod.spec.volumes?.some((/** @type {Manifest} */ v) => v.name === mount.name) &&
          !workload.spec.volumeClaimTemplates?.some(
            (/** @type {Manifest} */ c) => c.metadata?.name === mount.name,
          )
        )
          problems.push(`${id}: mounts volume ${mount.name}, which the pod does not have`);
      const surfaces = env.get('OUTPOST_SURFACES')?.value ?? '';
      const fleet = surfaces !== 'instance';
      if (fleet) {
        for (const required of ['OUTPOST_SECRET_KEY', 'DATABASE_URL'])
          if (!env.get(required)?.valueFrom?.secretKeyRef)
            problems.push(`${id}: ${required} must come from a Secret (secretKeyRef)`);
        const drain = Number(env.get('OUTPOST_DRAIN_DELAY_MS')?.value ?? 0);
        const grace = Number(env.get('OUTPOST_SHUTDOWN_GRACE_MS')?.value ?? 10_000);
        const period = pod.spec.terminationGracePeriodSeconds ?? 30;
        if (period * 1000 <= drain + grace)
          problems.push(
            `${id}: terminationGracePeriodSeconds ${period} s does not exceed the drain delay and shutdown grace (${drain + grace} ms)`,
          );
        // The endpoints drop a pod after failureThreshold failed probes; until then it must keep serving.
        const readiness = container.readinessProbe ?? {};
        const noticed = (readiness.periodSeconds ?? 10) * (readiness.failureThreshold ?? 3) * 1000;
        if (drain < noticed)
          problems.push(
            `${id}: OUTPOST_DRAIN_DELAY_MS ${drain} is shorter than the ${noticed} ms the readiness probe takes to notice a drain`,
          );
      }
    }
  }

  const configMaps = new Set(byKind('ConfigMap').map((c) => c.metadata.name));
  for (const workload of workloads)
    for (const volume of workload.spec.template.spec.volumes ?? [])
      if (volume.configMap && !configMaps.has(volume.configMap.name))
        problems.push(
          `${workload.kind}/${workload.metadata.name}: volume ${volume.name} needs ConfigMap ${volume.configMap.name}, which is not rendered`,
        );

  const deployments = byKind('Deployment');
  for (const hpa of byKind('HorizontalPodAutoscaler')) {
    const ref = hpa.spec.scaleTargetRef;
    const target = deployments.find((d) => d.metadata.name === ref.name);
    if (ref.kind !== 'Deployment' || !target)
      problems.push(
        `HorizontalPodAutoscaler/${hpa.metadata.name}: targets ${ref.kind}/${ref.name}, not a rendered Deployment`,
      );
    const cpu = hpa.spec.metrics?.find(
      (/** @type {Manifest} */ m) => m.type === 'Resource' && m.resource?.name === 'cpu',
    );
    if (cpu?.resource?.target?.type !== 'Utilization')
      problems.push(`HorizontalPodAutoscaler/${hpa.metadata.name}: no CPU utilisation target`);
    if (
      target &&
      !target.spec.template.spec.containers.every((/** @type {Manifest} */ c) => c.resources?.requests?.cpu)
    )
      problems.push(
        `HorizontalPodAutoscaler/${hpa.metadata.name}: its Deployment's containers request no CPU`,
      );
    if (target && target.spec.replicas !== undefined)
      problems.push(`Deployment/${target.metadata.name}: sets replicas while an HPA scales it`);
  }
  for (const pdb of byKind('PodDisruptionBudget')) {
    const selector = pdb.spec.selector?.matchLabels;
    if (!workloads.some((w) => selects(selector, w.spec.template.metadata.labels)))
      problems.push(`PodDisruptionBudget/${pdb.metadata.name}: selects no rendered pods`);
  }

  const services = byKind('Service');
  for (const service of services) {
    if (!workloads.some((w) => selects(service.spec.selector, w.spec.template.metadata.labels)))
      problems.push(`Service/${service.metadata.name}: selects no rendered pods`);
  }
  for (const ingress of byKind('Ingress')) {
    const id = `Ingress/${ingress.metadata.name}`;
    const annotations = ingress.metadata.annotations ?? {};
    const nginx = (/** @type {string} */ key) => annotations[`nginx.ingress.kubernetes.io/${key}`];
    if (nginx('proxy-buffering') !== 'off') problems.push(`${id}: proxy-buffering must be "off" (SSE)`);
    if (nginx('proxy-request-buffering') !== 'off')
      problems.push(`${id}: proxy-request-buffering must be "off"`);
    for (const key of ['proxy-read-timeout', 'proxy-send-timeout'])
      if (!(Number(nginx(key)) >= 300)) problems.push(`${id}: ${key} must be at least 300 s for streams`);
    const paths = (ingress.spec.rules ?? []).flatMap(
      (/** @type {Manifest} */ rule) => rule.http?.paths ?? [],
    );
    for (const path of paths) {
      const backend = path.backend?.service;
      const service = services.find((s) => s.metadata.name === backend?.name);
      if (!service)
        problems.push(`${id}: ${path.path} goes to Service ${backend?.name}, which is not rendered`);
      else if (
        backend.port?.name &&
        !service.spec.ports.some((/** @type {Manifest} */ p) => p.name === backend.port.name)
      )
        problems.push(
          `${id}: ${path.path} names port ${backend.port.name} that Service ${service.metadata.name} lacks`,
        );
    }
    // Where ingress-nginx sends a request: the longest Prefix path that is a whole-segment prefix of it.
    const route = (/** @type {string} */ url) =>
      paths
        .filter(
          (/** @type {Manifest} */ p) => p.pathType === 'Prefix' || p.pathType === 'ImplementationSpecific',
        )
        .filter(
          (/** @type {Manifest} */ p) =>
            p.path === '/' || url === p.path || url.startsWith(`${p.path.replace(/\/$/, '')}/`),
        )
        .sort((/** @type {Manifest} */ a, /** @type {Manifest} */ b) => b.path.length - a.path.length)[0];
    const surfacesBehind = (/** @type {string} */ serviceName) => {
      const service = services.find((s) => s.metadata.name === serviceName);
      const pods = workloads.filter(
        (w) => service && selects(service.spec.selector, w.spec.template.metadata.labels),
      );
      return pods.flatMap((w) =>
        w.spec.template.spec.containers.flatMap((/** @type {Manifest} */ c) =>
          (c.env?.find((/** @type {Manifest} */ e) => e.name === 'OUTPOST_SURFACES')?.value ?? '').split(','),
        ),
      );
    };
    for (const [url, surface] of [
      ['/console', 'console'],
      ['/console/api/orgs', 'console'],
      ['/web/console/main.js', 'console'],
      ['/favicon.ico', 'console'],
      ['/inference/v1/chat/completions', 'inference'],
    ]) {
      const path = route(url);
      if (!path) problems.push(`${id}: no route for ${url}`);
      else if (!surfacesBehind(path.backend?.service?.name).includes(surface))
        problems.push(
          `${id}: ${url} goes to Service ${path.backend?.service?.name}, whose pods do not serve ${surface}`,
        );
    }
  }
  return problems;
}
