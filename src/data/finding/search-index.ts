import { deserialize, serialize } from 'node:v8'
import { foldedWords, wordKey } from './search-words.ts'
import { addPosition, bitWordsFor } from './position-set.ts'

/*
 * The search index of a list of texts, built in one pass of plain loops into typed arrays and
 * lists of strings: what a worker thread can build and hand over whole (./search-index-worker.ts),
 * since everything here survives a structured clone and the typed arrays are transferred.
 *
 * Relevance is BM25 as MiniSearch 7 computes it for a single field (k = 1.2, b = 0.7, d = 0.5; the
 * field's length is the number of distinct keys of the text, its average taken one text at a time
 * as MiniSearch takes it), so that `test/data/question-finder.test.ts` can hold every search to
 * MiniSearch's own answer, matches, order and scores. MiniSearch itself built a tree of some
 * hundred thousand Maps and then a result object per holder of each key: several seconds for the
 * full dataset, where this takes a fraction of one.
 */

/** BM25's parameters, MiniSearch's defaults. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 }
/**
 * A word held by at least this share of the texts is common: its pairs with other common words are
 * recorded, a bit per text each, for the phrase check (QuestionSearch).
 */
const COMMON_WORD_SHARE = 1 / 8

/**
 * A key held by at least this share of the texts is dense: the search reads a holder's score for it
 * at once, and finds the texts holding several such keys by their bits (denseKeysOf), rather than
 * looking for each holder in the key's run.
 */
const DENSE_KEY_SHARE = 1 / 16

/** The index of a list of texts; texts are named by their position in that list. */
export interface SearchIndexParts {
  /** Every key the texts hold, ascending (placeOf finds one); its place in this list is its slot. */
  readonly keys: readonly string[]
  /** `starts[slot]` to `starts[slot + 1]`: the run of a key in `positions` and `scores`. */
  readonly starts: Uint32Array
  /** The positions of the texts holding each key, ascending within a key's run. */
  readonly positions: Uint32Array
  /** Each holder's BM25 score for the key. */
  readonly scores: Float64Array
  /** Every distinct folded word of the texts, ascending, and its key at the same place of `wordKeys`. */
  readonly words: readonly string[]
  readonly wordKeys: readonly string[]
  /** Each text's folded words joined by single spaces, with a space at both ends: phrase checks are a substring search. */
  readonly foldedTexts: readonly string[]
  /** The words at least COMMON_WORD_SHARE of the texts hold, ascending. */
  readonly commonWords: readonly string[]
  /** Pairs (`word word`) of common words that some text holds in a row, ascending, and, pair after pair, a bit per text holding it. */
  readonly pairs: readonly string[]
  readonly pairHolders: Uint32Array
}

/** The typed arrays of an index, for a worker to transfer rather than copy. */
export function transferablesOf (parts: SearchIndexParts): ArrayBuffer[] {
  return [parts.starts.buffer, parts.positions.buffer, parts.scores.buffer, parts.pairHolders.buffer] as ArrayBuffer[]
}

/** The start-up cache's name for the kind of file a search index is kept in. */
export const SEARCH_INDEX_KIND = 'search-index'

/** An index as bytes, for the start-up cache (src/data/dataset/start-up-cache.ts): V8's own serialization keeps the typed arrays as they are. */
export function searchIndexBytes (parts: SearchIndexParts): Buffer {
  return serialize(parts)
}

/**
 * The index these bytes hold, when they hold a whole index of `texts` texts; undefined otherwise.
 * The bytes come from a cache file named by what the index was made of, and checked against its
 * own hash: this only makes sure that what is adopted has the shape every search relies on.
 */
export function searchIndexFromBytes (bytes: Uint8Array, texts: number): SearchIndexParts | undefined {
  let value: unknown
  try {
    value = deserialize(bytes)
  } catch {
    return undefined
  }
  const parts = value as Partial<Record<keyof SearchIndexParts, unknown>>
  const lists = [parts.keys, parts.words, parts.wordKeys, parts.foldedTexts, parts.commonWords, parts.pairs]
  if (!lists.every((list) => Array.isArray(list))) return undefined
  const { keys, starts, positions, scores, words, wordKeys, foldedTexts, pairs, pairHolders } = parts as SearchIndexParts
  if (!(starts instanceof Uint32Array) || !(positions instanceof Uint32Array) || !(scores instanceof Float64Array) || !(pairHolders instanceof Uint32Array)) return undefined
  const holders = starts[keys.length]
  if (starts.length !== keys.length + 1 || holders !== positions.length || scores.length !== holders || words.length !== wordKeys.length ||
    foldedTexts.length !== texts || pairHolders.length !== pairs.length * bitWordsFor(texts)) return undefined
  for (let at = 0; at < positions.length; at++) if (positions[at]! >= texts) return undefined
  return parts as SearchIndexParts
}

