import MiniSearch from 'minisearch'
import type { Question } from '../record-schemas.ts'
import { BackgroundSteps } from '../dataset/background-steps.ts'
import { foldedWords, wordKey } from './search-words.ts'

/** Longest `q`, in characters: longer is refused, not cut. */
export const SEARCH_TEXT_MAX_LENGTH = 200

/** A Markdown image: its alternative text is kept, its address is not searchable text. */
const MARKDOWN_IMAGE = /!\[([^\]]*)\]\([^)]*\)/g
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
  return parts.join('\n').replace(MARKDOWN_IMAGE, ' $1 ')
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

/** The phrase check of a query without phrases, and the filter of a search without filters. */
function holdsAll (): boolean {
  return true
}
const acceptAll = holdsAll

/** The background build waits this long after it is asked to start, so the first requests of a fresh server come first. */
const BACKGROUND_DELAY_MILLISECONDS = 500
/** Keys whose scores one step of the compaction asks MiniSearch for, between checks of the step's time. */
const KEYS_PER_CHECK = 16
/**
 * A word held by at least this share of the records is common: its pairs with other common words
 * are recorded (#pairHolders), a bit per record each, for the phrase check.
 */
const COMMON_WORD_SHARE = 1 / 8
/** Records whose pairs of common words one step of the build records. */
const RECORDS_PER_PAIR_STEP = 16

/**
 * The index in a compact, read-only form: for every key, the positions of the records holding it
 * (ascending) and each one's BM25 score for that key, as MiniSearch computes it. One typed array
 * each for all keys; `slots` says where each key's run starts and ends.
 */
interface CompactIndex {
  readonly slots: ReadonlyMap<string, number>
  /** `starts[slot]` to `starts[slot + 1]`: the run of a key in `positions` and `scores`. */
  readonly starts: Uint32Array
  readonly positions: Uint32Array
  readonly scores: Float64Array
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
 * MiniSearch builds the index and computes every score. Its own search, though, builds a result
 * object for each record holding each word of a query: for the words most questions hold (`que`,
 * `para`) that was most of the cost of a search, and most of its garbage, and its index is a tree
 * of some hundred thousand Maps. So once the records are indexed, MiniSearch is asked, key by key,
 * for each holder's score, and the answers are kept in a compact form (CompactIndex) that queries
 * read: the holders of the rarest key of the query, kept where every other key is held too, each
 * scored by the sum of its keys' scores, which is the order MiniSearch's own AND search gives.
 * Then MiniSearch's index is let go. `test/data/question-finder.test.ts` compares the two searches.
 *
 * Building it (folding, stemming each distinct word, MiniSearch's inserts, then the scores) costs
 * more CPU on the full dataset than start-up as a whole may take (figures in docs/api.md, "The search index"). So
 * nothing is built in the constructor: `buildInBackground()` does it a few records or keys per turn
 * of the event loop once the server is up, and a search that comes first finishes it, synchronously.
 */
export class QuestionSearch {
  readonly #records: readonly Question[]
  #index: MiniSearch<{ id: number, keys: string }> | undefined = new MiniSearch({
    fields: ['keys'],
    // Keys are made here, once, by the same functions queries go through.
    tokenize: (text) => text.split(' '),
    processTerm: (term) => term,
    searchOptions: { combineWith: 'AND', prefix: false, fuzzy: false }
  })

