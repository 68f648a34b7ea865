// The deployment files, checked by what can run here (no container daemon): the kustomize base rendered by kubectl and
// its objects checked (probes, non-root, resources, disruption budgets, and the KEDA scaler's query equal to the one
// the service uses), and compose.yaml read as Compose would.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import { UNFINISHED_JOBS_SQL } from '../../server/src/jobs/job-repository.js';

type Json = Record<string, any>;
const root = new URL('../..', import.meta.url).pathname;
const envExample = readFileSync(`${root}.env.example`, 'utf8');
const listed = (name: string) => new RegExp(`^${name}=`, 'm').test(envExample);

describe('the Kubernetes base (kubectl kustomize deploy/kubernetes/base)', () => {
  let objects: Json[];
  const one = (kind: string, name: string) => {
    const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
    if (!found) throw new Error(`no ${kind} ${name} in the render`);
    return found;
  };
  beforeAll(() => {
    const rendered = execFileSync('kubectl', ['kustomize', `${root}deploy/kubernetes/base`], { encoding: 'utf8' });
    objects = parseAllDocuments(rendered).map((d) => d.toJSON() as Json);
  });

  it('renders the API and the workers: Deployments, a Service, disruption budgets, a ScaledObject and its authentication', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`).sort()).toEqual([
      'ConfigMap/docextract-config', 'Deployment/docextract-api', 'Deployment/docextract-worker', 'PodDisruptionBudget/docextract-api',
      'PodDisruptionBudget/docextract-worker', 'ScaledObject/docextract-worker', 'Service/docextract-api', 'TriggerAuthentication/docextract-worker-postgres',
    ]);
  });

  it.each([
    ['docextract-api', 'server/dist/main.js', 'http', 8080],
    ['docextract-worker', 'server/dist/worker.js', 'probes', 8081],
  ])('%s runs %s as a non-root user, with requests, limits and probes on /healthz and /readyz', (name, script, portName, port) => {
    const deployment = one('Deployment', name);
    const pod = deployment.spec.template.spec;
    expect(deployment.spec.selector.matchLabels).toEqual(expect.objectContaining(deployment.spec.template.metadata.labels['app.kubernetes.io/name'] ? { 'app.kubernetes.io/name': name } : {}));
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    const [container] = pod.containers;
    expect(container.command).toEqual(['node', '--enable-source-maps', script]);
    expect(existsSync(`${root}${script}`)).toBe(true);
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits.memory).toEqual(expect.any(String));
    expect(container.ports).toEqual([{ name: portName, containerPort: port }]);
    for (const probe of ['startupProbe', 'livenessProbe']) expect(container[probe].httpGet).toEqual({ path: '/healthz', port: portName });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: portName });
    // Configuration from the ConfigMap and the operator's Secret; every variable is one the service documents.
    expect(container.envFrom).toEqual([{ configMapRef: { name: expect.stringMatching(/^docextract-config-/) } }, { secretRef: { name: 'docextract-secrets' } }]);
    for (const e of container.env ?? []) expect(listed(e.name)).toBe(true);
    const budget = one('PodDisruptionBudget', name);
    expect(budget.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': name });
  });

  it('runs no worker in the API pods, and the Service reaches them on the port their probes use', () => {
    const api = one('Deployment', 'docextract-api').spec.template;
    expect(api.spec.containers[0].env).toEqual([{ name: 'START_WORKER', value: 'false' }]);
    const service = one('Service', 'docextract-api');
    expect(service.spec.selector).toEqual({ 'app.kubernetes.io/name': 'docextract-api' });
    expect(service.spec.ports[0].targetPort).toBe('http');
  });

  it('scales the workers with KEDA\'s PostgreSQL scaler on the query the service uses, a worker per JOB_CONCURRENCY jobs', () => {
    const scaled = one('ScaledObject', 'docextract-worker');
    expect(scaled.apiVersion).toBe('keda.sh/v1alpha1');
    expect(scaled.spec.scaleTargetRef).toEqual({ name: 'docextract-worker' });
    expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    const [trigger] = scaled.spec.triggers;
    expect(trigger.type).toBe('postgresql');
    expect(trigger.metadata.query).toBe(UNFINISHED_JOBS_SQL);
    const config = objects.find((o) => o.kind === 'ConfigMap')!.data as Record<string, string>;
    expect(trigger.metadata.targetQueryValue).toBe(config.JOB_CONCURRENCY);
    const auth = one('TriggerAuthentication', trigger.authenticationRef.name);
    expect(auth.spec.secretTargetRef).toEqual([{ parameter: 'connection', name: 'docextract-secrets', key: 'DATABASE_URL' }]);
    for (const name of Object.keys(config)) expect([name, listed(name)]).toEqual([name, true]);
  });
});

describe('deploy/compose.yaml', () => {
  const compose = parse(readFileSync(`${root}deploy/compose.yaml`, 'utf8'), { merge: true }) as Json;

  it('runs PostgreSQL, the API (no worker) and workers from the image deploy/Dockerfile builds, each with a health check', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'postgres', 'worker']);
    for (const name of ['api', 'worker']) {
      const s = compose.services[name];
      expect(existsSync(`${root}deploy/${s.build.context}/${s.build.dockerfile}`)).toBe(true);
      expect(s.environment.NODE_ENV).toBe('production');
      expect(s.environment.DATABASE_URL).toMatch(/^postgresql:\/\/.*@postgres:5432\//);
      expect(s.depends_on.postgres.condition).toBe('service_healthy');
      expect(s.healthcheck.test.join(' ')).toContain('/readyz');
    }
    expect(compose.services.api.environment.START_WORKER).toBe('false');
    expect(compose.services.api.command).toEqual(['node', '--enable-source-maps', 'server/dist/main.js']);
    expect(compose.services.worker.command).toEqual(['node', '--enable-source-maps', 'server/dist/worker.js']);
    expect(compose.services.worker.deploy.replicas).toBeGreaterThanOrEqual(2);
    expect(compose.services.postgres.healthcheck.test.join(' ')).toContain('pg_isready');
  });
});
