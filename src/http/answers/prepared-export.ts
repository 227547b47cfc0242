import { LRUCache } from 'lru-cache'
import type { Catalog, Exam } from '../../data/catalog.ts'
import { APPLICATIONS, type Application } from '../../data/exam-key.ts'
import { PreparedBody } from './prepared-body.ts'
import type { PreparedCatalog } from './prepared-catalog.ts'

export const EXPORT_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8'

/** Exports of several exams kept; the whole dataset, each year and each exam are kept apart, for good. */
const MULTI_EXAM_CACHE_BYTES = 64 * 1024 * 1024

const NEWLINE = Buffer.from('\n')

/** Which exams an export holds: those of the years and applications asked for (all when not asked). */
export interface ExportSelection {
  /** The years asked for (held, ascending), or undefined when `year` was not given. */
  readonly years?: readonly number[] | undefined
  /** The applications asked for, or undefined when `application` was not given. */
  readonly applications?: ReadonlySet<Application> | undefined
}

/**
 * The JSONL export: every record as the single-question endpoint serves it (its very bytes, from
 * PreparedCatalog), one per line, by year ascending, the regular exam before the second
 * application, then index, null-language record first. Each body is assembled once, on first
 * request (none on the start-up path), and kept with its ETag and compressed forms; a body of
 * several exams that is not a whole year is the concatenation of theirs, sent uncompressed.
 */
export class PreparedExport {
  /** Every exam the catalog holds, in export order. */
  readonly #exams: readonly Exam[]
  readonly #prepared: PreparedCatalog
  /** Every year the catalog holds, ascending. */
  readonly years: readonly number[]
  /** Every line of every exam, built on first use; each exam's bytes are a view into it, not a copy. */
  #allBytes: Buffer | undefined
  readonly #examBytes = new Map<Exam, Buffer>()
  readonly #single = new Map<string, PreparedBody>()
  readonly #multi = new LRUCache<string, PreparedBody>({
    maxSize: MULTI_EXAM_CACHE_BYTES,
    sizeCalculation: (body) => body.raw.length * 2
  })

  constructor (catalog: Catalog, prepared: PreparedCatalog) {
    this.#prepared = prepared
    this.#exams = [...catalog.listExams()].sort((a, b) => a.summary.year - b.summary.year ||
      APPLICATIONS.indexOf(a.summary.application) - APPLICATIONS.indexOf(b.summary.application))
    this.years = [...new Set(this.#exams.map((exam) => exam.summary.year))]
  }

  /** The export of the exams a selection holds. */
  body (selection: ExportSelection): PreparedBody {
    const exams = this.#exams.filter((exam) => (selection.years?.includes(exam.summary.year) ?? true) &&
      (selection.applications?.has(exam.summary.application) ?? true))
    const whole = exams.length === this.#exams.length
    const fileName = exportFileName(whole ? 'all' : exams.length === 0 ? [] : selection.years ?? 'all', whole ? undefined : selection.applications)
    // The same exams may be asked for in words that name the file differently (`application=ppl`, `year=2020&application=ppl`).
    const key = `${whole ? 'all' : exams.map((exam) => exam.key).join(',')}|${fileName}`
    // Few enough to keep for good and to compress: the whole dataset, one exam, every exam of one
    // year, or none (an empty body, which the size-bounded cache would refuse: its size is 0).
    const single = whole || exams.length <= 1 || (exams.length > 0 && exams.every((exam) => exam.summary.year === exams[0]!.summary.year) &&
      exams.length === this.#exams.filter((exam) => exam.summary.year === exams[0]!.summary.year).length)
    const kept = single ? this.#single.get(key) : this.#multi.get(key)
    if (kept !== undefined) return kept
    const raw = whole ? this.#all() : exams.length === 1 ? this.#bytesOf(exams[0]!) : Buffer.concat(exams.map((exam) => this.#bytesOf(exam)))
    const body = new PreparedBody(raw, {
      contentType: EXPORT_CONTENT_TYPE,
      // Megabytes of text: the best brotli level would take seconds; this one, a fraction of one.
      effort: 'fast',
      // Even so, compressing a body is costly, so only bodies that are few (the whole dataset,
      // each year, each exam) are compressed; a client cycling through year combinations could
      // otherwise keep a core busy compressing.
      compress: single,
      headers: { 'content-disposition': `attachment; filename="${fileName}"` }
    })
    if (single) this.#single.set(key, body)
    else this.#multi.set(key, body)
    return body
  }

  #bytesOf (exam: Exam): Buffer {
    this.#all()
    return this.#examBytes.get(exam)!
  }

  #all (): Buffer {
    if (this.#allBytes === undefined) {
      const parts: Buffer[] = []
      const ranges: Array<[Exam, number, number]> = []
      let length = 0
      for (const exam of this.#exams) {
        const start = length
        for (const question of exam.questions) {
          const line = this.#prepared.question(question).raw
          parts.push(line, NEWLINE)
          length += line.length + 1
        }
        ranges.push([exam, start, length])
      }
      this.#allBytes = Buffer.concat(parts, length)
      for (const [exam, start, end] of ranges) this.#examBytes.set(exam, this.#allBytes.subarray(start, end))
    }
    return this.#allBytes
  }
}

/**
 * The download's file name: the years asked for, then the applications asked for when they are
 * not all of them.
 * @example exportFileName('all') === 'enem-questions.jsonl'; exportFileName([2018, 2020]) === 'enem-questions-2018_2020.jsonl'
 * @example exportFileName([2020], new Set(['ppl'])) === 'enem-questions-2020-ppl.jsonl'; exportFileName('all', new Set(['ppl'])) === 'enem-questions-ppl.jsonl'
 */
export function exportFileName (years: readonly number[] | 'all', applications?: ReadonlySet<Application>): string {
  if (Array.isArray(years) && years.length === 0) return 'enem-questions-none.jsonl'
  const parts = ['enem-questions']
  if (years !== 'all') parts.push(years.join('_'))
  if (applications !== undefined && APPLICATIONS.some((application) => !applications.has(application))) {
    parts.push(APPLICATIONS.filter((application) => applications.has(application)).join('_'))
  }
  return `${parts.join('-')}.jsonl`
}
