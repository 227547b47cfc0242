import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { loadDataset } from '../../src/data/dataset/load-dataset.ts'
import { searchableText } from '../../src/data/finding/question-search.ts'
import { SEARCH_INDEX_KIND, buildSearchIndex, denseKeysOf, placeOf, searchIndexBytes, searchIndexFromBytes, type SearchIndexParts } from '../../src/data/finding/search-index.ts'
import { bitWordsFor } from '../../src/data/finding/position-set.ts'
import { foldedWords } from '../../src/data/finding/search-words.ts'
import { FULL_DATA_DIR } from '../helper.ts'
import { StartUpCache } from '../../src/data/dataset/start-up-cache.ts'

/*
 * The search index as a server builds it, in a worker thread (src/data/finding/search-index-worker.ts),
 * is the index built in this thread, whole; and its folding, token by token, gives each text's
 * words exactly as folding the whole text does. (That the index answers as MiniSearch does is
 * test/data/question-finder.test.ts.)
 */

async function texts (): Promise<string[]> {
  const { catalog } = await loadDataset(FULL_DATA_DIR ?? SAMPLE_DATA_DIR, { filesBaseUrl: 'http://api.test/files' })
  return catalog!.listExams().flatMap((exam) => exam.questions.map(searchableText))
}

test('the worker thread hands over the very index this thread builds, and keeps it in the start-up cache', async (t) => {
  const all = await texts()
  const cacheDir = await mkdtemp(path.join(tmpdir(), 'enem-index-cache-'))
  t.after(() => rm(cacheDir, { recursive: true, force: true }))
  const worker = new Worker(new URL('../../src/data/finding/search-index-worker.ts', import.meta.url), { workerData: { texts: all, cacheDir, cacheKey: 'k' } })
  const [fromWorker] = await once(worker, 'message') as [SearchIndexParts]
  // It ends on its own once the file is written.
  await once(worker, 'exit')
  const here = buildSearchIndex(all)
  assert.deepEqual(fromWorker, here)
  assert.ok(here.keys.length > 100 && here.positions.length > all.length, `${here.keys.length} keys, ${here.positions.length} holders`)
  const kept = StartUpCache.open(cacheDir).cache.read(SEARCH_INDEX_KIND, 'k')
  assert.ok(kept !== undefined)
  assert.deepEqual(searchIndexFromBytes(kept, all.length), here)
})

test('texts folded token by token hold the words the whole text folds to, white space and compatibility forms included', async () => {
  const tricky = ['ΟΔΟΣ ΑΣ Σ', 'a\u00a0b\u2003c\u3000d', 'pa¨lavra', 'ﬁm ½ x² 2ª', 'e\u0301 cafe\u0301s', 'Ǆ\tǅ\nǆ', '', '  ', 'x\ufeffy']
  const all = [...await texts(), ...tricky]
  const { foldedTexts } = buildSearchIndex(all)
  all.forEach((text, position) => assert.equal(foldedTexts[position], ` ${foldedWords(text).join(' ')} `, JSON.stringify(text)))
})

test('a dense key\'s bits and ranks say which texts hold it and where each is in its run; every key a sixteenth of the texts hold is dense, no other', async () => {
  const all = await texts()
  const index = buildSearchIndex(all)
  const dense = denseKeysOf(index, all.length)
  assert.ok(dense.size > 10, `${dense.size} dense keys`)
  for (let slot = 0; slot < index.keys.length; slot++) {
    const start = index.starts[slot]!
    const end = index.starts[slot + 1]!
    const key = dense.get(slot)
    assert.equal(key !== undefined, end - start >= all.length / 16, index.keys[slot])
    if (key === undefined) continue
    assert.equal(key.holders.length, bitWordsFor(all.length))
    const run = new Map<number, number>()
    for (let at = start; at < end; at++) run.set(index.positions[at]!, at - start)
    for (let position = 0; position < all.length; position++) {
      const held: boolean = (key.holders[position >>> 5]! & (1 << (position & 31))) !== 0
      assert.equal(held, run.has(position), `${index.keys[slot]} at ${position}`)
      assert.equal(key.ranks[position], held ? run.get(position)! + 1 : 0)
    }
  }
})

test('placeOf finds each string of an ascending list, and nothing else', () => {
  const sorted = ['', 'a', 'agua', 'b', 'energia', 'z~a']
  sorted.forEach((value, at) => assert.equal(placeOf(sorted, value), at))
  for (const absent of ['0', 'aa', 'c', 'zz', ' ']) assert.equal(placeOf(sorted, absent), -1)
  assert.equal(placeOf([], 'a'), -1)
})

test('an index as bytes is the same index read back; bytes of another shape or size are refused', async () => {
  const { catalog } = await loadDataset(SAMPLE_DATA_DIR, { filesBaseUrl: 'http://localhost/files' })
  const texts = catalog!.listExams().flatMap((exam) => exam.questions).map(searchableText)
  const index = buildSearchIndex(texts)
  const bytes = searchIndexBytes(index)
  assert.deepEqual(searchIndexFromBytes(bytes, texts.length), index)
  // Read as the index of another number of texts: refused.
  assert.equal(searchIndexFromBytes(bytes, texts.length + 1), undefined)
  assert.equal(searchIndexFromBytes(bytes.subarray(0, bytes.length >> 1), texts.length), undefined)
  assert.equal(searchIndexFromBytes(searchIndexBytes({ ...index, starts: index.starts.subarray(1) }), texts.length), undefined)
  assert.equal(searchIndexFromBytes(Buffer.from('not an index'), texts.length), undefined)
})
