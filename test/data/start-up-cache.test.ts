import { test } from 'node:test'
import assert from 'node:assert/strict'
import { chmod, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { StartUpCache, cacheKey } from '../../src/data/dataset/start-up-cache.ts'

async function folder (t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'enem-cache-test-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  return dir
}

test('what is written under a kind and key is read back, byte for byte; another key reads nothing', async (t) => {
  const { cache, problem } = StartUpCache.open(path.join(await folder(t), 'made'))
  assert.equal(problem, undefined)
  const payload = Buffer.from('the index of these texts')
  cache.write('search-index', 'k1', payload)
  assert.deepEqual(cache.read('search-index', 'k1'), payload)
  assert.equal(cache.read('search-index', 'k2'), undefined)
  assert.equal(cache.read('export-part', 'k1'), undefined)
  // Nothing is left aside once written.
  assert.deepEqual((await readdir(cache.dir!)).filter((name) => name.endsWith('.partial')), [])
  // What readOrMake hands a keeper is read, not made again, into a buffer of its own (a view would hold the file's header too).
  const kept = await cache.readOrMake('search-index', 'k1', () => assert.fail('made again though it was kept'))
  assert.deepEqual(kept, payload)
  assert.equal(kept.buffer.byteLength, payload.length)
})

test('a file changed on disk after it was written is not read', async (t) => {
  const { cache } = StartUpCache.open(await folder(t))
  cache.write('brotli', 'k', Buffer.from('compressed bytes'))
  const [name] = await readdir(cache.dir!)
  const file = path.join(cache.dir!, name!)
  const bytes = await readFile(file)
  bytes[bytes.length - 1]! ^= 1
  await writeFile(file, bytes)
  assert.equal(cache.read('brotli', 'k'), undefined)
  await writeFile(file, bytes.subarray(0, 10))
  assert.equal(cache.read('brotli', 'k'), undefined)
})

test('a folder other users can write to is not used; no folder reads and writes nothing', async (t) => {
  const dir = await folder(t)
  await chmod(dir, 0o777)
  const open = StartUpCache.open(dir)
  assert.equal(open.cache.dir, null)
  assert.match(open.problem!, /can be written by other users/)
  open.cache.write('search-index', 'k', Buffer.from('x'))
  assert.deepEqual(await readdir(dir), [])
  assert.equal(StartUpCache.open(null).cache.read('search-index', 'k'), undefined)
  const file = path.join(dir, 'a-file')
  await writeFile(file, 'not a folder')
  assert.match(StartUpCache.open(file).problem!, /not a folder|EEXIST|ENOTDIR/)
})

test('a kind keeps its 64 most recently used files', async (t) => {
  const { cache } = StartUpCache.open(await folder(t))
  for (let i = 0; i < 64; i++) cache.write('export-part', `k${i}`, Buffer.from([i]))
  // Make k0 the oldest written, then use it: the one pruned by the next write is k1, the least recently used.
  const past = new Date(Date.now() - 60_000)
  for (let i = 0; i < 64; i++) await utimes(path.join(cache.dir!, `export-part-k${i}.bin`), past, new Date(past.getTime() + i))
  assert.deepEqual(cache.read('export-part', 'k0'), Buffer.from([0]))
  cache.write('export-part', 'k64', Buffer.from([64]))
  const names = await readdir(cache.dir!)
  assert.equal(names.length, 64)
  assert.ok(names.includes('export-part-k0.bin') && names.includes('export-part-k64.bin') && !names.includes('export-part-k1.bin'))
  // Another kind is not pruned for this one.
  cache.write('brotli', 'k', Buffer.from('b'))
  assert.equal((await readdir(cache.dir!)).length, 65)
})

test('cacheKey: every input counts, and where one ends', () => {
  const base = cacheKey('search-index', Buffer.from('code'), 'ab', 'c')
  assert.match(base, /^[0-9a-f]{64}$/)
  assert.equal(cacheKey('search-index', Buffer.from('code'), 'ab', 'c'), base)
  for (const other of [cacheKey('search-index', Buffer.from('code'), 'a', 'bc'), cacheKey('search-index', Buffer.from('cod'), 'ab', 'c'), cacheKey('search-index', 'code', 'ab', 'c'), cacheKey('brotli', Buffer.from('code'), 'ab', 'c')]) {
    assert.notEqual(other, base)
  }
})
