// The deployment files, checked by what can run here (no container daemon): the kustomize base rendered by kubectl and
// its objects checked (probes, non-root, resources, disruption budgets, the API's autoscaler, shutdown timing, and the
// KEDA scaler's query equal to the one the service uses, run as the read-only role keda-role.sql makes), and
// compose.yaml read as Compose would.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { parse, parseAllDocuments } from 'yaml';
import { UNFINISHED_JOBS_SQL } from '../../server/src/jobs/job-repository.js';
import { DUE_DELIVERIES_SQL } from '../../server/src/webhooks/endpoint-repository.js';
import { createTestDatabase } from '../../server/test/support/databases.js';

type Json = Record<string, any>;
const root = new URL('../..', import.meta.url).pathname;
const envExample = readFileSync(`${root}.env.example`, 'utf8');
const listed = (name: string) => new RegExp(`^${name}=`, 'm').test(envExample);

/** A Kubernetes quantity in bytes (memory) or cores (cpu): 768Mi, 2Gi, 1.5G, 500m, "2". */
function quantity(q: string): number {
  const m = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(q));
  if (!m) throw new Error(`not a quantity: ${q}`);
  const scale: Record<string, number> = { m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return Number(m[1]) * (m[2] ? scale[m[2]]! : 1);
}

