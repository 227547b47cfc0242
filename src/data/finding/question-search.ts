import { readFileSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import { StartUpCache, cacheKey } from '../dataset/start-up-cache.ts'
import { MARKDOWN_IMAGE, type Question } from '../record-schemas.ts'
import { SEARCH_INDEX_KIND, buildSearchIndex, denseKeysOf, placeOf, searchIndexFromBytes, type DenseKey, type SearchIndexParts } from './search-index.ts'
import { foldedWords, wordKey } from './search-words.ts'
import { bitWordsFor, hasPosition, intersectInto, type PositionSet } from './position-set.ts'

/** Longest `q`, in characters: longer is refused, not cut. */
export const SEARCH_TEXT_MAX_LENGTH = 200

const QUOTED = /"([^"]*)"/g

/**
 * A parsed `q`: the keys every match must hold (AND), and the phrases, as folded words, that
 * must occur as consecutive words. `normalized` names the query: two texts with the same
 * normalized form always give the same answer (`ÁGUA` and `agua`).
 */
export interface SearchQuery {
  readonly keys: readonly string[]
  readonly phrases: ReadonlyArray<readonly string[]>
  readonly normalized: string
}

/**
 * Parses the text of `q`. Null when it holds no word at all (`+++`).
 * @example parseSearchQuery('"efeito estufa" Gás')?.keys // keys of efeito, estufa, gas
 */
export function parseSearchQuery (text: string, keyOf: (word: string) => string = wordKey): SearchQuery | null {
  const phrases: string[][] = []
  // Most queries hold no quotes, and need no pass over them.
  const loose = !text.includes('"')
    ? text
    : text.replace(QUOTED, (_match, inner: string) => {
      const words = foldedWords(inner)
      if (words.length > 1) phrases.push(words)
      // The phrase's words are also plain required words: the index narrows, the phrase check confirms.
      return ` ${words.join(' ')} `
    })
  const words = foldedWords(loose)
  if (words.length === 0) return null
  const keys = [...new Set(words.map(keyOf))].sort()
  const phraseTexts = [...new Set(phrases.map((phrase) => phrase.join(' ')))].sort()
  return {
    keys,
    phrases: phraseTexts.map((phrase) => phrase.split(' ')),
    normalized: [keys.join(' '), ...phraseTexts.map((phrase) => `"${phrase}"`)].join(' ')
  }
}

/**
 * The text of a question that search reads: `context` without image addresses,
 * `alternativesIntroduction` and the alternatives' `text`.
 */
export function searchableText (question: Question): string {
  const parts = [question.context ?? '', question.alternativesIntroduction ?? '']
  for (const alternative of question.alternatives) parts.push(alternative.text ?? '')
  // A Markdown image's alternative text is kept; its address is not searchable text.
  return parts.join('\n').replace(MARKDOWN_IMAGE, ' $1 ')
}

/** A key's run in the index's positions and scores, and what the index has of it when it is dense. */
interface Run {
  readonly start: number
  readonly end: number
  readonly dense: DenseKey | undefined
}

/** A match: the position of the record in the list the index was built from, and its relevance. */
export interface SearchHit {
  readonly position: number
  readonly score: number
}

/**
 * Best first, ties by position. Answers only -1, 0 or 1: a difference of scores is a fraction,
 * and a fraction returned to the sort was a heap number per comparison.
 */
function byRelevance (a: SearchHit, b: SearchHit): number {
  if (a.score !== b.score) return a.score > b.score ? -1 : 1
  return a.position === b.position ? 0 : a.position < b.position ? -1 : 1
}

/** The phrase check of a query without phrases. */
function holdsAll (): boolean {
  return true
}

/**
 * Below this many records the index is built on the spot, before listening: a worker thread's
 * start costs more than the build of a small dataset (the built-in sample's).
 */
const LEAST_RECORDS_FOR_A_WORKER = 1_000

/** Where a server's search index came from: built at this start, or read from the start-up cache. */
export type IndexOrigin = 'built' | 'cache'

/** Where the worker's module is: beside this one in the sources, beside the bundle (dist/server.js) once built. */
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './search-index-worker.ts' : './search-index-worker.js', import.meta.url)

/**
 * The start-up cache's name of the index of `texts`: the texts, and the code that builds the
 * index, the worker's own bundle (dist/search-index-worker.js, which holds all of it). Run from the
 * sources (a test, `npm run dev`), the code is spread over modules whose changes the worker's own
 * file would not show: no name, so no cache.
 */
function indexCacheKey (texts: readonly string[]): string | null {
  if (!WORKER_URL.pathname.endsWith('.js')) return null
  let code: Buffer
  try {
    code = readFileSync(WORKER_URL)
  } catch {
    return null
  }
  return cacheKey(SEARCH_INDEX_KIND, code, ...texts)
}

