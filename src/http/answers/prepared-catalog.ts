import { LRUCache } from 'lru-cache'
import { BackgroundSteps } from '../../data/dataset/background-steps.ts'
import type { Catalog, Exam } from '../../data/catalog.ts'
import type { Question } from '../../data/record-schemas.ts'
import { pushListed, storedPart, type DeflatedPart } from './deflated-parts.ts'
import { ownedText } from '../../data/dataset/owned-bytes.ts'
import { PreparedBody, strongEtagOf, type CompressionEffort } from './prepared-body.ts'

/**
 * Bytes of assembled pages kept with their compressed forms; pages are cheap to rebuild, compression
 * is not. 16 MB, not 32: under the external battery's mix the cache stayed full, and the process
 * held about 10 MB more with 32, most of the distance to the memory bound (issue 45, bench/results.md).
 */
const PAGE_CACHE_BYTES = 16 * 1024 * 1024
/** What an entry costs beyond its bytes (key, object, LRU slot), so a flood of tiny pages is bounded too. */
const PAGE_ENTRY_OVERHEAD_BYTES = 256

/**
 * Every answer that does not depend on query values, serialized once and kept for the life of the
 * process: the exam list at start-up; each exam detail and each question in the background once
 * the server listens (prepareInBackground; serializing them all was a visible share of start-up
 * in its profile), or on first use if a request comes first. Question pages are assembled from
 * the prepared question bytes, never by re-serializing records.
 */