  /** Kept after the build for searchThroughIndex (tests); a server lets it go. */
  readonly #keepIndex: boolean
  /** Each record's folded words joined by single spaces, with a space at both ends: phrase checks are a substring search. */
  readonly #foldedTexts: string[] = []
  /**
   * The key of every word the records hold. The dataset repeats its words: stemming each distinct
   * word once is most of the build saved; kept, it spares queries the stemming of known words.
   */
  readonly #keyOfWord = new Map<string, string>()
  /** A word's key: from the build's memo when a record holds the word, else made (and not kept: queries are many). */
  readonly #keyOf = (word: string): string => this.#keyOfWord.get(word) ?? wordKey(word)
  /** While building: how many records hold each key (the index gives which, with their scores). */
  #holderCounts: Map<string, number> | undefined = new Map()
  /** While building: the compact index being filled, and the keys whose scores are still to ask for. */
  #pending: { compact: CompactIndex, keys: Array<[string, number]> } | undefined
  #compact: CompactIndex | undefined
  #indexed = 0
  /** While building: how many records hold each folded word; then the words held by at least COMMON_WORD_SHARE of them. */
  #wordHolders: Map<string, number> | undefined = new Map()
  readonly #commonWords = new Set<string>()
  /** Records paired so far (#pairRecord), and, by `word word`, a bit per record holding that pair of common words in a row. */
  #paired = 0
  readonly #pairHolders = new Map<string, Uint32Array>()
  /** The matches of the last query walked (#collect), by position, and their scores: a record matches at most once. */
  readonly #foundPositions: Uint32Array
  readonly #foundScores: Float64Array
  readonly #background = new BackgroundSteps(() => {
    this.#buildStep()
    return !this.ready
  })

  /** `keepIndex`: keep MiniSearch's index after the build, for searchThroughIndex (a test's reference). */
  constructor (records: readonly Question[], { keepIndex = false }: { keepIndex?: boolean } = {}) {
    this.#records = records
    this.#keepIndex = keepIndex
    this.#foundPositions = new Uint32Array(records.length)
    this.#foundScores = new Float64Array(records.length)
  }

  /** Whether the build is done: queries read the compact index. */
  get ready (): boolean {
    return this.#compact !== undefined
  }

  /**
   * Parses the text of `q` as parseSearchQuery does, taking the keys of the words the records hold
   * from the build: the same keys, without stemming them again.
   */
  parse (text: string): SearchQuery | null {
    return parseSearchQuery(text, this.#keyOf)
  }

  /** Starts (once, shortly) building the rest a few records or keys at a time, yielding to requests in between. */
  buildInBackground (): void {
    if (this.#background.running || this.ready) return
    this.#background.start(BACKGROUND_DELAY_MILLISECONDS)
  }

  /** Stops a background build (at close); a later search still finishes it. */
  stopBackground (): void {
    this.#background.stop()
  }

  /** Finishes the build now, synchronously (a search that comes before the background build is done). */
  #finishBuild (): void {
    this.stopBackground()
    while (!this.ready) this.#buildStep()
  }

  /** Every record holding every key of the query (and its phrases), best first; ties by position. */
  search (query: SearchQuery): SearchHit[] {
    const total = this.#collect(query, acceptAll)
    const hits: SearchHit[] = []
    for (let i = 0; i < total; i++) hits.push({ position: this.#foundPositions[i]!, score: this.#foundScores[i]! })
    return hits.sort(byRelevance)
  }

  /**
   * The matches `accept` lets through, as `search` orders them: how many there are, and those at
   * ranks `skip` to `skip + count` (best first, ties by position), the same as slicing the list
   * `search` gives once filtered. Only those ranks are put in order: a bounded heap keeps the best
   * `skip + count` while the matches are walked, so a page of a search of words most questions
   * hold costs a pass over its matches, not a sort of them, nor an object for each.
   */
  searchRange (query: SearchQuery, accept: (position: number) => boolean, skip: number, count: number): { total: number, hits: SearchHit[] } {
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
   * Walks the query's matches that `accept` lets through into #foundPositions and #foundScores
   * (in ascending position), and answers how many there are.
   */
  #collect (query: SearchQuery, accept: (position: number) => boolean): number {
    if (!this.ready) this.#finishBuild()
    const { slots, starts, positions, scores } = this.#compact!
    if (query.keys.length === 0) return 0
    const runs: Array<{ start: number, end: number }> = []
    for (const key of query.keys) {
      const slot = slots.get(key)
      if (slot === undefined) return 0
      runs.push({ start: starts[slot]!, end: starts[slot + 1]! })
    }
    // From the rarest key's holders; a tie between keys by key, so the work never depends on the order they came in.
    runs.sort((a, b) => (a.end - a.start) - (b.end - b.start) || a.start - b.start)
    const rarest = runs[0]!
    const holdsPhrases = this.#phraseCheck(query)
    if (holdsPhrases === null) return 0
    // Where the search in each other key's run goes on from: the holders of the rarest key ascend.
    const lows = runs.map((run) => run.start)
    const foundPositions = this.#foundPositions
    const foundScores = this.#foundScores
    let found = 0
    // Indexes, not for-of: these loops run for every holder of the rarest key.
    for (let i = rarest.start; i < rarest.end; i++) {
      const position = positions[i]!
      let score = scores[i]!
      let other = 1
      for (; other < runs.length; other++) {
        const at = lowerBound(positions, lows[other]!, runs[other]!.end, position)
        lows[other] = at
        if (at === runs[other]!.end || positions[at] !== position) break
        score += scores[at]!
      }
      if (other === runs.length) {
        // The filters first: they cost a lookup, a phrase check a pass over the record's text.
        if (accept(position) && holdsPhrases(position)) {
          foundPositions[found] = position
          foundScores[found] = score
          found++
        }
      } else if (lows[other] === runs[other]!.end) {
        // Past the end of a run: no later holder of the rarest key can be in it either.
        break
      }
    }
    return found
  }

  /**
   * The same search asked of MiniSearch itself, whose AND search scores a match by the sum of its
   * keys' scores times their number (the order is the same). Only with `keepIndex`: the reference
   * a test holds `search` to.
   */
  searchThroughIndex (query: SearchQuery): SearchHit[] {
    if (!this.ready) this.#finishBuild()
    if (this.#index === undefined) throw new Error('searchThroughIndex needs a QuestionSearch made with keepIndex')
    const holdsPhrases = this.#plainPhraseCheck(query)
    return this.#index.search(query.keys.join(' '))
      .filter((result) => holdsPhrases(result.id as number))
      .map((result) => ({ position: result.id as number, score: result.score / query.keys.length }))
      .sort(byRelevance)
  }

  /** Whether the record at a position holds every phrase of the query, as consecutive folded words: the plain check, the reference of #phraseCheck. */
  #plainPhraseCheck (query: SearchQuery): (position: number) => boolean {
    const phrases = query.phrases.map((phrase) => ` ${phrase.join(' ')} `)
    if (phrases.length === 0) return holdsAll
    // A loop, not every() with an arrow: that was a closure per record checked.
    return (position) => {
      const text = this.#foldedTexts[position]!
      for (const phrase of phrases) if (!text.includes(phrase)) return false
      return true
    }
  }

  /**
   * The same check as #plainPhraseCheck, or null when no record can pass it. A phrase of common
   * words (`"de que a"`) is held, as words, by nearly every record, and reading each record's text
   * for it cost milliseconds a query; so each pair of consecutive common words in a phrase is looked
   * up first in #pairHolders: a pair no record holds answers at once, and a record that lacks one of
   * the pairs is passed over without reading its text. A phrase of two common words is decided by
   * its pair alone.
   */
  #phraseCheck (query: SearchQuery): ((position: number) => boolean) | null {
    if (query.phrases.length === 0) return holdsAll
    const pairs: Uint32Array[] = []
    const texts: string[] = []
    for (const phrase of query.phrases) {
      let decided = phrase.length === 2
      for (let i = 0; i + 1 < phrase.length; i++) {
        const holders = this.#pairHolders.get(`${phrase[i]} ${phrase[i + 1]}`)
        if (holders !== undefined) pairs.push(holders)
        else if (this.#commonWords.has(phrase[i]!) && this.#commonWords.has(phrase[i + 1]!)) return null
        else decided = false
      }
      if (!decided) texts.push(` ${phrase.join(' ')} `)
    }
    return (position) => {
      const word = position >>> 5
      const bit = 1 << (position & 31)
      for (const holders of pairs) if ((holders[word]! & bit) === 0) return false
      if (texts.length === 0) return true
      const text = this.#foldedTexts[position]!
      for (const phrase of texts) if (!text.includes(phrase)) return false
      return true
    }
  }

  /**
   * One step of the build: index the next record; or (all indexed) record the pairs of common words
   * of the next few records; or (all paired) ask for the scores of the next few keys.
   */
  #buildStep (): void {
    if (this.#indexed < this.#records.length) {
      this.#indexRecord(this.#indexed)
      this.#indexed++
      return
    }
    if (this.#paired < this.#records.length) {
      if (this.#wordHolders !== undefined) {
        const least = this.#records.length * COMMON_WORD_SHARE
        for (const [word, holders] of this.#wordHolders) if (holders >= least) this.#commonWords.add(word)
        this.#wordHolders = undefined
      }
      for (let n = 0; n < RECORDS_PER_PAIR_STEP && this.#paired < this.#records.length; n++) this.#pairRecord(this.#paired++)
      return
    }
    this.#pending ??= this.#startCompaction()
    const { compact, keys } = this.#pending
    for (let n = 0; n < KEYS_PER_CHECK && keys.length > 0; n++) {
      const [key, slot] = keys.pop()!
      // MiniSearch's search for one key: each holder's score for it. Its results come best first; the compact index holds them by position.
      const start = compact.starts[slot]!
      const results = this.#index!.search(key).sort((a, b) => (a.id as number) - (b.id as number))
      if (results.length !== compact.starts[slot + 1]! - start) throw new Error(`the index holds ${results.length} records for "${key}", the build counted ${compact.starts[slot + 1]! - start}`)
      results.forEach((result, i) => {
        compact.positions[start + i] = result.id as number
        compact.scores[start + i] = result.score
      })
    }
    if (keys.length > 0) return
    this.#compact = compact
    this.#pending = undefined
    if (!this.#keepIndex) this.#index = undefined
  }

  /** Lays out the compact index from how many records hold each key; which ones, and their scores, are asked for next. */
  #startCompaction (): { compact: CompactIndex, keys: Array<[string, number]> } {
    const holderCounts = this.#holderCounts!
    this.#holderCounts = undefined
    const slots = new Map<string, number>()
    const starts = new Uint32Array(holderCounts.size + 1)
    let total = 0
    for (const [key, holders] of holderCounts) {
      starts[slots.size] = total
      slots.set(key, slots.size)
      total += holders
    }
    starts[slots.size] = total
    const compact = { slots, starts, positions: new Uint32Array(total), scores: new Float64Array(total) }
    return { compact, keys: [...slots] }
  }

  /** Records which pairs of consecutive common words the record at a position holds. */
  #pairRecord (position: number): void {
    const words = this.#foldedTexts[position]!.slice(1, -1).split(' ')
    const common = this.#commonWords
    for (let i = 0; i + 1 < words.length; i++) {
      if (!common.has(words[i]!) || !common.has(words[i + 1]!)) continue
      const pair = `${words[i]} ${words[i + 1]}`
      let holders = this.#pairHolders.get(pair)
      if (holders === undefined) {
        holders = new Uint32Array(Math.ceil(this.#records.length / 32))
        this.#pairHolders.set(pair, holders)
      }
      holders[position >>> 5]! |= 1 << (position & 31)
    }
  }

  #indexRecord (position: number): void {
    const words = foldedWords(searchableText(this.#records[position]!))
    this.#foldedTexts.push(` ${words.join(' ')} `)
    const keyOfWord = this.#keyOfWord
    const keys = words.map((word) => {
      let key = keyOfWord.get(word)
      if (key === undefined) {
        key = wordKey(word)
        keyOfWord.set(word, key)
      }
      return key
    })
    for (const word of new Set(words)) this.#wordHolders!.set(word, (this.#wordHolders!.get(word) ?? 0) + 1)
    for (const key of new Set(keys)) {
      this.#holderCounts!.set(key, (this.#holderCounts!.get(key) ?? 0) + 1)
    }
    this.#index!.add({ id: position, keys: keys.join(' ') })
  }
}