/** A pair of common words' bit per record, or undefined when no record holds the pair. */
function pairHoldersOf (index: SearchIndexParts, pair: string, records: number): Uint32Array | undefined {
  const at = placeOf(index.pairs, pair)
  if (at === -1) return undefined
  const bitWords = bitWordsFor(records)
  return index.pairHolders.subarray(at * bitWords, (at + 1) * bitWords)
}

/**
 * The first place from `low` on, before `high`, whose position is `position` or more (`high` when
 * there is none). Gallops (1, 2, 4, … places ahead), then halves: the holders of the rarest key
 * ascend, so each one is looked for from where the last one was found, and the cost follows the
 * distance to it rather than the length of the run.
 */
function lowerBound (positions: Uint32Array, low: number, high: number, position: number): number {
  let step = 1
  let first = low
  let last = low
  while (last < high && positions[last]! < position) {
    first = last + 1
    last += step
    step *= 2
  }
  if (last > high) last = high
  // Now positions[first - 1] < position (or first === low), and last === high or positions[last] >= position.
  while (first < last) {
    const middle = (first + last) >>> 1
    if (positions[middle]! < position) first = middle + 1
    else last = middle
  }
  return first
}

/**
 * Full-text index over a list of question records, with BM25 relevance. Records are named by their
 * position in that list.
 *
 * The index (./search-index.ts) holds, for every key, the positions of the records holding it and
 * each one's score for it. A query walks the holders of its rarest key, keeps those where every
 * other key is held too, each scored by the sum of its keys' scores (the order MiniSearch's own AND
 * search gives; `test/data/question-finder.test.ts` holds the two to each other).
 *
 * Building it costs about a second of CPU on the full dataset, more than a request may hold the
 * event loop: a server builds it in a worker thread before it listens (`buildOffThread`), while
 * the rest of start-up goes on (figures in docs/api.md, "The search index"). Without that (a test, a tool), the first search builds it.
 */