/** A growable list of small counts, by id. */
function grown (array: Uint32Array<ArrayBuffer>, length: number): Uint32Array<ArrayBuffer> {
  if (length <= array.length) return array
  const larger = new Uint32Array(Math.max(length, array.length * 2))
  larger.set(array)
  return larger
}

export function buildSearchIndex (texts: readonly string[]): SearchIndexParts {
  const count = texts.length
  const foldedTexts: string[] = []
  // Words by id: each distinct folded word once, with its key's slot, how many texts hold it, and the last text that did.
  const idOfWord = new Map<string, number>()
  const words: string[] = []
  const wordKeys: string[] = []
  let slotOfWord = new Uint32Array(1024)
  let wordHolders = new Uint32Array(1024)
  let wordLastSeen = new Uint32Array(1024)
  const slotOfKey = new Map<string, number>()
  const keys: string[] = []
  // Per text, its distinct keys' slots and how often each occurs, one text after another.
  const textSlots: number[] = []
  const textFrequencies: number[] = []
  const textEnds = new Uint32Array(count)
  const fieldLengths = new Uint32Array(count)
  let holders = new Uint32Array(1024)
  let frequencyInText = new Uint32Array(1024)
  const slotsInText: number[] = []
  let averageLength = 0
  const fold = tokenFolder()

  for (let position = 0; position < count; position++) {
    const textWords = fold(texts[position]!)
    foldedTexts.push(` ${textWords.join(' ')} `)
    slotsInText.length = 0
    for (const word of textWords) {
      let id = idOfWord.get(word)
      if (id === undefined) {
        id = words.push(word) - 1
        idOfWord.set(word, id)
        const key = wordKey(word)
        wordKeys.push(key)
        let slot = slotOfKey.get(key)
        if (slot === undefined) {
          slot = keys.push(key) - 1
          slotOfKey.set(key, slot)
          holders = grown(holders, keys.length)
          frequencyInText = grown(frequencyInText, keys.length)
        }
        slotOfWord = grown(slotOfWord, words.length)
        wordHolders = grown(wordHolders, words.length)
        wordLastSeen = grown(wordLastSeen, words.length)
        slotOfWord[id] = slot
      }
      // Positions are counted from 1 here, so that 0 means never seen.
      if (wordLastSeen[id] !== position + 1) {
        wordLastSeen[id] = position + 1
        wordHolders[id]!++
      }
      const slot = slotOfWord[id]!
      if (frequencyInText[slot]!++ === 0) slotsInText.push(slot)
    }
    for (const slot of slotsInText) {
      textSlots.push(slot)
      textFrequencies.push(frequencyInText[slot]!)
      frequencyInText[slot] = 0
      holders[slot]!++
    }
    textEnds[position] = textSlots.length
    // MiniSearch splits the text of keys on spaces: a text without words is one empty token, a length of 1.
    const length = Math.max(slotsInText.length, 1)
    fieldLengths[position] = length
    averageLength = (averageLength * position + length) / (position + 1)
  }

  // Slots in the order of their keys, so that a key is found by halving (placeOf) and the index needs no Map.
  const order = sortedOrder(keys)
  const sortedSlotOf = new Uint32Array(keys.length)
  order.forEach((slot, sorted) => { sortedSlotOf[slot] = sorted })
  const starts = new Uint32Array(keys.length + 1)
  order.forEach((slot, sorted) => { starts[sorted + 1] = starts[sorted]! + holders[slot]! })
  const positions = new Uint32Array(starts[keys.length]!)
  const scores = new Float64Array(starts[keys.length]!)
  const filled = starts.slice(0, keys.length)
  const { k, b, d } = BM25
  let at = 0
  for (let position = 0; position < count; position++) {
    const lengthFactor = k * (1 - b + b * fieldLengths[position]! / averageLength)
    for (; at < textEnds[position]!; at++) {
      const slot = textSlots[at]!
      const frequency = textFrequencies[at]!
      const matching = holders[slot]!
      const inverseFrequency = Math.log(1 + (count - matching + 0.5) / (matching + 0.5))
      const place = filled[sortedSlotOf[slot]!]!++
      positions[place] = position
      scores[place] = inverseFrequency * (d + frequency * (k + 1) / (frequency + lengthFactor))
    }
  }

  const least = count * COMMON_WORD_SHARE
  const commonWords = new Set(words.filter((_, id) => wordHolders[id]! >= least))
  const { pairs, pairHolders } = commonPairs(foldedTexts, commonWords)
  const wordOrder = sortedOrder(words)
  return {
    keys: order.map((slot) => keys[slot]!),
    starts,
    positions,
    scores,
    words: wordOrder.map((id) => words[id]!),
    wordKeys: wordOrder.map((id) => wordKeys[id]!),
    foldedTexts,
    commonWords: [...commonWords].sort(),
    pairs,
    pairHolders
  }
}

