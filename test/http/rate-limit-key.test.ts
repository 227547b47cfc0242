import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { IncomingMessage } from 'node:http'
import { isIP, type AddressInfo } from 'node:net'
import v8 from 'node:v8'
import vm from 'node:vm'
import Fastify from 'fastify'
import { clientAddress, rateLimitKey, trustProxyFunction } from '../../src/http/client-address.ts'
import { installErrorHandling } from '../../src/http/plugins/error-handling.ts'
import { rateLimit } from '../../src/http/plugins/rate-limit.ts'
import { LOCAL_STORE_MAX_HEAP_BYTES, MemoryCounterStore } from '../../src/http/rate-limit/memory-counter-store.ts'
import { buildTestApp } from '../helper.ts'

/*
 * The rate-limit key is only ever an IP address: a client behind a trusted proxy chain cannot make
 * the limiter keep a key of its own making (kilobytes of X-Forwarded-For text, each one distinct),
 * which cost memory by the gigabyte and, past V8's longest hashed string, a core's worth of CPU.
 */

/** A header value a client could send: ~16 KB, different for every `i`. */
const longHeader = (i: number) => `${i}-${'x'.repeat(16 * 1024)}`

test('both request paths key a garbage or 16 KB X-Forwarded-For by the socket address, and a valid one by its address', async (t) => {
  const app = await buildTestApp({ RATE_LIMIT_MAX: '3', TRUST_PROXY: 'true' })
  t.after(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  const get = async (path: string, forwardedFor: string) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'x-forwarded-for': forwardedFor } })
    await response.arrayBuffer()
    return response
  }

  // Every value different, none an address: on the fast path ('/v1/exams') they are all the one
  // socket address, with one quota.
  const values = [longHeader(1), 'garbage', longHeader(2), '999.999.999.999', `${longHeader(3)}, 198.51.100.1`]
  const statuses: number[] = []
  for (const value of values) statuses.push((await get('/v1/exams', value)).status)
  assert.deepEqual(statuses, [200, 200, 200, 429, 429])
  // Fastify's routes (a percent-escape in the query sends the request there) key it the same way.
  assert.equal((await get('/v1/exams?x=%41', longHeader(4))).status, 429)

  // A real address forwarded through the trusted chain is its own client, on both paths.
  for (const path of ['/v1/exams', '/v1/exams?x=%41']) {
    const fresh = await get(path, `198.51.100.${path.length}`)
    assert.equal(fresh.status, 200)
    assert.equal(fresh.headers.get('ratelimit-remaining'), '2')
  }
})

test('the store keeps only addresses: 16 KB headers from many clients leave keys of address length', async (t) => {
  const app = Fastify({ trustProxy: trustProxyFunction(true) })
  installErrorHandling(app, 'http://api.test')
  await app.register(rateLimit, { max: 1_000, windowMs: 60_000 })
  app.get('/counted', async () => ({ ok: true }))
  await app.ready()
  t.after(() => app.close())
  const store = app.requestCounter.store
  assert.ok(store instanceof MemoryCounterStore)

  for (let i = 0; i < 200; i++) {
    const remoteAddress = `10.0.${i >> 8}.${i & 255}`
    const response = await app.inject({ url: '/counted', remoteAddress, headers: { 'x-forwarded-for': longHeader(i) } })
    assert.equal(response.statusCode, 200)
  }
  const keys = store.keys()
  assert.equal(keys.length, 200, 'one key per socket address')
  for (const key of keys) assert.ok(isIP(key) !== 0 && key.length <= 15, `an address, not ${key.slice(0, 40)}...`)
})

test('the fast path\'s key function agrees: clientAddress falls back to the socket for anything but an address', () => {
  const request = (remoteAddress: string, forwardedFor: string) => ({ socket: { remoteAddress }, headers: { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage
  for (const trust of [trustProxyFunction(true), trustProxyFunction(2), trustProxyFunction('127.0.0.1/8')]) {
    assert.equal(clientAddress(request('127.0.0.1', longHeader(1)), trust), '127.0.0.1')
    assert.equal(clientAddress(request('127.0.0.1', 'garbage'), trust), '127.0.0.1')
    assert.equal(clientAddress(request('127.0.0.1', '203.0.113.7'), trust), '203.0.113.7')
  }
  assert.equal(rateLimitKey('2001:db8:1:2:3:4:5:6'), rateLimitKey('2001:db8:1:2:ffff::1'), 'IPv6 by /64')
})

test('the in-memory store stays under its documented heap bound with 16 KB headers', async (t) => {
  v8.setFlagsFromString('--expose-gc')
  const gc = vm.runInNewContext('gc') as () => void
  // Kept as keys, their headers alone would take 80 MB; the whole store, full, takes less than its bound.
  const clients = 5_000
  const bound = LOCAL_STORE_MAX_HEAP_BYTES
  const app = Fastify({ trustProxy: trustProxyFunction(true) })
  await app.register(rateLimit, { max: 1_000, windowMs: 60_000 })
  app.get('/counted', async () => ({ ok: true }))
  await app.ready()
  t.after(() => app.close())
  const fill = async (from: number) => {
    for (let i = from; i < from + clients; i++) {
      const remoteAddress = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
      await app.inject({ url: '/counted', remoteAddress, headers: { 'x-forwarded-for': longHeader(i) } })
      if (i % 500 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    await new Promise((resolve) => setImmediate(resolve))
    gc()
    return process.memoryUsage().heapUsed
  }
  // A first round warms up (JIT, inject's own structures); the second one is what the store adds.
  const before = await fill(0)
  const after = await fill(clients)
  const grown = after - before
  assert.ok(grown < bound, `the store grew by ${grown} bytes for ${clients} clients; documented bound ${Math.round(bound)}`)
})
