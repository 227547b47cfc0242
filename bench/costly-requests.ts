import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus'

/*
 * The requests that cost the server most per request among the finding endpoints (issue 26, item 3),
 * made from the dataset the server serves, with a fixed seed: every run sends the same ones. The
 * bench (bench/run.ts) measures their CPU per request beside the prepared single question's; the
 * soak (bench/soak.ts) sends them from a few connections while a normal client's latency is measured.
 */

/** What browsers send: the server may answer with either encoding. */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br'

/**
 * How many of the dataset's commonest words the searches draw from: words most questions hold, so
 * that most searches match hundreds of questions and fill their page (drawn from more, most
 * matched nothing).
 */
const COMMON_WORDS = 20
/** The phrases draw from fewer: the stop words, each held by nearly every question. */
const STOP_WORDS = 12

export interface CostlyRequests {
  /** 3 to 8 of the commonest words, with a year range and limit=50; each set of words and years once. */
  commonWordSearches: string[]
  /** `"w1 w2 …"`: 2 to 6 stop words in quotes (most occur nowhere in that order); each once. */
  stopWordPhrases: string[]
  /** Exports of two or more years but not all, each combination once. */
  multiYearExports: string[]
  /** The words the searches were drawn from, commonest first. */
  commonWords: string[]
}

/**
 * Folds as the server does for search (lower case, accents dropped) and splits into words; close
 * enough to pick the commonest words, which is all this is used for.
 */
function words (text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

/**
 * The costly requests for a dataset, from its export (JSON lines) and its years: `count` of each
 * kind, but `phraseCount` phrases (the cheapest of them, so the most a run sends).
 * @example costlyRequests(exportText, [2019, 2020], 1000).commonWordSearches[0] // '/v1/questions?q=de%20que%20a&year=2019-2020&limit=50'
 */
export function costlyRequests (exportText: string, years: readonly number[], count: number, phraseCount = count): CostlyRequests {
  const holders = new Map<string, number>()
  for (const line of exportText.split('\n')) {
    if (line === '') continue
    const record = JSON.parse(line) as { context: string | null, alternativesIntroduction: string | null, alternatives: Array<{ text: string | null }> }
    const text = [record.context ?? '', record.alternativesIntroduction ?? '', ...record.alternatives.map((alternative) => alternative.text ?? '')].join(' ')
    for (const word of new Set(words(text))) holders.set(word, (holders.get(word) ?? 0) + 1)
  }
  const commonWords = [...holders].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, COMMON_WORDS).map(([word]) => word)
  const sorted = [...years].sort((a, b) => a - b)
  const rng = xoroshiro128plus(20_261_125)
  const pick = <T>(list: readonly T[]): T => list[uniformInt(rng, 0, list.length - 1)]!

  const searches = new Set<string>()
  for (let attempt = 0; searches.size < count && attempt < count * 5; attempt++) {
    const chosen = new Set<string>()
    const size = uniformInt(rng, 3, 8)
    while (chosen.size < size) chosen.add(pick(commonWords))
    const first = uniformInt(rng, 0, sorted.length - 2)
    const last = uniformInt(rng, first + 1, sorted.length - 1)
    searches.add(`/v1/questions?q=${encodeURIComponent([...chosen].join(' '))}&year=${sorted[first]}-${sorted[last]}&limit=50`)
  }

  const phrases = new Set<string>()
  const stopWords = commonWords.slice(0, STOP_WORDS)
  for (let attempt = 0; phrases.size < phraseCount && attempt < phraseCount * 5; attempt++) {
    // Up to 6 words: 2 to 4 of 12 words make only 22,608 phrases, fewer than the bench's row sends in its runs on a quiet machine.
    const length = uniformInt(rng, 2, 6)
    const phrase = Array.from({ length }, () => pick(stopWords)).join(' ')
    phrases.add(`/v1/questions?q=${encodeURIComponent(`"${phrase}"`)}`)
  }

  // Every combination of two or more years but all, in an order drawn from the seed.
  const combinations: string[] = []
  for (let mask = 1; mask < 2 ** sorted.length - 1; mask++) {
    const chosen = sorted.filter((_, i) => (mask & (1 << i)) !== 0)
    if (chosen.length >= 2) combinations.push(`/v1/export/questions.jsonl?year=${chosen.join(',')}`)
  }
  for (let i = combinations.length - 1; i > 0; i--) {
    const j = uniformInt(rng, 0, i)
    ;[combinations[i], combinations[j]] = [combinations[j]!, combinations[i]!]
  }

  return { commonWordSearches: [...searches], stopWordPhrases: [...phrases], multiYearExports: combinations.slice(0, count), commonWords }
}