/** The worst case docs/files.md gives for the service and its reader processes together (defaults, on PostgreSQL). */
const FILES_WORST_CASE_BYTES = 1.5e9;
/** What main.ts and worker.ts allow beyond SHUTDOWN_TIMEOUT_MS before they exit whatever holds them. */
const SHUTDOWN_GRACE_S = 2;

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

  it('renders the API and the workers: Deployments, a Service, disruption budgets, an autoscaler, a ScaledObject and its authentication', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`).sort()).toEqual([
      'ConfigMap/docextract-config', 'Deployment/docextract-api', 'Deployment/docextract-worker', 'HorizontalPodAutoscaler/docextract-api',
      'PodDisruptionBudget/docextract-api', 'PodDisruptionBudget/docextract-worker', 'ScaledObject/docextract-worker', 'Service/docextract-api',
      'TriggerAuthentication/docextract-worker-postgres',
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
    // Neither calls the Kubernetes API: no service account token is mounted.
    expect(pod.automountServiceAccountToken).toBe(false);
  });

  it.each(['docextract-api', 'docextract-worker'])('%s may hold the documented worst case for files, and its CPU limit sizes the offline threads', (name) => {
    const [container] = one('Deployment', name).spec.template.spec.containers;
    const { requests, limits } = container.resources;
    expect(quantity(limits.memory)).toBeGreaterThanOrEqual(FILES_WORST_CASE_BYTES);
    expect(quantity(requests.memory)).toBeLessThanOrEqual(quantity(limits.memory));
    // A CPU limit: the service reads its cgroup's quota for OFFLINE_THREADS' default (server/src/host/usable-cores.ts),
    // so no OFFLINE_THREADS is set here to disagree with it.
    expect(quantity(limits.cpu)).toBeGreaterThanOrEqual(1);
    expect(quantity(requests.cpu)).toBeLessThanOrEqual(quantity(limits.cpu));
    const config = objects.find((o) => o.kind === 'ConfigMap')!.data as Record<string, string>;
    expect(config.OFFLINE_THREADS).toBeUndefined();
    expect((container.env ?? []).map((e: Json) => e.name)).not.toContain('OFFLINE_THREADS');
  });

  it.each(['docextract-api', 'docextract-worker'])('%s stops within its grace period: preStop, then SHUTDOWN_TIMEOUT_MS and the exit that follows it', (name) => {
    const pod = one('Deployment', name).spec.template.spec;
    const config = objects.find((o) => o.kind === 'ConfigMap')!.data as Record<string, string>;
    const preStop = pod.containers[0].lifecycle?.preStop;
    const sleep = preStop ? Number(preStop.exec.command[1]) : 0;
    if (preStop) expect(preStop.exec.command).toEqual(['sleep', String(sleep)]);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(sleep + Number(config.SHUTDOWN_TIMEOUT_MS) / 1000 + SHUTDOWN_GRACE_S);
  });

  it('drains the API\'s endpoints before SIGTERM (preStop), and lets an autoscaler set its pods, never fewer than its disruption budget needs', () => {
    const api = one('Deployment', 'docextract-api');
    expect(api.spec.replicas).toBeUndefined();
    const preStop = api.spec.template.spec.containers[0].lifecycle.preStop;
    expect(preStop.exec.command[0]).toBe('sleep');
    expect(Number(preStop.exec.command[1])).toBeGreaterThanOrEqual(3);
    const hpa = one('HorizontalPodAutoscaler', 'docextract-api');
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'docextract-api' });
    expect(hpa.spec.minReplicas).toBeGreaterThan(one('PodDisruptionBudget', 'docextract-api').spec.minAvailable);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    expect(hpa.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: expect.any(Number) } } }]);
    // Utilization is a share of the CPU request: there must be one.
    expect(api.spec.template.spec.containers[0].resources.requests.cpu).toEqual(expect.any(String));
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
    // Its own Secret and role (keda-role.sql), never the application's DATABASE_URL.
    const auth = one('TriggerAuthentication', trigger.authenticationRef.name);
    expect(auth.spec.secretTargetRef).toEqual([{ parameter: 'connection', name: 'docextract-keda-postgres', key: 'connection' }]);
    for (const name of Object.keys(config)) expect([name, listed(name)]).toEqual([name, true]);
  });

  it('adds workers for webhook deliveries due, a worker per WEBHOOK_CONCURRENCY, on the same role and Secret', () => {
    const scaled = one('ScaledObject', 'docextract-worker');
    const deliveries = scaled.spec.triggers[1];
    expect(deliveries.type).toBe('postgresql');
    expect(deliveries.metadata.query).toBe(DUE_DELIVERIES_SQL);
    const config = objects.find((o) => o.kind === 'ConfigMap')!.data as Record<string, string>;
    expect(deliveries.metadata.targetQueryValue).toBe(config.WEBHOOK_CONCURRENCY);
    expect(deliveries.authenticationRef).toEqual(scaled.spec.triggers[0].authenticationRef);
  });
});

const postgres = process.env.TEST_PG_URL ? describe : describe.skip;

postgres('the scaler\'s role (deploy/kubernetes/keda-role.sql) on a migrated database', () => {
  it('runs the ScaledObject\'s query, and can read nothing else nor write', async () => {
    const db = await createTestDatabase('postgres');
    const role = `keda_${randomBytes(4).toString('hex')}`;
    const owner = new pg.Client({ connectionString: db.databaseUrl });
    await owner.connect();
    try {
      // The file as written, for a role name of this test's own (roles belong to the whole cluster).
      await owner.query(readFileSync(`${root}deploy/kubernetes/keda-role.sql`, 'utf8').replaceAll('docextract_keda', role));
      await owner.query(`INSERT INTO accounts (id) VALUES ('acct_keda')`);
      const url = new URL(db.databaseUrl!);
      url.username = role;
      const scaler = new pg.Client({ connectionString: url.toString() });
      await scaler.connect();
      try {
        expect((await scaler.query(UNFINISHED_JOBS_SQL)).rows).toEqual([{ count: '0' }]);
        expect((await scaler.query(DUE_DELIVERIES_SQL)).rows).toEqual([{ count: '0' }]);
        const denied = async (sql: string) => (await scaler.query(sql).then(() => null, (e: { code?: string }) => e.code));
        expect(await denied('SELECT result FROM jobs')).toBe('42501');
        expect(await denied('SELECT event_id FROM webhook_deliveries')).toBe('42501');
        expect(await denied('SELECT payload FROM webhook_events')).toBe('42501');
        expect(await denied('SELECT * FROM jobs')).toBe('42501');
        expect(await denied('SELECT id FROM accounts')).toBe('42501');
        expect(await denied('SELECT hash FROM api_keys')).toBe('42501');
        expect(await denied('SELECT count(*) FROM pgboss.job')).toBe('42501');
        // Read-only by its session default, and without the privilege anyway.
        expect(await denied(`UPDATE jobs SET status = 'failed'`)).toMatch(/^(25006|42501)$/);
        expect(await denied(`DELETE FROM accounts`)).toMatch(/^(25006|42501)$/);
      } finally {
        await scaler.end();
      }
    } finally {
      await owner.end();
      await db.drop();
      const admin = new pg.Client({ connectionString: process.env.TEST_PG_URL });
      await admin.connect();
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    }
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

  it('says which Compose it needs: the long form of env_file (path, required) is Compose 2.24 and later', () => {
    const longForm = Object.values(compose.services as Record<string, Json>).some((s) => (s.env_file ?? []).some?.((e: unknown) => typeof e === 'object' && e !== null && 'required' in e));
    expect(longForm).toBe(true);
    expect(readFileSync(`${root}docs/deploy.md`, 'utf8')).toContain('It needs Docker Compose 2.24 or later');
  });
});
