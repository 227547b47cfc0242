import MiniSearch from 'minisearch'
import type { Question } from '../../src/data/record-schemas.ts'
import { searchableText, type SearchHit, type SearchQuery } from '../../src/data/finding/question-search.ts'
import { foldedWords, wordKey } from '../../src/data/finding/search-words.ts'

/**
 * The reference QuestionSearch is held to: MiniSearch's own AND search over the same keys (its
 * BM25 with its default parameters), and phrases checked by reading each match's folded words.
 * MiniSearch scores an AND match by the sum of its keys' scores times their number; divided back,
 * it is the sum QuestionSearch gives.
 */
export class MiniSearchReference {
  readonly #index = new MiniSearch<{ id: number, keys: string }>({
    fields: ['keys'],
    tokenize: (text) => text.split(' '),
    processTerm: (term) => term,
    searchOptions: { combineWith: 'AND', prefix: false, fuzzy: false }
  })

  readonly #foldedTexts: string[] = []

  constructor (records: readonly Question[]) {
    records.forEach((record, position) => {
      const words = foldedWords(searchableText(record))
      this.#foldedTexts.push(` ${words.join(' ')} `)
      this.#index.add({ id: position, keys: words.map(wordKey).join(' ') })
    })
  }

  search (query: SearchQuery): SearchHit[] {
    const phrases = query.phrases.map((phrase) => ` ${phrase.join(' ')} `)
    return this.#index.search(query.keys.join(' '))
      .filter((result) => phrases.every((phrase) => this.#foldedTexts[result.id as number]!.includes(phrase)))
      .map((result) => ({ position: result.id as number, score: result.score / query.keys.length }))
      .sort((a, b) => b.score - a.score || a.position - b.position)
  }
}
