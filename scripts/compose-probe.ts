import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { composeDurationMs, readComposeServices, type ComposeService } from './compose-file.ts'

/*
 * The podman half of scripts/compose-test.sh: starts compose.yaml's services in its start order
 * (each waiting for the health of what it depends on), as the file defines them, with what this
 * sandbox changes said where it is done: the host's network, so each compose name becomes a
 * loopback port, and the proxy (127.0.0.1 here, not a private address) is what TRUST_PROXY names.
 * Then checks one rate limit across the replicas, and a replica drained under load with no error
 * at the proxy. The shell script removes the containers.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const { APP_IMAGE, SERVICES_IMAGE, CONTAINER_PREFIX, DATA_DIR, PODMAN_RUN_FLAGS } = process.env
if (APP_IMAGE === undefined || SERVICES_IMAGE === undefined || CONTAINER_PREFIX === undefined || DATA_DIR === undefined || PODMAN_RUN_FLAGS === undefined) {
  throw new Error('run through scripts/compose-test.sh')
}
const RATE_LIMIT_MAX = 300
const started = Date.now()
const log = (message: string) => console.log(`[compose-probe ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${message}`)

function podman (args: string[]): string {
  const result = spawnSync('podman', args, { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`podman ${args.slice(0, 3).join(' ')}: ${result.stderr.trim()}`)
  return result.stdout.trim()
}

function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    }).on('error', reject)
  })
}

/** A Compose `command` string as argv (double quotes group, `""` is an empty argument). */
function commandWords (command: string | string[]): string[] {
  if (Array.isArray(command)) return command
  return [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!)
}

const containerName = (service: string) => `${CONTAINER_PREFIX}-${service}`

interface Run {
  image: string
  env?: Record<string, string | number>
  command?: string[]
  healthcheck?: string[]
}

/** `podman run` of one compose service: its volumes (host paths from the repository), health check and stop grace period. */
function runService (name: string, service: ComposeService, run: Run): void {
  const args = ['run', '-d', '--name', containerName(name), ...PODMAN_RUN_FLAGS!.split(' ')]
  for (const [key, value] of Object.entries(run.env ?? {})) args.push('-e', `${key}=${value}`)
  for (const volume of service.volumes ?? []) {
    const [host, ...rest] = volume.split(':')
    args.push('-v', [path.resolve(ROOT, host!), ...rest].join(':'))
  }
  if (run.healthcheck !== undefined) {
    assert.equal(run.healthcheck[0], 'CMD', `${name}: an exec-form health check`)
    // Podman runs checks on systemd timers, which this sandbox lacks: each is run below by hand.
    args.push('--health-cmd', JSON.stringify(run.healthcheck.slice(1)), '--health-interval', 'disable')
  }
  if (service.stop_grace_period !== undefined) args.push('--stop-timeout', String(composeDurationMs(service.stop_grace_period) / 1000))
  args.push(run.image, ...(run.command ?? []))
  podman(args)
}

/** Runs the service's health check until it passes: Compose's `condition: service_healthy`. */
async function waitHealthy (name: string, withinMs = 90_000): Promise<void> {
  const until = Date.now() + withinMs
  while (Date.now() < until) {
    if (spawnSync('podman', ['healthcheck', 'run', containerName(name)]).status === 0) return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`${name} was not healthy within ${withinMs / 1000} s:\n${spawnSync('podman', ['logs', '--tail', '20', containerName(name)], { encoding: 'utf8' }).stderr}`)
}

const ports = { proxy: await freePort(), redis: await freePort(), 'api-1': await freePort(), 'api-2': await freePort() }
const proxyBase = `http://127.0.0.1:${ports.proxy}`
// What an operator would put in .env; compose.yaml interpolates the rest.
const services = readComposeServices(ROOT, { PORT: String(ports.proxy), PUBLIC_URL: proxyBase, ENEM_DATA_DIR: DATA_DIR, RATE_LIMIT_MAX: String(RATE_LIMIT_MAX), RATE_LIMIT_WINDOW: '1m' })
const apiNames = Object.keys(services).filter((name) => /^api-\d+$/.test(name))
assert.deepEqual(apiNames, ['api-1', 'api-2'])

// Start order: compose.yaml's depends_on, each waiting for health (test/compose-file.test.ts pins it).
const redis = services.redis!
runService('redis', redis, {
  image: SERVICES_IMAGE,
  command: [...commandWords(redis.command!), '--port', String(ports.redis), '--bind', '127.0.0.1'],
  healthcheck: [...redis.healthcheck!.test, '-p', String(ports.redis)]
})
await waitHealthy('redis')
log(`redis healthy on 127.0.0.1:${ports.redis}`)

for (const name of apiNames) {
  const service = services[name]!
  runService(name, service, {
    image: APP_IMAGE,
    env: {
      ...service.environment,
      REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
      HOST: '127.0.0.1',
      PORT: ports[name as 'api-1' | 'api-2'],
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'info'
    },
    // The health check asks 127.0.0.1:$PORT, which is this replica's port here too.
    healthcheck: service.healthcheck!.test
  })
}
await Promise.all(apiNames.map((name) => waitHealthy(name)))
log(`replicas healthy on ports ${apiNames.map((name) => ports[name as 'api-1' | 'api-2']).join(', ')}`)

