import { LRUCache } from 'lru-cache'
import type { Catalog, Exam } from '../../data/catalog.ts'
import type { Question } from '../../data/record-schemas.ts'
import { APPLICATIONS, type Application } from '../../data/exam-key.ts'
import { StartUpCache, cacheKey } from '../../data/dataset/start-up-cache.ts'
import { deflatePart, deflatedOffLoop, LARGE_PART_LEVEL, partOfDeflated, storedPart, type DeflatedPart } from './deflated-parts.ts'
import { PreparedBody, strongEtagOf } from './prepared-body.ts'
import type { PreparedCatalog } from './prepared-catalog.ts'
import { RecentKeys } from './recent-keys.ts'

export const EXPORT_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8'

/** The start-up cache's name for the kind of file an exam's deflated export lines are kept in. */
const EXPORT_PART_KIND = 'export-part'

/**
 * Exports of several exams kept; the whole dataset, each year and each exam are kept apart, for
 * good. Exam combinations are many (2^15 for 15 exams), so this keeps only what is asked again
 * (RecentKeys). Such an export holds no bytes of its own (its exams' lines and deflated parts, held
 * for good, are sent as they are): what an entry costs is its lists of parts and its few objects
 * (exportEntryBytes). When each was its bytes joined (identity) or its gzip joined (under a
 * megabyte), every one-off export was a fresh megabyte, and under a mix with exports the process
 * held a hundred megabytes more than its heap and these caches account for (issue 45, bench/results.md).
 */
export const MULTI_EXAM_CACHE_BYTES = 4 * 1024 * 1024
/**
 * What a kept several-exam export costs beside the references it counts: its body, its answers and
 * their headers, its gzip's list of chunks, its key, its slot. Kept on first request, 3,000 such
 * entries under the battery's mix raised the heap by about 40 MB: some 12 KB each.
 */
const MULTI_EXAM_ENTRY_OVERHEAD_BYTES = 12 * 1024

/** What keeping a several-exam export counts for in the cache's bound. */
export function exportEntryBytes (body: PreparedBody): number {
  return body.keptBytes + MULTI_EXAM_ENTRY_OVERHEAD_BYTES
}

const NEWLINE = Buffer.from('\n')
const HEX_DIGITS = '0123456789abcdef'
const NEWLINE_PART = storedPart(NEWLINE)

/** Which exams an export holds: those of the years and applications asked for (all when not asked). */
export interface ExportSelection {
  /** The years asked for (held, ascending), or undefined when `year` was not given. */
  readonly years?: readonly number[] | undefined
  /** The applications asked for, or undefined when `application` was not given. */
  readonly applications?: ReadonlySet<Application> | undefined
  /** The `year` value as asked (`1999-2004`), for the name of an export that holds nothing. */
  readonly yearAsked?: string | undefined
  /**
   * Which records of those exams to hold (the record filters, `skill` and `difficulty`), and the
   * normalized form of those filters (their key); undefined for every record.
   */
  readonly records?: { readonly key: string, readonly matches: (question: Question) => boolean } | undefined
}