export class QuestionSearch {
  readonly #records: readonly Question[]
  #index: SearchIndexParts | undefined
  #building: Promise<IndexOrigin> | undefined
  #worker: Worker | undefined
  /** A word's key: from the index when a record holds the word, else made (and not kept: queries are many). */
  readonly #keyOf = (word: string): string => {
    const at = this.#index === undefined ? -1 : placeOf(this.#index.words, word)
    return at === -1 ? wordKey(word) : this.#index!.wordKeys[at]!
  }

  /** The index's dense keys (denseKeysOf), made when the index is put in place. */
  #denseKeys = new Map<number, DenseKey>()

  /** The matches of the last query walked (#collect), by position, and their scores: a record matches at most once. */
  readonly #foundPositions: Uint32Array
  readonly #foundScores: Float64Array
  /** The holders every dense key of the query holds (#collectDense), a bit per record. */
  readonly #commonHolders: Uint32Array

  constructor (records: readonly Question[]) {
    this.#records = records
    this.#foundPositions = new Uint32Array(records.length)
    this.#foundScores = new Float64Array(records.length)
    this.#commonHolders = new Uint32Array(bitWordsFor(records.length))
  }

  /** Whether the index is built. */
  get ready (): boolean {
    return this.#index !== undefined
  }

  /**
   * Parses the text of `q` as parseSearchQuery does, taking the keys of the words the records hold
   * from the index: the same keys, without stemming them again.
   */
  parse (text: string): SearchQuery | null {
    return parseSearchQuery(text, this.#keyOf)
  }

  /**
   * Puts the index in place off the event loop, and resolves once it is: read from the start-up
   * cache when a start before this one kept the index of these very texts made by this very code,
   * else built in a worker thread (on the spot for a small list), which then keeps it in the cache.
   * Called again, the same promise. A worker that cannot start or fails leaves the build to this
   * thread, so the index is there either way. Resolves with where the index came from.
   */
  buildOffThread (cache: StartUpCache = StartUpCache.NONE): Promise<IndexOrigin> {
    this.#building ??= this.#buildOffThread(cache)
    return this.#building
  }

  async #buildOffThread (cache: StartUpCache): Promise<IndexOrigin> {
    if (this.ready) return 'built'
    const texts = this.#records.map(searchableText)
    if (texts.length < LEAST_RECORDS_FOR_A_WORKER) {
      this.#adopt(buildSearchIndex(texts))
      return 'built'
    }
    const key = cache.dir === null ? null : indexCacheKey(texts)
    const kept = key === null ? undefined : cache.read(SEARCH_INDEX_KIND, key)
    const fromCache = kept === undefined ? undefined : searchIndexFromBytes(kept, texts.length)
    if (fromCache !== undefined) {
      this.#adopt(fromCache)
      return 'cache'
    }
    const worker = new Worker(WORKER_URL, { workerData: { texts, cacheDir: key === null ? null : cache.dir, cacheKey: key } })
    this.#worker = worker
    try {
      const [parts] = await new Promise<[SearchIndexParts]>((resolve, reject) => {
        worker.once('message', (message: SearchIndexParts) => resolve([message]))
        worker.once('error', reject)
        worker.once('exit', (code) => reject(new Error(`the search index worker exited (${code}) without an index`)))
      })
      if (!this.ready) this.#adopt(parts)
      // Left to write the cache file and end on its own; it holds no start-up, nor the process at exit.
      worker.unref()
    } catch {
      if (!this.ready) this.#adopt(buildSearchIndex(texts))
      worker.terminate().catch(() => {})
    } finally {
      this.#worker = undefined
    }
    return 'built'
  }

  /** Stops a build under way in a worker (at close). */
  stopBuilding (): void {
    this.#worker?.terminate().catch(() => {})
  }

  #adopt (parts: SearchIndexParts): void {
    this.#index = parts
    this.#denseKeys = denseKeysOf(parts, this.#records.length)
  }

  /** The index, built here first when nothing built it yet (a test or a tool; a server has built it before listening). */
  #built (): SearchIndexParts {
    if (this.#index === undefined) this.#adopt(buildSearchIndex(this.#records.map(searchableText)))
    return this.#index!
  }

  /** Every record holding every key of the query (and its phrases), best first; ties by position. */
  search (query: SearchQuery): SearchHit[] {
    const total = this.#collect(query, undefined)
    const hits: SearchHit[] = []
    for (let i = 0; i < total; i++) hits.push({ position: this.#foundPositions[i]!, score: this.#foundScores[i]! })
    return hits.sort(byRelevance)
  }

  /**
   * The matches at the positions `accept` holds, as `search` orders them: how many there are, and those at
   * ranks `skip` to `skip + count` (best first, ties by position), the same as slicing the list
   * `search` gives once filtered. Only those ranks are put in order: a bounded heap keeps the best
   * `skip + count` while the matches are walked, so a page of a search of words most questions
   * hold costs a pass over its matches, not a sort of them, nor an object for each.
   */
  searchRange (query: SearchQuery, accept: PositionSet, skip: number, count: number): { total: number, hits: SearchHit[] } {
    const total = this.#collect(query, accept)
    const positions = this.#foundPositions
    const scores = this.#foundScores
    const better = (a: number, b: number): boolean => scores[a]! > scores[b]! || (scores[a] === scores[b] && positions[a]! < positions[b]!)
    const wanted = Math.min(skip + count, total)
    // A heap of match numbers whose root is the worst of the best `wanted` seen so far.
    const heap = new Uint32Array(wanted)
    let size = 0
    for (let match = 0; match < total; match++) {
      if (size < wanted) {
        let at = size++
        while (at > 0) {
          const parent = (at - 1) >> 1
          if (!better(heap[parent]!, match)) break
          heap[at] = heap[parent]!
          at = parent
        }
        heap[at] = match
      } else if (wanted > 0 && better(match, heap[0]!)) {
        let at = 0
        for (;;) {
          const left = 2 * at + 1
          if (left >= size) break
          const right = left + 1
          const worse = right < size && better(heap[left]!, heap[right]!) ? right : left
          if (!better(match, heap[worse]!)) break
          heap[at] = heap[worse]!
          at = worse
        }
        heap[at] = match
      }
    }
    const best = Array.from(heap, (match) => ({ position: positions[match]!, score: scores[match]! })).sort(byRelevance)
    return { total, hits: best.slice(skip) }
  }

  /**
   * Walks the query's matches at the positions `accept` holds (all, when undefined) into
   * #foundPositions and #foundScores (in ascending position), and answers how many there are.
   */
  #collect (query: SearchQuery, accept: PositionSet | undefined): number {
    const index = this.#built()
    const { starts, positions, scores } = index
    if (query.keys.length === 0) return 0
    // A run's `dense` when its key is dense: a holder's place in the run is read there, not looked for.
    const runs: Run[] = []
    for (const key of query.keys) {
      const slot = placeOf(index.keys, key)
      if (slot === -1) return 0
      runs.push({ start: starts[slot]!, end: starts[slot + 1]!, dense: this.#denseKeys.get(slot) })
    }
    // From the rarest key's holders; a tie between keys by key, so the work never depends on the order they came in.
    runs.sort((a, b) => (a.end - a.start) - (b.end - b.start) || a.start - b.start)
    const rarest = runs[0]!
    const holdsPhrases = this.#phraseCheck(query)
    if (holdsPhrases === null) return 0
    // The rarest key dense, so is every other.
    if (rarest.dense !== undefined) return this.#collectDense(runs, scores, accept, holdsPhrases)
    // Where the search in each other key's run goes on from: the holders of the rarest key ascend.
    const lows = runs.map((run) => run.start)
    const foundPositions = this.#foundPositions
    const foundScores = this.#foundScores
    let found = 0
    // Indexes, not for-of: these loops run for every holder of the rarest key.
    for (let i = rarest.start; i < rarest.end; i++) {
      const position = positions[i]!
      // The filters before the other keys: a filter costs a bit's read, each other key a search in
      // its run (a year range or a discipline passes a fraction of the holders). Skipped holders
      // leave the other runs' places behind: the gallop from there costs the log of the distance.
      if (accept !== undefined && !hasPosition(accept, position)) continue
      let score = scores[i]!
      let other = 1
      for (; other < runs.length; other++) {
        const { dense } = runs[other]!
        if (dense !== undefined) {
          const rank = dense.ranks[position]!
          if (rank === 0) break
          score += scores[runs[other]!.start + rank - 1]!
          continue
        }
        const at = lowerBound(positions, lows[other]!, runs[other]!.end, position)
        lows[other] = at
        if (at === runs[other]!.end || positions[at] !== position) break
        score += scores[at]!
      }
      if (other === runs.length) {
        // The phrase check last: it may cost a pass over the record's text.
        if (holdsPhrases(position)) {
          foundPositions[found] = position
          foundScores[found] = score
          found++
        }
      } else if (runs[other]!.dense === undefined && lows[other] === runs[other]!.end) {
        // Past the end of a run: no later holder of the rarest key can be in it either.
        break
      }
    }
    return found
  }

  /**
   * #collect when every key of the query is dense: the records holding them all are the AND of
   * their bits, walked in ascending position; each one's score, the sum of its keys' scores in the
   * order of `runs` (the rarest key's first, as #collect adds them), read by rank. The filters are
   * ANDed in too: these searches' holders are thousands, and a call per holder to test them was
   * 7.8 % of a common-word search's CPU (bench/results.md, issue 45).
   */
  #collectDense (runs: readonly Run[], scores: Float64Array, accept: PositionSet | undefined, holdsPhrases: (position: number) => boolean): number {
    const common = this.#commonHolders
    common.set(runs[0]!.dense!.holders)
    for (let other = 1; other < runs.length; other++) intersectInto(common, runs[other]!.dense!.holders)
    if (accept !== undefined) intersectInto(common, accept)
    const foundPositions = this.#foundPositions
    const foundScores = this.#foundScores
    let found = 0
    for (let word = 0; word < common.length; word++) {
      let bits = common[word]!
      while (bits !== 0) {
        const lowest = bits & -bits
        bits ^= lowest
        const position = (word << 5) | (31 - Math.clz32(lowest))
        let score = 0
        for (let at = 0; at < runs.length; at++) {
          const run = runs[at]!
          score += scores[run.start + run.dense!.ranks[position]! - 1]!
        }
        if (holdsPhrases(position)) {
          foundPositions[found] = position
          foundScores[found] = score
          found++
        }
      }
    }
    return found
  }

  /**
   * Whether the record at a position holds every phrase of the query, as consecutive folded words, or null when no record can pass it. A phrase of common
   * words (`"de que a"`) is held, as words, by nearly every record, and reading each record's text
   * for it cost milliseconds a query; so each pair of consecutive common words in a phrase is looked
   * up first in the index's pairs: a pair no record holds answers at once, and a record that lacks one of
   * the pairs is passed over without reading its text. A phrase of two common words is decided by
   * its pair alone.
   */
  #phraseCheck (query: SearchQuery): ((position: number) => boolean) | null {
    if (query.phrases.length === 0) return holdsAll
    const index = this.#built()
    const isCommon = (word: string): boolean => placeOf(index.commonWords, word) !== -1
    const pairs: Uint32Array[] = []
    const texts: string[] = []
    for (const phrase of query.phrases) {
      let decided = phrase.length === 2
      for (let i = 0; i + 1 < phrase.length; i++) {
        const holders = pairHoldersOf(index, `${phrase[i]} ${phrase[i + 1]}`, this.#records.length)
        if (holders !== undefined) pairs.push(holders)
        else if (isCommon(phrase[i]!) && isCommon(phrase[i + 1]!)) return null
        else decided = false
      }
      if (!decided) texts.push(` ${phrase.join(' ')} `)
    }
    return (position) => {
      const word = position >>> 5
      const bit = 1 << (position & 31)
      for (const holders of pairs) if ((holders[word]! & bit) === 0) return false
      if (texts.length === 0) return true
      const text = index.foldedTexts[position]!
      for (const phrase of texts) if (!text.includes(phrase)) return false
      return true
    }
  }
}