export class PreparedCatalog {
  readonly examList: PreparedBody
  readonly #exams: readonly Exam[]
  /** Where the background preparation is: an exam, and -1 for its detail or the position of its next question. */
  #next = { exam: 0, question: -1 }
  readonly #background = new BackgroundSteps(() => this.#prepareNext())
  readonly #examDetails = new Map<Exam, PreparedBody>()
  readonly #questions = new Map<Question, PreparedBody>()
  /**
   * Assembled pages by the name of their list, offset and limit: a hit costs one lookup, where assembling costs a
   * SHA-1 over the items' tags plus the concatenation, a visible share of a page's CPU in a
   * profile. Keyed by the request, not the ETag, so a hit needs no hashing at all.
   */
  readonly #pages = new LRUCache<string, PreparedBody>({
    maxSize: PAGE_CACHE_BYTES,
    sizeCalculation: (page) => page.keptBytes + PAGE_ENTRY_OVERHEAD_BYTES
  })

  constructor (catalog: Catalog) {
    this.#exams = catalog.listExams()
    this.examList = PreparedBody.json(this.#exams.map((exam) => exam.summary))
  }

  /**
   * Serializes every exam detail and question not serialized yet, a few milliseconds per turn of
   * the event loop, so that requests never wait long. Resolves, when all are (or when stopped),
   * with how many bodies were made meanwhile.
   */
  async prepareInBackground (): Promise<number> {
    const before = this.#examDetails.size + this.#questions.size
    this.#next = { exam: 0, question: -1 }
    await this.#background.start()
    return this.#examDetails.size + this.#questions.size - before
  }

  /** Stops a background preparation (at close); what is left is serialized on first use. */
  stopBackground (): void {
    this.#background.stop()
  }

  /** Serializes the next exam detail or question of the background preparation; false when none is left. */
  #prepareNext (): boolean {
    const next = this.#next
    const exam = this.#exams[next.exam]
    if (exam === undefined) return false
    if (next.question === -1) this.examDetail(exam)
    else this.question(exam.questions[next.question]!)
    next.question++
    if (next.question >= exam.questions.length) {
      next.exam++
      next.question = -1
    }
    return next.exam < this.#exams.length
  }

  /** An exam of the catalog: at most one entry per exam is ever made. */
  examDetail (exam: Exam): PreparedBody {
    let body = this.#examDetails.get(exam)
    if (body === undefined) {
      body = PreparedBody.json({ ...exam.summary, questions: exam.questionSummaries })
      this.#examDetails.set(exam, body)
    }
    return body
  }

  /** A record of the catalog: at most one entry per record is ever made. */
  question (question: Question): PreparedBody {
    let body = this.#questions.get(question)
    if (body === undefined) {
      body = PreparedBody.listedJson(question)
      this.#questions.set(question, body)
    }
    return body
  }

  /**
   * One page of a list of questions (an exam's language view, or the matches of a search), as
   * `{ metadata, questions }`. Its pages are kept only under a name the caller gives the list
   * (`keepAs`), which must name that very list for as long as the process lives: a list made for
   * one request, unnamed, leaves nothing behind, and its page is compressed as a body made for one
   * request (see CompressionEffort).
   */
  page (view: readonly Question[], offset: number, limit: number, { keepAs }: { keepAs?: string | undefined } = {}): PreparedBody {
    const key = keepAs === undefined ? undefined : `${keepAs}|${offset}|${limit}`
    if (key !== undefined) {
      const cached = this.#pages.get(key)
      if (cached !== undefined) return cached
    }

    const page = this.pageOfItems(view.slice(offset, offset + limit), view.length, offset, limit, key === undefined ? 'parts' : 'fast')
    if (key !== undefined) this.#pages.set(key, page)
    return page
  }

  /** A page whose items were cut from a list of `total` elsewhere (QuestionFinder.findPage); made for one request unless `effort` says it is kept. */
  pageOfItems (items: readonly Question[], total: number, offset: number, limit: number, effort: CompressionEffort = 'parts'): PreparedBody {
    // What JSON.stringify({ limit, offset, total, hasMore }) gives, for numbers and a boolean, without its generic walk.
    const metadata = `{"limit":${limit},"offset":${offset},"total":${total},"hasMore":${offset + items.length < total}}`
    return this.list(`{"metadata":${metadata},"questions":[`, items, { effort })
  }

  /**
   * `head` + the questions' prepared bytes, comma-separated, + `]}`: a JSON object whose last
   * member is the array of the questions, never re-serialized. Its tag derives from the head and
   * the questions' tags. `effort` says whether it is kept with compressed forms of its own (`fast`,
   * the default) or assembled from the questions' bytes (`parts`): then it holds no copy of them,
   * and its gzip form is assembled from each question's deflated part.
   */
  list (head: string, items: readonly Question[], options: { cacheControl?: string, effort?: CompressionEffort } = {}): PreparedBody {
    // Plain loops: this runs for every page of every first search.
    const bodies: PreparedBody[] = []
    // Equal tags must mean equal bytes: the head plus the tags of the items determine the body.
    const tags = [head]
    const headBytes = ownedText(head)
    const parts: Buffer[] = [headBytes]
    let sharedBytes = 0
    // Every item but the last as its bytes followed by a comma, one buffer (see PreparedBody.listedRaw).
    const last = items.length - 1
    for (let position = 0; position <= last; position++) {
      const body = this.question(items[position]!)
      bodies.push(body)
      tags.push(body.etag)
      const part = position < last ? body.listedRaw : body.raw
      parts.push(part)
      sharedBytes += part.length
    }
    parts.push(CLOSE)
    // Asked for only when the client takes gzip: the head is the one part made here.
    const gzipParts = (): DeflatedPart[] => {
      const deflated = [storedPart(headBytes)]
      pushListed(deflated, bodies, (body) => body.listedPart, (body) => body.deflatedPart)
      deflated.push(CLOSE_PART)
      return deflated
    }
    const effort = options.effort ?? 'fast'
    // Made for a request (or a draw kept by its seed), the body is the questions' own bytes, never
    // copied (PreparedBody's sharedBytes); a page kept with its compressed forms is joined once.
    const assembled = effort === 'parts'
    return new PreparedBody(parts, { etag: strongEtagOf(tags), effort, cacheControl: options.cacheControl, gzipParts: assembled ? gzipParts : undefined, sharedBytes: assembled ? sharedBytes : 0, listing: { head, items } })
  }
}

const CLOSE = Buffer.from(']}')
const CLOSE_PART = storedPart(CLOSE)