/**
 * The JSONL export: every record as the single-question endpoint serves it (its very bytes, from
 * PreparedCatalog), one per line, by year ascending, the regular exam before the second
 * application, then index, null-language record first. Each body is assembled once, on first
 * request (none on the start-up path), and kept with its ETag and compressed forms. Every body's
 * gzip is assembled from its exams' deflated parts, each compressed once (./deflated-parts.ts). A
 * body of several exams that is not a whole year is their bytes one after another, tagged by the
 * dataset's tag and which exams it holds, and compressed as a body made for one request: gzip from the exams' parts, never brotli (a
 * client that takes br but not gzip gets it as it is).
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
  readonly #examParts = new Map<Exam, DeflatedPart>()
  readonly #examTags = new Map<Exam, string>()
  /** How many exams each year holds: an export of all of a year's exams is one kept for good. */
  readonly #examsPerYear = new Map<number, number>()
  /** Each exam's place in export order: its bit in an export's key and in the tag of a several-exam export (#maskOf). */
  readonly #positions = new Map<Exam, number>()
  #everyTag: string | undefined
  readonly #single = new Map<string, PreparedBody>()
  readonly #multi: LRUCache<string, PreparedBody>
  /** Several-exam exports asked lately: one is kept from its second request on. */
  readonly #repeats = new RecentKeys()

  /** `multiExamCacheBytes`: the bound of the several-exam exports kept (MULTI_EXAM_CACHE_BYTES unless a test sets its own). */
  constructor (catalog: Catalog, prepared: PreparedCatalog, { multiExamCacheBytes = MULTI_EXAM_CACHE_BYTES }: { multiExamCacheBytes?: number } = {}) {
    this.#prepared = prepared
    this.#multi = new LRUCache<string, PreparedBody>({
      maxSize: multiExamCacheBytes,
      sizeCalculation: exportEntryBytes
    })
    this.#exams = [...catalog.listExams()].sort((a, b) => a.summary.year - b.summary.year ||
      APPLICATIONS.indexOf(a.summary.application) - APPLICATIONS.indexOf(b.summary.application))
    this.years = [...new Set(this.#exams.map((exam) => exam.summary.year))]
    for (const [at, exam] of this.#exams.entries()) {
      this.#examsPerYear.set(exam.summary.year, (this.#examsPerYear.get(exam.summary.year) ?? 0) + 1)
      this.#positions.set(exam, at)
    }
  }

  /** Bytes the kept several-exam exports count for (exportEntryBytes each), at most the bound. */
  get multiExamKeptBytes (): number {
    return this.#multi.calculatedSize
  }

  /** How many exports are kept for good (the whole dataset, each exam, each year, under their own names): bounded by the exams. */
  get keptForGood (): number {
    return this.#single.size
  }

  /** The export of the exams a selection holds. */
  body (selection: ExportSelection): PreparedBody {
    const exams = this.#selected(selection)
    const whole = exams.length === this.#exams.length
    const fileName = exams.length === 0
      ? emptyExportFileName(selection)
      : exportFileName(whole ? 'all' : selection.years ?? 'all', whole ? undefined : selection.applications)
    const headers = { 'content-disposition': `attachment; filename="${fileName}"` }
    // Nothing to keep: its name repeats what was asked, which has no bound (any range of years).
    if (exams.length === 0) return new PreparedBody(Buffer.alloc(0), { contentType: EXPORT_CONTENT_TYPE, headers })
    // The same exams may be asked for in words that name the file differently (`application=ppl`, `year=2020&application=ppl`).
    const examSet = whole ? 'all' : this.#maskOf(exams)
    const key = `${examSet}|${fileName}`
    if (selection.records !== undefined) {
      return this.#someRecords(exams, selection.records, `${key}|${selection.records.key}`, headers)
    }
    const gzipParts = () => exams.map((exam) => this.#partOf(exam))
    if (whole || this.#keptForGood(exams, selection)) {
      let body = this.#single.get(key)
      if (body === undefined) {
        body = new PreparedBody(whole ? this.#all() : this.#adjacentBytesOf(exams), {
          contentType: EXPORT_CONTENT_TYPE,
          // Megabytes of text: the best brotli level would take seconds; this one, a fraction of one.
          effort: 'fast',
          gzipParts,
          headers
        })
        this.#single.set(key, body)
      }
      return body
    }
    // Only a key asked for before can be kept: asking the repeat filter first spares a one-off export a lookup in the cache.
    const seen = this.#repeats.seenBefore(key)
    const kept = seen ? this.#multi.get(key) : undefined
    if (kept !== undefined) return kept
    // Its bytes are views into the whole export's, held for good: sent as they are, never joined (PreparedBody's sharedBytes).
    const parts = exams.map((exam) => this.#bytesOf(exam))
    const body = new PreparedBody(parts, {
      contentType: EXPORT_CONTENT_TYPE,
      // Equal tags mean equal bytes: the exams' lines are the dataset's (no hash per request: bench/results.md).
      etag: `"${this.#datasetTag()}.${examSet}"`,
      effort: 'parts',
      gzipParts,
      brotli: false,
      headers,
      sharedBytes: parts.reduce((sum, part) => sum + part.length, 0)
    })
    if (seen) this.#multi.set(key, body)
    return body
  }

  /** The exams a selection holds, in export order. */
  #selected ({ years, applications }: ExportSelection): Exam[] {
    const exams: Exam[] = []
    for (const exam of this.#exams) {
      if ((years === undefined || years.includes(exam.summary.year)) && (applications === undefined || applications.has(exam.summary.application))) exams.push(exam)
    }
    return exams
  }

  /**
   * Whether an export of some of the exams (not all) is kept for good: one exam, or every exam of
   * one year, each under a name of its own years. Few enough to keep for good and to compress at
   * leisure. A name may list years none of its exams is of (`year=2010,2013,2020&application=ppl`
   * is 2013's second application alone): such names are as many as sets of years, and kept for
   * good, each with its own gzip, they held a hundred megabytes after ten minutes of the battery's
   * mix (issue 45). Those are made as several-exam exports are, of shared parts, and kept only in
   * that bounded cache.
   */
  #keptForGood (exams: readonly Exam[], { years }: ExportSelection): boolean {
    const first = exams[0]!.summary.year
    const oneYear = exams.every((exam) => exam.summary.year === first)
    if (!oneYear || (exams.length > 1 && exams.length !== this.#examsPerYear.get(first))) return false
    // Named by its one year (an exam's year is among those asked), not by others beside it.
    return years === undefined || years.length === 1
  }

  /** Which exams of the dataset these are: a bit per exam in export order, written 4 to a hex digit. */
  #maskOf (exams: readonly Exam[]): string {
    const digits = new Uint8Array(Math.ceil(this.#exams.length / 4))
    for (const exam of exams) {
      const at = this.#positions.get(exam)!
      digits[at >> 2]! |= 1 << (at & 3)
    }
    let mask = ''
    for (const digit of digits) mask += HEX_DIGITS[digit]
    return mask
  }

  /** A tag of every exam's lines (their tags, hashed once), unquoted. */
  #datasetTag (): string {
    this.#everyTag ??= strongEtagOf(this.#exams.map((exam) => this.#tagOf(exam))).slice(1, -1)
    return this.#everyTag
  }

  /**
   * Compresses, in libuv's thread pool, what would otherwise be compressed on the event loop at a
   * first request and hold it longer than any request may (tens to hundreds of milliseconds): each
   * exam's part (an export of several exams compresses those it holds) and the whole export's br.
   * The server waits for it before it listens. Serializing the lines is done here, on the loop,
   * before listening. What a start before this one compressed of the same lines is read from the
   * start-up cache instead, and what this one compresses is kept there.
   */
  async prepareAhead (cache: StartUpCache = StartUpCache.NONE): Promise<void> {
    await Promise.all(this.#exams.map(async (exam) => {
      const raw = this.#bytesOf(exam)
      // Named by the lines it compresses and the zlib that compressed them; any deflate of these bytes is a correct part.
      const key = cacheKey(EXPORT_PART_KIND, process.versions.zlib, String(LARGE_PART_LEVEL), this.#tagOf(exam))
      const deflated = await cache.readOrMake(EXPORT_PART_KIND, key, () => deflatedOffLoop(raw, LARGE_PART_LEVEL))
      if (!this.#examParts.has(exam)) this.#examParts.set(exam, partOfDeflated(raw, deflated))
    }))
    await this.body({}).compressOffLoop(cache)
  }

  /**
   * The lines of the records of `exams` that `records` holds: made for one request (its gzip from
   * the records' deflated parts), then kept among the several-exam exports.
   */
  #someRecords (exams: readonly Exam[], records: NonNullable<ExportSelection['records']>, key: string, headers: Record<string, string>): PreparedBody {
    const kept = this.#multi.get(key)
    if (kept !== undefined) return kept
    const bodies = exams.flatMap((exam) => exam.questions.filter(records.matches)).map((question) => this.#prepared.question(question))
    const body = new PreparedBody(bodies.flatMap((line) => [line.raw, NEWLINE]), {
      contentType: EXPORT_CONTENT_TYPE,
      etag: strongEtagOf([key, '|', ...bodies.map((line) => line.etag)]),
      effort: 'parts',
      gzipParts: () => bodies.flatMap((line) => [line.deflatedPart, NEWLINE_PART]),
      brotli: false,
      headers
    })
    // An empty body costs nothing to make again.
    if (body.byteLength > 0 && this.#repeats.seenBefore(key)) this.#multi.set(key, body)
    return body
  }

  /** An exam's lines compressed on their own, once: a part of the gzip of every export that holds the exam. */
  #partOf (exam: Exam): DeflatedPart {
    let part = this.#examParts.get(exam)
    if (part === undefined) {
      part = deflatePart(this.#bytesOf(exam), LARGE_PART_LEVEL)
      this.#examParts.set(exam, part)
    }
    return part
  }

  /** The tag of an exam's lines, hashed once. */
  #tagOf (exam: Exam): string {
    let tag = this.#examTags.get(exam)
    if (tag === undefined) {
      tag = strongEtagOf(this.#bytesOf(exam))
      this.#examTags.set(exam, tag)
    }
    return tag
  }

  /**
   * The lines of exams that lie one after another in the export (one exam, or every exam of a year:
   * the export is in year order), as a view into the whole export's bytes: a copy of each year's
   * lines, kept for good, was the whole export's size over again.
   */
  #adjacentBytesOf (exams: readonly Exam[]): Buffer {
    const all = this.#all()
    const first = this.#bytesOf(exams[0]!)
    const last = this.#bytesOf(exams.at(-1)!)
    // From the first exam's first line to the last one's last: nothing else lies between them, since
    // they are one exam or all of one year, and #exams (the export's order) is sorted by year first.
    return all.subarray(first.byteOffset - all.byteOffset, last.byteOffset - all.byteOffset + last.length)
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
 * The name of an export whose filters select no exam: what was asked, as any export is named, and
 * `empty`. `enem-questions-none.jsonl` said neither (it read like a filter named "none"), and every
 * empty download got that one name, each saved over the last.
 * @example emptyExportFileName({ yearAsked: '1999-2004', years: [] }) === 'enem-questions-1999_2004-empty.jsonl'
 * @example emptyExportFileName({ years: [2023], yearAsked: '2023', applications: new Set(['ppl']) }) === 'enem-questions-2023-ppl-empty.jsonl'
 */
export function emptyExportFileName (selection: ExportSelection): string {
  const parts = ['enem-questions']
  const years = selection.yearAsked?.replace(/[^0-9]+/g, '_').replace(/^_+|_+$/g, '')
  if (years !== undefined && years !== '') parts.push(years)
  if (selection.applications !== undefined) parts.push(APPLICATIONS.filter((application) => selection.applications!.has(application)).join('_'))
  parts.push('empty')
  return `${parts.join('-')}.jsonl`
}

/**
 * The download's file name: the years asked for, then the applications asked for when they are
 * not all of them.
 * @example exportFileName('all') === 'enem-questions.jsonl'; exportFileName([2018, 2020]) === 'enem-questions-2018_2020.jsonl'
 * @example exportFileName([2020], new Set(['ppl'])) === 'enem-questions-2020-ppl.jsonl'; exportFileName('all', new Set(['ppl'])) === 'enem-questions-ppl.jsonl'
 */
export function exportFileName (years: readonly number[] | 'all', applications?: ReadonlySet<Application>): string {
  const parts = ['enem-questions']
  if (years !== 'all') parts.push(years.join('_'))
  if (applications !== undefined && APPLICATIONS.some((application) => !applications.has(application))) {
    parts.push(APPLICATIONS.filter((application) => applications.has(application)).join('_'))
  }
  return `${parts.join('-')}.jsonl`
}