const proxy = services.proxy!
runService('proxy', proxy, {
  image: SERVICES_IMAGE,
  env: { API_UPSTREAMS: apiNames.map((name) => `127.0.0.1:${ports[name as 'api-1' | 'api-2']}`).join(' '), PROXY_PORT: ports.proxy, PROXY_BIND: '127.0.0.1' },
  command: commandWords(proxy.command!)
})
const proxyUntil = Date.now() + 30_000
while (!(await fetch(`${proxyBase}/readyz`).then((response) => response.ok, () => false))) {
  assert.ok(Date.now() < proxyUntil, `the proxy did not answer /readyz 200 within 30 s: ${spawnSync('podman', ['logs', containerName('proxy')], { encoding: 'utf8' }).stderr}`)
  await new Promise((resolve) => setTimeout(resolve, 250))
}
log(`proxy answering on ${proxyBase}`)

/** Each replica's access-log lines (JSON, one per request). */
function accessLog (name: string): Array<{ url?: string, statusCode?: number, ip?: string, msg?: string }> {
  const output = spawnSync('podman', ['logs', containerName(name)], { encoding: 'utf8' })
  return `${output.stdout}\n${output.stderr}`.split('\n').flatMap((line) => {
    try { return [JSON.parse(line)] } catch { return [] }
  })
}

// One limit across the replicas: the remaining count goes down by one per request, whichever
// replica answers, and the request after the last is refused.
for (let i = RATE_LIMIT_MAX - 1; i >= 0; i--) {
  const response = await fetch(`${proxyBase}/v1/exams`)
  assert.equal(response.status, 200)
  assert.equal(response.headers.get('ratelimit-remaining'), String(i))
  await response.arrayBuffer()
}
const refused = await fetch(`${proxyBase}/v1/exams`)
assert.equal(refused.status, 429)
assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/)
const servedBy = Object.fromEntries(apiNames.map((name) => [name, accessLog(name).filter((line) => line.url === '/v1/exams')]))
for (const name of apiNames) assert.ok(servedBy[name]!.length > 0, `${name} answered some of the ${RATE_LIMIT_MAX} requests`)
assert.ok(apiNames.every((name) => servedBy[name]!.every((line) => line.ip === '127.0.0.1')), 'each replica counted the client, not the proxy')
log(`one limit: ${RATE_LIMIT_MAX} requests answered 200 (${apiNames.map((name) => `${name} ${servedBy[name]!.filter((line) => line.statusCode === 200).length}`).join(', ')}), RateLimit-Remaining ${RATE_LIMIT_MAX - 1} down to 0 across both, then 429 (Retry-After ${refused.headers.get('retry-after')} s)`)

// A replica drained under load: clients on other loopback addresses (each its own quota) keep
// asking through the proxy while api-1 gets SIGTERM; every answer must be a 200.
const outcomes = { ok: 0, failed: [] as string[] }
const load = { running: true }
const clients = Array.from({ length: 8 }, async (_, i) => {
  const agent = new http.Agent({ keepAlive: true, localAddress: `127.0.0.${i + 2}` })
  while (load.running) {
    const status = await new Promise<string>((resolve) => {
      http.get(`${proxyBase}/v1/exams/2020/questions?limit=5`, { agent }, (response) => {
        response.resume().on('end', () => resolve(String(response.statusCode)))
      }).on('error', (error) => resolve(error.message))
    })
    if (status === '200') outcomes.ok++
    else outcomes.failed.push(status)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  agent.destroy()
})
await new Promise((resolve) => setTimeout(resolve, 1500))
const stopAt = Date.now()
const beforeStop = outcomes.ok
log('podman stop api-1 (SIGTERM) under load')
const stopped = spawn('podman', ['stop', containerName('api-1')], { stdio: 'ignore' })
await new Promise((resolve) => stopped.on('exit', resolve))
const stopMs = Date.now() - stopAt
await new Promise((resolve) => setTimeout(resolve, 2000))
load.running = false
await Promise.all(clients)
const exitCode = podman(['inspect', '--format', '{{.State.ExitCode}}', containerName('api-1')])
const api1 = accessLog('api-1')
const proxyErrors = spawnSync('podman', ['logs', containerName('proxy')], { encoding: 'utf8' }).stderr.split('\n').filter((line) => /"level":"error"/.test(line))
log(`drain: api-1 stopped in ${(stopMs / 1000).toFixed(1)} s with exit code ${exitCode}; ${outcomes.ok} requests through the proxy answered 200 (${outcomes.ok - beforeStop} after the SIGTERM), ${outcomes.failed.length} did not; ${proxyErrors.length} error lines in the proxy's log`)
assert.deepEqual(outcomes.failed, [], 'every request through the proxy answered 200')
assert.equal(exitCode, '0', 'api-1 exits 0 after SIGTERM')
assert.ok(api1.some((line) => line.msg === 'shutting down') && api1.some((line) => line.msg === 'stopped'), 'api-1 logged its drain and stop')
assert.deepEqual(proxyErrors, [], 'no error in the proxy\'s log')
log('passed')
