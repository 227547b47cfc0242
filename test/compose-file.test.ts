import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../src/config.ts'
import { composeDurationMs, interpolate, readComposeServices } from '../scripts/compose-file.ts'

/*
 * compose.yaml as an operator meets it (scripts/compose-test.sh runs it with podman): these are
 * the mistakes a first reading found in it, each pinned down.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const services = readComposeServices(ROOT, {})
const apiNames = Object.keys(services).filter((name) => /^api-\d+$/.test(name))
const caddyfile = readFileSync(new URL('../Caddyfile', import.meta.url), 'utf8')
/** src/server.ts's SHUTDOWN_GRACE_MS: how long in-flight answers get once a replica stops accepting. */
const SHUTDOWN_GRACE_MS = 10_000

/* eslint-disable no-template-curly-in-string -- Compose's ${...}, not template literals */
test('interpolation as Compose does it, nested defaults included', () => {
  assert.equal(interpolate('${A:-x}/${B-y}/${C}', { A: '', B: '' }), 'x//')
  assert.equal(interpolate('${PUBLIC_URL:-http://localhost:${PORT:-3000}}', { PORT: '8080' }), 'http://localhost:8080')
  assert.equal(composeDurationMs('1m30s'), 90_000)
})
/* eslint-enable no-template-curly-in-string */

test('two replicas of one image, built once', () => {
  assert.ok(apiNames.length >= 2, `replicas: ${apiNames.join(', ')}`)
  const images = new Set(apiNames.map((name) => services[name]!.image))
  assert.equal(images.size, 1, 'every replica runs the same image')
  assert.equal(Object.values(services).filter((service) => service.build !== undefined).length, 1, 'one service builds it')
})

test('PUBLIC_URL follows the published port, and an explicit one wins', () => {
  for (const name of apiNames) {
    assert.equal(readComposeServices(ROOT, { PORT: '8080' })[name]!.environment!.PUBLIC_URL, 'http://localhost:8080')
    assert.equal(readComposeServices(ROOT, { PORT: '8080', PUBLIC_URL: 'https://enem.example.org' })[name]!.environment!.PUBLIC_URL, 'https://enem.example.org')
  }
  assert.deepEqual(readComposeServices(ROOT, { PORT: '8080' }).proxy!.ports, ['8080:3000'])
})

test('every image from a registry is pinned to a full version', () => {
  for (const [name, service] of Object.entries(services)) {
    if (service.build !== undefined || apiNames.includes(name)) continue
    assert.match(service.image ?? '', /^[\w./-]+:\d+\.\d+\.\d+(-[\w.]+)?$/, `${name}: ${service.image}`)
  }
})

test('start order waits for health: Redis healthy before the replicas, both replicas healthy before the proxy', () => {
  for (const name of apiNames) {
    assert.deepEqual(services[name]!.depends_on, { redis: { condition: 'service_healthy' } }, name)
    assert.ok(services[name]!.healthcheck?.test.join(' ').includes('/readyz'), `${name} is healthy when /readyz is`)
  }
  assert.deepEqual(services.proxy!.depends_on, Object.fromEntries(apiNames.map((name) => [name, { condition: 'service_healthy' }])))
  assert.ok(services.redis!.healthcheck !== undefined, 'redis has a health check')
})

test('a replica stopped by Compose gets its drain delay and the grace for answers in flight before SIGKILL', () => {
  for (const name of apiNames) {
    const config = loadConfig({ ...services[name]!.environment as Record<string, string>, ENEM_DATA_DIR: '' })
    const grace = composeDurationMs(services[name]!.stop_grace_period ?? '10s')
    assert.ok(grace >= config.shutdownDrainMs + SHUTDOWN_GRACE_MS, `${name}: stop_grace_period ${grace} ms, drain ${config.shutdownDrainMs} ms + ${SHUTDOWN_GRACE_MS} ms`)
  }
})

test('the proxy health-checks /readyz more often than the drain delay lasts, retries on the other replica, and knows every replica', () => {
  assert.ok(services.proxy!.volumes!.includes('./Caddyfile:/etc/caddy/Caddyfile:ro'), 'the Caddyfile is the proxy\'s configuration')
  assert.match(String(services.proxy!.command), /--config \/etc\/caddy\/Caddyfile/)
  assert.match(caddyfile, /^\s*health_uri \/readyz$/m)
  const interval = composeDurationMs(/^\s*health_interval (\S+)$/m.exec(caddyfile)?.[1] ?? '30s')
  const drain = loadConfig({ ...services[apiNames[0]!]!.environment as Record<string, string>, ENEM_DATA_DIR: '' }).shutdownDrainMs
  assert.ok(interval * 2 <= drain, `health checks every ${interval} ms, drain ${drain} ms`)
  assert.ok(composeDurationMs(/^\s*lb_try_duration (\S+)$/m.exec(caddyfile)?.[1] ?? '0s') > 0, 'retries')
  const upstreams = /reverse_proxy \{\$API_UPSTREAMS:([^}]*)\}/.exec(caddyfile)?.[1]?.split(' ')
  assert.deepEqual(upstreams, apiNames.map((name) => `${name}:3000`))
})

test('the dataset is mounted read-only, and compose.yaml and docs/operations.md say it must be readable by uid 1000', () => {
  for (const name of apiNames) assert.ok(services[name]!.volumes!.some((volume) => volume.endsWith(':/data:ro')), name)
  assert.ok(/readable[^\n]*\n?[^\n]*uid 1000/.test(readFileSync(new URL('../compose.yaml', import.meta.url), 'utf8')), 'compose.yaml says so')
  assert.ok(/readable by uid 1000/.test(readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8')), 'docs/operations.md says so')
})
