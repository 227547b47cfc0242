/**
 * Memory of the in-memory rate-limit store under a flood of distinct client addresses: builds
 * the app as the server does (sample dataset, RATE_LIMIT_MAX=600 unless set), sends requests
 * from N different addresses through inject, and prints the process's memory along the way.
 * The store is an LRU of LOCAL_STORE_MAX_CLIENTS entries, so memory must level off once that
 * many clients have been seen, however many more come.
 *
 *   npx tsx bench/rate-limit-memory.ts [clients=200000]
 *   RATE_LIMIT_MAX=0 npx tsx bench/rate-limit-memory.ts   # the same flood without limiting, for comparison
 *   node --expose-gc --import tsx bench/rate-limit-memory.ts   # with a full GC before each reading
 *   HOSTILE=1 node --expose-gc --import tsx bench/rate-limit-memory.ts 120000
 *     # the worst case: IPv6 clients (the longest keys: /64 prefixes), each sending a distinct
 *     # 16 KB X-Forwarded-For with TRUST_PROXY=true (it must not become the key)
 */
import Fastify from 'fastify'
import { app, serverOptions } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { loadDataset } from '../src/data/dataset/load-dataset.ts'
import { LOCAL_STORE_MAX_CLIENTS } from '../src/http/rate-limit/memory-counter-store.ts'

const clients = Number(process.argv[2] ?? 200_000)
const hostile = process.env.HOSTILE === '1'
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', ENEM_DATA_DIR: '', REDIS_URL: '', TRUST_PROXY: hostile ? 'true' : '' })
const dataset = await loadDataset(config.dataDir, { filesBaseUrl: `${config.publicUrl}/files` })
if (dataset.catalog === null) throw new Error(dataset.report.summaryLine())
const fastify = Fastify(serverOptions(config))
await fastify.register(app, { config, catalog: dataset.catalog, servableFiles: dataset.servableFiles })
await fastify.ready()

/**
 * Lets the event loop run its check phase. Awaiting inject() in a tight loop resolves through
 * microtasks only, so the setImmediate callbacks each injected response schedules would pile up,
 * holding every request and reply, and the readings would measure that queue instead of the store.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
async function reading (label: string): Promise<void> {
  await yieldToEventLoop()
  globalThis.gc?.()
  const { rss, heapUsed } = process.memoryUsage()
  console.log(`${label.padEnd(22)} rss ${megabytes(rss).padStart(9)}   heap used ${megabytes(heapUsed).padStart(9)}`)
}

/** The i-th of 2^24 distinct IPv4 addresses, 10.0.0.0/8; or, HOSTILE, of IPv6 addresses in as many /64s, with the longest keys. */
const address = hostile
  ? (i: number) => `2001:db8f:${(0x8000 + (i >>> 12)).toString(16)}:${(0xf000 + (i & 0xfff)).toString(16)}::1`
  : (i: number) => `10.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`
/** HOSTILE: a distinct 16 KB header per client. */
const headers = (i: number) => hostile ? { 'x-forwarded-for': `${i}-${'x'.repeat(16 * 1024)}` } : {}

console.log(`rate limit ${config.rateLimit.max === 0 ? 'off' : `${config.rateLimit.max} per ${config.rateLimit.windowMs} ms`}, ` +
  `store bound ${LOCAL_STORE_MAX_CLIENTS} clients, ${clients} distinct clients${hostile ? ' (IPv6, 16 KB X-Forwarded-For each)' : ''}, gc ${globalThis.gc === undefined ? 'not exposed' : 'before each reading'}`)
// Warm up on one address so JIT and the prepared bodies are not counted as the store's.
for (let i = 0; i < 2_000; i++) await fastify.inject({ url: '/v1/exams', remoteAddress: '192.0.2.1' })
await reading('before the flood')
const startedAt = performance.now()
const step = Math.max(1, Math.floor(clients / 8))
for (let i = 0; i < clients; i++) {
  const response = await fastify.inject({ url: '/v1/exams', remoteAddress: address(i), headers: headers(i) })
  if (response.statusCode !== 200) throw new Error(`client ${i}: status ${response.statusCode}`)
  if (i % 1_000 === 0) await yieldToEventLoop()
  if ((i + 1) % step === 0) await reading(`after ${i + 1} clients`)
}
console.log(`${clients} requests in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`)
await fastify.close()