/** The places of a list's strings in ascending order (code unit order, as `<` compares). */
function sortedOrder (list: readonly string[]): number[] {
  return list.map((_, at) => at).sort((a, b) => list[a]! < list[b]! ? -1 : list[a]! > list[b]! ? 1 : 0)
}

/** What the search reads of a dense key (held by at least DENSE_KEY_SHARE of the texts) besides its run. */
export interface DenseKey {
  /** Each text's place in the key's run, plus one, or 0 for a text that lacks the key. */
  readonly ranks: Uint16Array | Uint32Array
  /** A bit per text that holds the key (bitWordsFor(texts) words, the bit of text p at word p >>> 5, bit p & 31). */
  readonly holders: Uint32Array
}

/**
 * Each dense key, by its slot. A search walks the holders of its rarest key and finds each in the
 * runs of its other keys; when the rarest key is dense, so is every other key of the query, and
 * those are the costly searches (words most questions hold, thousands of holders each). Their
 * holders in common are the AND of the keys' bits, a few hundred words' work, and each common
 * holder's score for a key one read of its rank, where a walk of the rarest key's run tested
 * thousands of holders one by one. Made from the runs when an index is put in place: for each such
 * key, two bytes and a bit per text.
 */
export function denseKeysOf (parts: SearchIndexParts, texts: number): Map<number, DenseKey> {
  const dense = new Map<number, DenseKey>()
  const least = texts * DENSE_KEY_SHARE
  const bitWords = bitWordsFor(texts)
  for (let slot = 0; slot + 1 < parts.starts.length; slot++) {
    const start = parts.starts[slot]!
    const end = parts.starts[slot + 1]!
    if (end - start < least) continue
    const ranks = end - start < 0xffff ? new Uint16Array(texts) : new Uint32Array(texts)
    const holders = new Uint32Array(bitWords)
    for (let at = start; at < end; at++) {
      const position = parts.positions[at]!
      ranks[position] = at - start + 1
      addPosition(holders, position)
    }
    dense.set(slot, { ranks, holders })
  }
  return dense
}

/**
 * Where `value` is in a list of distinct strings in ascending order, or -1.
 * @example placeOf(['a', 'b', 'd'], 'd') === 2
 */
export function placeOf (sorted: readonly string[], value: string): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    const here = sorted[middle]!
    if (here === value) return middle
    if (here < value) low = middle + 1
    else high = middle
  }
  return -1
}

/**
 * foldedWords, remembered by token: texts repeat their tokens (runs between white space) far more
 * than they repeat whole texts, and folding is Unicode normalization and two Unicode regular
 * expressions. Folding a text token by token gives its words exactly: white space folds to white
 * space (or stays), which no word crosses, and no folding rule looks across it.
 */
function tokenFolder (): (text: string) => string[] {
  const wordsOfToken = new Map<string, readonly string[]>()
  return (text) => {
    const words: string[] = []
    for (const token of text.split(WHITE_SPACE)) {
      if (token === '') continue
      let folded = wordsOfToken.get(token)
      if (folded === undefined) {
        folded = foldedWords(token)
        wordsOfToken.set(token, folded)
      }
      for (const word of folded) words.push(word)
    }
    return words
  }
}
const WHITE_SPACE = /\s+/

/** Which pairs of consecutive common words each text holds. */
function commonPairs (foldedTexts: readonly string[], common: ReadonlySet<string>): { pairs: string[], pairHolders: Uint32Array } {
  const bitWords = bitWordsFor(foldedTexts.length)
  const bitsOfPair = new Map<string, Uint32Array>()
  foldedTexts.forEach((text, position) => {
    const words = text.slice(1, -1).split(' ')
    for (let i = 0; i + 1 < words.length; i++) {
      if (!common.has(words[i]!) || !common.has(words[i + 1]!)) continue
      const pair = `${words[i]} ${words[i + 1]}`
      let bits = bitsOfPair.get(pair)
      if (bits === undefined) {
        bits = new Uint32Array(bitWords)
        bitsOfPair.set(pair, bits)
      }
      addPosition(bits, position)
    }
  })
  const pairs = [...bitsOfPair.keys()].sort()
  const pairHolders = new Uint32Array(pairs.length * bitWords)
  pairs.forEach((pair, at) => pairHolders.set(bitsOfPair.get(pair)!, at * bitWords))
  return { pairs, pairHolders }
}
