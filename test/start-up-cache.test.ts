import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { FULL_DATA_DIR } from './helper.ts'

/*
 * The start-up cache (CACHE_DIR, src/data/dataset/start-up-cache.ts) as production uses it: the
 * built server (dist/, where the search index's cache is on) started on the full dataset, stopped,
 * started again. The second start reads the search index and the export's compressed forms the
 * first one kept, and answers every request of the list byte for byte as the first did; a start
 * after the files were damaged makes them anew, and answers the same again.
 */

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Requests whose answers come from what the cache holds: searches (the index) and the export (its gzip parts and its br). */
const REQUESTS: Array<{ path: string, acceptEncoding: string }> = [
  { path: '/v1/questions?q=energia%20solar&limit=50', acceptEncoding: 'identity' },
  { path: '/v1/questions?q=%22%C3%B3leos%20essenciais%22', acceptEncoding: 'identity' },
  { path: '/v1/questions?q=fotoss%C3%ADntese&discipline=ciencias-natureza&limit=20&offset=5', acceptEncoding: 'identity' },
  { path: '/v1/questions/random?q=guerra&count=5&seed=7', acceptEncoding: 'identity' },
  { path: '/v1/export/questions.jsonl', acceptEncoding: 'gzip' },
  { path: '/v1/export/questions.jsonl', acceptEncoding: 'br' },
  { path: '/v1/export/questions.jsonl?year=2020', acceptEncoding: 'gzip' }
]

interface Started { port: number, lines: Array<{ msg?: string }>, stop: () => Promise<void> }

async function startServer (t: TestContext, cacheDir: string): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ENEM_DATA_DIR: FULL_DATA_DIR!, CACHE_DIR: cacheDir, WEB_CONCURRENCY: '1', RATE_LIMIT_MAX: '0', REDIS_URL: '', SHUTDOWN_DRAIN_DELAY: '0' }
  delete env.NODE_TEST_CONTEXT
  const child = spawn(process.execPath, ['dist/server.js'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] })
  t.after(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })
  const exit = once(child, 'exit')
  const lines: Array<{ msg?: string }> = []
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (text) => {
      try {
        const line = JSON.parse(text) as { msg?: string, port?: number }
        lines.push(line)
        if (line.msg === 'ready') resolve(Number(line.port))
      } catch {}
    })
    exit.then(([code]) => reject(new Error(`server exited (${code}) before it was ready`)), reject)
  })
  return {
    port,
    lines,
    stop: async () => {
      child.kill('SIGTERM')
      await exit
    }
  }
}

async function answer (port: number, target: string, acceptEncoding: string): Promise<{ status: number, etag: string | undefined, encoding: string | undefined, body: Buffer }> {
  return await new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path: target, headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, etag: response.headers.etag, encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }))
      response.on('error', reject)
    }).on('error', reject).end()
  })
}

async function answers (port: number): Promise<Array<Awaited<ReturnType<typeof answer>>>> {
  const all = []
  for (const { path: target, acceptEncoding } of REQUESTS) all.push(await answer(port, target, acceptEncoding))
  return all
}

const indexOrigin = (lines: Array<{ msg?: string }>) => lines.map((line) => line.msg).find((msg) => msg?.startsWith('search index '))

/** The cache's files once the index's is there: the worker writes it after handing the index over. */
async function cacheFiles (dir: string): Promise<string[]> {
  for (let waited = 0; waited < 30_000; waited += 100) {
    const names = await readdir(dir)
    if (names.some((name) => name.startsWith('search-index-') && name.endsWith('.bin'))) return names.filter((name) => name.endsWith('.bin'))
    await sleep(100)
  }
  throw new Error(`no search index file in ${dir}`)
}

test('a second start reads what the first kept in CACHE_DIR, and answers byte for byte the same; damaged files are made anew', { skip: FULL_DATA_DIR === undefined && 'ENEM_DATA_DIR is not set: the search index is cached only from 1,000 records' }, async (t) => {
  const built = spawnSync(process.execPath, ['scripts/ensure-build.js'], { cwd: REPO_ROOT, encoding: 'utf8' })
  assert.equal(built.status, 0, built.stderr)
  const cacheDir = await mkdtemp(path.join(tmpdir(), 'enem-start-up-cache-'))
  t.after(() => rm(cacheDir, { recursive: true, force: true }))

  const first = await startServer(t, cacheDir)
  assert.equal(indexOrigin(first.lines), 'search index built')
  const made = await answers(first.port)
  assert.deepEqual(made.map((one) => [one.status, one.encoding]), [[200, undefined], [200, undefined], [200, undefined], [200, undefined], [200, 'gzip'], [200, 'br'], [200, 'gzip']])
  await first.stop()
  const files = await cacheFiles(cacheDir)
  // The index, each exam's export part, and the whole export's br.
  assert.equal(files.filter((name) => name.startsWith('search-index-')).length, 1)
  assert.ok(files.filter((name) => name.startsWith('export-part-')).length >= 15, files.join(' '))
  assert.equal(files.filter((name) => name.startsWith('brotli-')).length, 1)

  const second = await startServer(t, cacheDir)
  assert.match(indexOrigin(second.lines)!, /^search index read from the start-up cache/)
  assert.deepEqual(await answers(second.port), made)
  await second.stop()

  // One byte changed in every file: each fails its own hash, and is made again.
  for (const name of files) {
    const file = path.join(cacheDir, name)
    const bytes = await readFile(file)
    bytes[bytes.length >> 1]! ^= 0xff
    await writeFile(file, bytes)
  }
  const third = await startServer(t, cacheDir)
  assert.equal(indexOrigin(third.lines), 'search index built')
  assert.deepEqual(await answers(third.port), made)
  await third.stop()
})
