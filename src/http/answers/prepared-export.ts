import { LRUCache } from 'lru-cache'
import type { Catalog } from '../../data/catalog.ts'
import { PreparedBody } from './prepared-body.ts'
import type { PreparedCatalog } from './prepared-catalog.ts'

export const EXPORT_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8'

/** Multi-year exports kept; the whole dataset and single years are kept apart, for good. */
const MULTI_YEAR_CACHE_BYTES = 64 * 1024 * 1024

const NEWLINE = Buffer.from('\n')

/**
 * The JSONL export: every record as the single-question endpoint serves it (its very bytes, from
 * PreparedCatalog), one per line, by year ascending, then index, null-language record first.
 * Each body is assembled once, on first request (none on the start-up path), and kept with its
 * ETag and compressed forms; a multi-year body is the concatenation of its years' bodies, sent
 * uncompressed.
 */
export class PreparedExport {
  readonly #catalog: Catalog
  readonly #prepared: PreparedCatalog
  /** Every year the catalog holds, ascending. */
  readonly years: readonly number[]
  /** Every line of every year, built on first use; each year's bytes are a view into it, not a copy. */
  #allBytes: Buffer | undefined
  readonly #yearBytes = new Map<number, Buffer>()
  readonly #single = new Map<string, PreparedBody>()
  readonly #multi = new LRUCache<string, PreparedBody>({
    maxSize: MULTI_YEAR_CACHE_BYTES,
    sizeCalculation: (body) => body.raw.length * 2
  })

  constructor (catalog: Catalog, prepared: PreparedCatalog) {
    this.#catalog = catalog
    this.#prepared = prepared
    this.years = catalog.listExams().map((exam) => exam.summary.year).sort((a, b) => a - b)
  }

  /** The export of these years (held by the catalog, ascending, no repeats); every year for the whole dataset. */
  body (years: readonly number[]): PreparedBody {
    const whole = years.length === this.years.length
    const key = whole ? 'all' : years.join(',')
    const kept = whole || years.length === 1 ? this.#single.get(key) : this.#multi.get(key)
    if (kept !== undefined) return kept
    const raw = whole ? this.#all() : years.length === 1 ? this.#bytesOfYear(years[0]!) : Buffer.concat(years.map((year) => this.#bytesOfYear(year)))
    const body = new PreparedBody(raw, {
      contentType: EXPORT_CONTENT_TYPE,
      // Megabytes of text: the best brotli level would take seconds; this one, a fraction of one.
      effort: 'fast',
      // Even so, compressing a body is costly, so only bodies that are few (the whole dataset,
      // each year) are compressed; a client cycling through year combinations could otherwise
      // keep a core busy compressing.
      compress: whole || years.length === 1,
      headers: { 'content-disposition': `attachment; filename="${exportFileName(whole ? 'all' : years)}"` }
    })
    if (whole || years.length === 1) this.#single.set(key, body)
    else this.#multi.set(key, body)
    return body
  }

  #bytesOfYear (year: number): Buffer {
    this.#all()
    return this.#yearBytes.get(year)!
  }

  #all (): Buffer {
    if (this.#allBytes === undefined) {
      const parts: Buffer[] = []
      const ranges: Array<[number, number, number]> = []
      let length = 0
      for (const year of this.years) {
        const start = length
        for (const question of this.#catalog.getExam(year)!.questions) {
          const line = this.#prepared.question(question).raw
          parts.push(line, NEWLINE)
          length += line.length + 1
        }
        ranges.push([year, start, length])
      }
      this.#allBytes = Buffer.concat(parts, length)
      for (const [year, start, end] of ranges) this.#yearBytes.set(year, this.#allBytes.subarray(start, end))
    }
    return this.#allBytes
  }
}

/**
 * The download's file name.
 * @example exportFileName('all') === 'enem-questions.jsonl'; exportFileName([2018, 2020]) === 'enem-questions-2018_2020.jsonl'
 */
export function exportFileName (years: readonly number[] | 'all'): string {
  if (years === 'all') return 'enem-questions.jsonl'
  return years.length === 0 ? 'enem-questions-none.jsonl' : `enem-questions-${years.join('_')}.jsonl`
}
