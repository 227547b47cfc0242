import MiniSearch from 'minisearch'
import type { Question } from './record-schemas.ts'
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
export function parseSearchQuery (text: string): SearchQuery | null {
  const phrases: string[][] = []
  const loose = text.replace(QUOTED, (_match, inner: string) => {
    const words = foldedWords(inner)
    if (words.length > 1) phrases.push(words)
    // The phrase's words are also plain required words: the index narrows, the phrase check confirms.
    return ` ${words.join(' ')} `
  })
  const words = foldedWords(loose)
  if (words.length === 0) return null
  const keys = [...new Set(words.map(wordKey))].sort()
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
 * A key held by more than this share of the records (and by more than COMMON_KEY_MIN_HOLDERS) is
 * common. The index, asked for such a key, builds a result for every record holding it, which made
 * most of the cost of a search; a common key instead narrows the matches through a set of its
 * holders and adds scores it was asked for once (see QuestionSearch.search).
 */
const COMMON_KEY_SHARE = 0.005
/** On a small dataset every word is held by a few records: only a key of this many holders is common. */
export const COMMON_KEY_MIN_HOLDERS = 10

/**
 * The records holding a common key: a bit per record position, for a quick test; and, from the
 * first query that needed them on, each holder's score for that key alone, by position.
 */
interface KeyHolders {
  readonly key: string
  readonly bits: Uint32Array
  readonly count: number
  scores?: PositionScores
}

/** Scores by record position: `positions` ascending, `scores[i]` the score of `positions[i]`. */
interface PositionScores {
  readonly positions: Uint32Array
  readonly scores: Float64Array
}

function holds (holders: KeyHolders, position: number): boolean {
  return (holders.bits[position >>> 5]! & (1 << (position & 31))) !== 0
}

/** The score at a position (binary search); 0 for a position that holds no score. */
function scoreAt ({ positions, scores }: PositionScores, position: number): number {
  let low = 0
  let high = positions.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const found = positions[middle]!
    if (found === position) return scores[middle]!
    if (found < position) low = middle + 1
    else high = middle - 1
  }
  return 0
}

/** Longest a step of a background build keeps the event loop from requests. */
const STEP_MILLISECONDS = 5
/** The background build waits this long after it is asked to start, so the first requests of a fresh server come first. */
const BACKGROUND_DELAY_MILLISECONDS = 500

/**
 * Full-text index over a list of question records (MiniSearch, BM25 relevance). Records are
 * named by their position in that list.
 *
 * Building it (folding, stemming each distinct word, MiniSearch's inserts) costs more CPU on the
 * full dataset than start-up as a whole may take (figures in the README). So nothing is built in the
 * constructor: `buildInBackground()` indexes a few records per turn of the event loop once the
 * server is up, and a search that comes first finishes the build itself, synchronously.
 */
