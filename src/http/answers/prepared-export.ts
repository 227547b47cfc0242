import { LRUCache } from 'lru-cache'
import type { Catalog } from '../../data/catalog.ts'
import { deflatePart, LARGE_PART_LEVEL, type DeflatedPart } from './deflated-parts.ts'
import { PreparedBody, strongEtagOf } from './prepared-body.ts'
import type { PreparedCatalog } from './prepared-catalog.ts'

export const EXPORT_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8'

/**
 * Multi-year exports kept (bytes counted as if both their raw and gzip forms were made); the whole
 * dataset and single years are kept apart, for good. Year combinations are many (2^15 for 15
 * exams), so this keeps what is asked again, and what is not costs no more than a copy.
 */
export const MULTI_YEAR_CACHE_BYTES = 64 * 1024 * 1024

const NEWLINE = Buffer.from('\n')

/**
 * The JSONL export: every record as the single-question endpoint serves it (its very bytes, from
 * PreparedCatalog), one per line, by year ascending, then index, null-language record first.
 * Each body is assembled once, on first request (none on the start-up path), and kept with its
 * ETag and compressed forms. Every body's gzip is assembled from its years' deflated parts, each
 * compressed once (./deflated-parts.ts). A multi-year body is its years' bytes one after another,
 * tagged by their tags, and compressed as a body made for one request: gzip from the years'
 * parts, never brotli (a client that takes br but not gzip gets it as it is).
 */
export class PreparedExport {
  readonly #catalog: Catalog
  readonly #prepared: PreparedCatalog
  /** Every year the catalog holds, ascending. */
  readonly years: readonly number[]
  /** Every line of every year, built on first use; each year's bytes are a view into it, not a copy. */
  #allBytes: Buffer | undefined
  readonly #yearBytes = new Map<number, Buffer>()
  readonly #yearParts = new Map<number, DeflatedPart>()
  readonly #single = new Map<string, PreparedBody>()
  readonly #multi: LRUCache<string, PreparedBody>

  /** `multiYearCacheBytes`: the bound of the multi-year exports kept (MULTI_YEAR_CACHE_BYTES unless a test sets its own). */
  constructor (catalog: Catalog, prepared: PreparedCatalog, { multiYearCacheBytes = MULTI_YEAR_CACHE_BYTES }: { multiYearCacheBytes?: number } = {}) {
    this.#catalog = catalog
    this.#prepared = prepared
    this.#multi = new LRUCache<string, PreparedBody>({
      maxSize: multiYearCacheBytes,
      sizeCalculation: (body) => body.byteLength * 2
    })
    this.years = catalog.listExams().map((exam) => exam.summary.year).sort((a, b) => a - b)
  }

  /** Bytes the kept multi-year exports count for (each its raw length twice), at most the bound. */
  get multiYearKeptBytes (): number {
    return this.#multi.calculatedSize
  }

  /** The export of these years (held by the catalog, ascending, no repeats); every year for the whole dataset. */
  body (years: readonly number[]): PreparedBody {
    const whole = years.length === this.years.length
    const key = whole ? 'all' : years.join(',')
    const kept = whole || years.length === 1 ? this.#single.get(key) : this.#multi.get(key)
    if (kept !== undefined) return kept
    const headers = { 'content-disposition': `attachment; filename="${exportFileName(whole ? 'all' : years)}"` }
    const gzipParts = () => years.map((year) => this.#partOfYear(year))
    if (whole || years.length === 1) {
      const body = new PreparedBody(whole ? this.#all() : this.#bytesOfYear(years[0]!), {
        contentType: EXPORT_CONTENT_TYPE,
        // Megabytes of text: the best brotli level would take seconds; this one, a fraction of one.
        effort: 'fast',
        gzipParts,
        headers
      })
      this.#single.set(key, body)
      return body
    }
    // Equal tags must mean equal bytes: the years' tags determine the body (hashing megabytes per request did not bound its cost).
    const body = new PreparedBody(years.map((year) => this.#bytesOfYear(year)), {
      contentType: EXPORT_CONTENT_TYPE,
      etag: strongEtagOf(years.map((year) => this.body([year]).etag).join('')),
      effort: 'once',
      gzipParts,
      brotli: false,
      headers
    })
    this.#multi.set(key, body)
    return body
  }

  /** A year's lines compressed on their own, once: a part of the gzip of every export that holds the year. */
  #partOfYear (year: number): DeflatedPart {
    let part = this.#yearParts.get(year)
    if (part === undefined) {
      part = deflatePart(this.#bytesOfYear(year), LARGE_PART_LEVEL)
      this.#yearParts.set(year, part)
    }
    return part
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
