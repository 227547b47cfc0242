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
  #indexed = 0
  #background: NodeJS.Immediate | NodeJS.Timeout | undefined

  constructor (records: readonly Question[]) {
    this.#records = records
  }

  get ready (): boolean {
    return this.#indexed === this.#records.length
  }

  /** Starts (once, shortly) indexing the remaining records a few at a time, yielding to requests in between. */
  buildInBackground (): void {
    if (this.#background !== undefined || this.ready) return
    const step = (): void => {
      const deadline = performance.now() + STEP_MILLISECONDS
      while (!this.ready && performance.now() < deadline) this.#indexUpTo(this.#indexed + 1)
      this.#background = this.ready ? undefined : setImmediate(step)
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
      this.stopBackground()
      this.#indexUpTo(this.#records.length)
    }
    const results = this.#index.search(query.keys.join(' '))
    const hits: SearchHit[] = []
    for (const result of results) {
      const position = result.id as number
      if (query.phrases.every((phrase) => this.#foldedTexts[position]!.includes(` ${phrase.join(' ')} `))) {
        hits.push({ position, score: result.score })
      }
    }
    return hits.sort((a, b) => b.score - a.score || a.position - b.position)
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
      this.#index.add({ id: position, keys: keys.join(' ') })
      this.#indexed = position + 1
    }
    // Only the build needs it; queries are a few words.
    if (this.ready) this.#keyOfWord = undefined
  }
}