export class QuestionSearch {
  readonly #records: readonly Question[]
  readonly #index = new MiniSearch<{ id: number, keys: string }>({
    fields: ['keys'],
    // Keys are made here, once, by the same functions queries go through.
    tokenize: (text) => text.split(' '),
    processTerm: (term) => term,
    searchOptions: { combineWith: 'AND', prefix: false, fuzzy: false }
  })

  /** Each record's folded words joined by single spaces, with a space at both ends: phrase checks are a substring search. */
  readonly #foldedTexts: string[] = []
  /** The dataset repeats its words: stemming each distinct word once is most of the build saved. */
  #keyOfWord: Map<string, string> | undefined = new Map()
  /** The positions of the records holding each key, while building; only the common keys' sets are kept. */
  #positionsOfKey: Map<string, number[]> | undefined = new Map()
  readonly #commonKeys = new Map<string, KeyHolders>()
  /** Common keys whose scores no query has asked for yet: the background build asks for them, so that no query waits on it. */
  readonly #unscored: KeyHolders[] = []
  readonly #commonKeyShare: number
  #indexed = 0
  #background: NodeJS.Immediate | NodeJS.Timeout | undefined

  /** `commonKeyShare`: see COMMON_KEY_SHARE (a test compares with 1, where no key is common). */
  constructor (records: readonly Question[], { commonKeyShare = COMMON_KEY_SHARE }: { commonKeyShare?: number } = {}) {
    this.#records = records
    this.#commonKeyShare = commonKeyShare
  }

  get ready (): boolean {
    return this.#indexed === this.#records.length
  }

  /**
   * Starts (once, shortly) indexing the remaining records a few at a time, then asking the index
   * for the scores of the common keys, yielding to requests in between.
   */
  buildInBackground (): void {
    if (this.#background !== undefined || (this.ready && this.#unscored.length === 0)) return
    const step = (): void => {
      const deadline = performance.now() + STEP_MILLISECONDS
      let more = true
      while (more && performance.now() < deadline) more = this.#buildStep()
      this.#background = more ? setImmediate(step) : undefined
    }
    this.#background = setTimeout(step, BACKGROUND_DELAY_MILLISECONDS).unref()
  }

  /** Stops a background build (at close); a later search still finishes it. */
  stopBackground (): void {
    clearTimeout(this.#background as NodeJS.Timeout | undefined)
    clearImmediate(this.#background as NodeJS.Immediate | undefined)
    this.#background = undefined
  }

  /** Every record holding every key of the query (and its phrases), best first; ties by position. */
  search (query: SearchQuery): SearchHit[] {
    if (!this.ready) {
      const building = this.#background !== undefined
      this.stopBackground()
      this.#indexUpTo(this.#records.length)
      // The common keys' scores are still asked for in the background.
      if (building) this.buildInBackground()
    }
    // The keys that are not common are matched and scored by the index. A common key only narrows
    // those matches, through its set of holders, and adds its own score to theirs: the sum of the
    // keys' scores is the relevance, as if the index had scored every key. A query of common keys
    // alone starts from the holders of the rarest of them.
    const rare = query.keys.filter((key) => !this.#commonKeys.has(key))
    const common = query.keys.filter((key) => this.#commonKeys.has(key)).map((key) => this.#commonKeys.get(key)!)
      .sort((a, b) => a.count - b.count || (a.key < b.key ? -1 : 1))
    const phrases = query.phrases.map((phrase) => ` ${phrase.join(' ')} `)
    const hits: SearchHit[] = []
    const consider = (position: number, score: number): void => {
      if (!common.every((holders) => holds(holders, position))) return
      if (!phrases.every((phrase) => this.#foldedTexts[position]!.includes(phrase))) return
      for (const holders of common) score += scoreAt(this.#scoresOf(holders), position)
      hits.push({ position, score })
    }
    if (rare.length > 0) {
      // The index's AND score is the sum of the keys' scores times their number.
      for (const result of this.#index.search(rare.join(' '))) consider(result.id as number, result.score / rare.length)
    } else {
      const { positions, scores } = this.#scoresOf(common.shift()!)
      for (let i = 0; i < positions.length; i++) consider(positions[i]!, scores[i]!)
    }
    return hits.sort((a, b) => b.score - a.score || a.position - b.position)
  }

  /** Each holder's score for a common key alone, asked of the index once and kept. */
  #scoresOf (holders: KeyHolders): PositionScores {
    if (holders.scores === undefined) {
      const results = this.#index.search(holders.key).sort((a, b) => (a.id as number) - (b.id as number))
      holders.scores = {
        positions: Uint32Array.from(results, (result) => result.id as number),
        scores: Float64Array.from(results, (result) => result.score)
      }
    }
    return holders.scores
  }

  /** One step of the background build; false when nothing is left. */
  #buildStep (): boolean {
    if (!this.ready) {
      this.#indexUpTo(this.#indexed + 1)
      return true
    }
    const holders = this.#unscored.pop()
    if (holders === undefined) return false
    this.#scoresOf(holders)
    return true
  }

  #indexUpTo (end: number): void {
    const keyOfWord = this.#keyOfWord!
    for (let position = this.#indexed; position < Math.min(end, this.#records.length); position++) {
      const words = foldedWords(searchableText(this.#records[position]!))
      this.#foldedTexts.push(` ${words.join(' ')} `)
      const keys = words.map((word) => {
        let key = keyOfWord.get(word)
        if (key === undefined) {
          key = wordKey(word)
          keyOfWord.set(word, key)
        }
        return key
      })
      for (const key of new Set(keys)) {
        const positions = this.#positionsOfKey!.get(key)
        if (positions === undefined) this.#positionsOfKey!.set(key, [position])
        else positions.push(position)
      }
      this.#index.add({ id: position, keys: keys.join(' ') })
      this.#indexed = position + 1
    }
    // Only the build needs it; queries are a few words.
    if (this.ready) {
      this.#keyOfWord = undefined
      const least = Math.max(this.#records.length * this.#commonKeyShare, COMMON_KEY_MIN_HOLDERS)
      for (const [key, positions] of this.#positionsOfKey!) {
        if (positions.length <= least) continue
        const bits = new Uint32Array(Math.ceil(this.#records.length / 32))
        for (const position of positions) bits[position >>> 5]! |= 1 << (position & 31)
        const holders: KeyHolders = { key, bits, count: positions.length }
        this.#commonKeys.set(key, holders)
        this.#unscored.push(holders)
      }
      this.#positionsOfKey = undefined
    }
  }
}
