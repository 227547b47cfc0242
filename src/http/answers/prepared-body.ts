import { hash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzipSync, type BrotliOptions } from 'node:zlib'
import { Negotiator } from '@fastify/accept-negotiator'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { JSON_CONTENT_TYPE } from '../response-headers.ts'
import { deflatePartFollowedBy, deflateStateFor, gzipChunksOfParts, outputChunkFor, storedPart, type DeflatedPart, type FollowedParts } from './deflated-parts.ts'
import { ownedBuffer, ownedBytes, ownedConcat, ownedText } from '../../data/dataset/owned-bytes.ts'
import { StartUpCache, cacheKey } from '../../data/dataset/start-up-cache.ts'
import type { Question } from '../../data/record-schemas.ts'

/** The start-up cache's name for the kind of file a body's brotli form is kept in. */
const BROTLI_KIND = 'brotli'

export type ContentEncoding = 'br' | 'gzip' | 'identity'

/** Bodies this small gain nothing from compression (headers alone outweigh the saving). */
const MIN_COMPRESSIBLE_BYTES = 512

/**
 * How hard to compress. Bodies prepared once for the life of the process get the best ratio
 * (`max`); bodies kept in a cache (an exam's pages) a level that costs a few milliseconds at most,
 * paid once per entry (`fast`). A body assembled from parts compressed beforehand (`parts`: a
 * search's page or a draw, made of its questions' prepared bytes; a multi-year export, of its
 * exams') is never compressed as a whole: its gzip is its parts' deflated chunks (`gzipParts`, see
 * ./deflated-parts.ts), and gzip is what it offers; a client that takes neither gzip nor identity
 * (`br, identity;q=0`) gets brotli at the lowest quality, made for the request, unless the body
 * says it never offers br (`brotli: false`: a multi-year export, megabytes). A client that takes
 * br but not gzip gets the bytes as they are: every client takes identity unless it refuses it,
 * and compressing with brotli for one request cost it more than ten questions' CPU
 * (bench/results.md). Such a body may be made for one request (a first search) or kept (a seeded
 * draw asked again): either way it costs no compression of its own.
 */
export type CompressionEffort = 'max' | 'fast' | 'parts'

export const BROTLI_QUALITY: Readonly<Record<CompressionEffort, number>> = { max: 11, fast: 5, parts: 0 }
const GZIP_LEVEL: Record<CompressionEffort, number> = { max: 9, fast: 6, parts: 1 }
/** What a body keeps per part it shares: a reference in its list of parts and one in its gzip's. */
const PART_REFERENCE_BYTES = 16
/**
 * What a body that lists questions is made of (a page, a draw): its JSON head up to the opening of
 * its `questions` array (`{"seed":7,"questions":[`), and the records listed. The MCP tools answer
 * the same lists from it, written their own way (the key withheld).
 */
export interface Listing {
  readonly head: string
  readonly items: readonly Question[]
}

/** Raw length from which a gzip assembled from parts is sent as its chunks rather than joined (a multi-year export is megabytes). */
const CHUNKED_GZIP_MIN_BYTES = 1024 * 1024

/**
 * A response body serialized once, with its strong ETag and its compressed forms, each made on
 * first use and kept: the data never changes while the process runs.
 */
export class PreparedBody {
  /** When made from parts (a multi-year export): the parts, until `raw` is first asked for. */
  #rawParts: readonly Buffer[] | undefined
  /** Of a body made by listedJson: its bytes followed by a comma, `raw` being a view of them. */
  #listedRaw: Buffer | undefined
  #raw: Buffer | undefined
  /** Length of `raw`, known without joining its parts. */
  readonly byteLength: number
  /**
   * How many of those bytes are parts held elsewhere for the life of the process (each question's
   * prepared bytes, in a page or a draw): a body with any is never joined nor compressed into a
   * form that is kept, so what keeping it costs is `byteLength - sharedBytes` and a few references.
   */
  readonly sharedBytes: number
  readonly etag: string
  readonly contentType: string
  /** Cache-Control of this body when it is not the endpoint's usual one (an unseeded random draw is never reused). */
  readonly cacheControl: string | undefined
  /** Of a body that lists questions: its head and its records (PreparedCatalog.list). */
  readonly listing: Listing | undefined
  readonly #effort: CompressionEffort
  readonly #compress: boolean
  readonly #headers: Readonly<Record<string, string>>
  readonly #gzipParts: (() => readonly DeflatedPart[]) | undefined
  readonly #brotli: boolean
  #br: Buffer | undefined
  #gzip: Buffer | undefined
  #gzipChunkList: readonly Buffer[] | undefined
  #parts: FollowedParts | undefined
  // One field per answer, not a Map: a body is made for every first search, and most are answered once.
  #identityAnswer: PreparedAnswer | undefined
  #brAnswer: PreparedAnswer | undefined
  #gzipAnswer: PreparedAnswer | undefined
  #notModifiedAnswer: PreparedAnswer | undefined

  /**
   * `compress: false` for bytes that are compressed already (PNG, JPEG): another pass gains nothing.
   * `headers`: more headers of the 200 answers (a download's Content-Disposition).
   * `gzipParts`: parts whose bytes, one after another, are `raw`: its gzip form is assembled from them.
   * `brotli: false`: never answer br (a body made for one request too large to compress per request).
   * `raw` may be given as parts, joined only when the bytes themselves are needed (a client that
   * takes gzip of a body with `gzipParts` never needs them); the ETag must then be given.
   * `sharedBytes`: how many bytes of those parts are held elsewhere for the life of the process
   * (see the field). Only for a body of parts made with effort `parts` and `gzipParts`: its bytes are
   * sent as its parts, its gzip as its parts' chunks, and a br form made for a request is not kept.
   * `listing`: what a body that lists questions lists (see Listing).
   */
  constructor (raw: Buffer | readonly Buffer[], options: { contentType?: string, etag?: string, effort?: CompressionEffort, compress?: boolean, cacheControl?: string, headers?: Record<string, string>, gzipParts?: () => readonly DeflatedPart[], brotli?: boolean, sharedBytes?: number, listing?: Listing } = {}) {
    if (Buffer.isBuffer(raw)) {
      this.#raw = raw
      this.byteLength = raw.length
    } else {
      if (options.etag === undefined) throw new Error('a PreparedBody made from parts needs its ETag')
      this.#rawParts = raw
      this.byteLength = raw.reduce((sum, part) => sum + part.length, 0)
    }
    this.sharedBytes = options.sharedBytes ?? 0
    if (this.sharedBytes > 0 && (this.#rawParts === undefined || options.effort !== 'parts' || options.gzipParts === undefined)) {
      throw new Error('only a body of parts made with effort parts, with gzipParts, can share its bytes')
    }
    this.contentType = options.contentType ?? JSON_CONTENT_TYPE
    this.cacheControl = options.cacheControl
    this.listing = options.listing
    this.etag = options.etag ?? strongEtagOf(this.raw)
    this.#effort = options.effort ?? 'max'
    this.#compress = options.compress ?? true
    this.#headers = options.headers ?? {}
    this.#gzipParts = options.gzipParts
    this.#brotli = options.brotli ?? true
  }

  /** @example PreparedBody.json({ ok: true }).raw.toString() === '{"ok":true}' */
  static json (value: unknown, effort: CompressionEffort = 'max'): PreparedBody {
    return new PreparedBody(ownedText(JSON.stringify(value)), { effort })
  }

  /**
   * PreparedBody.json of an item that lists hold (a question), its bytes kept followed by a comma:
   * `raw` is a view of them without it, `listedRaw` the whole, so a list sends one buffer per item.
   * @example PreparedBody.listedJson({ a: 1 }).listedRaw.toString() === '{"a":1},'
   */
  static listedJson (value: unknown, effort: CompressionEffort = 'max'): PreparedBody {
    const text = JSON.stringify(value)
    const length = Buffer.byteLength(text)
    const listed = ownedBuffer(length + 1)
    listed.write(text)
    listed[length] = COMMA[0]!
    const body = new PreparedBody(listed.subarray(0, listed.length - 1), { effort })
    body.#listedRaw = listed
    return body
  }

  /**
   * The bytes keeping this body holds that nothing else holds: its length, less what it shares
   * (plus a reference per part); its compressed forms come on top, smaller than its bytes.
   */
  get ownBytes (): number {
    return this.sharedBytes === 0 ? this.byteLength : this.byteLength - this.sharedBytes + PART_REFERENCE_BYTES * this.#rawParts!.length
  }

  /**
   * The most that keeping this body holds of its own once every form it keeps is made, what a
   * cache of bodies counts: its own bytes, and as much again for its compressed forms (smaller than
   * its bytes; a body that shares its bytes keeps only its gzip's list of chunks, about as long as
   * its own list of parts).
   */
  get keptBytes (): number {
    return this.ownBytes * 2
  }

  /** The body's bytes followed by a comma, as a list holds every item but its last: kept by listedJson's bodies, made anew for any other. */
  get listedRaw (): Buffer {
    return this.#listedRaw ?? ownedConcat([this.raw, COMMA], this.byteLength + 1)
  }

  /** The bytes of the body, uncompressed (of a body that shares its bytes: joined anew, for the rare caller that needs one buffer). */
  get raw (): Buffer {
    if (this.#raw !== undefined) return this.#raw
    const joined = ownedConcat(this.#rawParts!, this.byteLength)
    if (this.sharedBytes > 0) return joined
    this.#raw = joined
    this.#rawParts = undefined
    return joined
  }

  get compressible (): boolean {
    return this.#compress && this.byteLength >= MIN_COMPRESSIBLE_BYTES
  }

  /** How this body is compressed: the effort it was made with. */
  get effort (): CompressionEffort {
    return this.#effort
  }

  /** The encoding this body answers with, by the client's Accept-Encoding (see CompressionEffort for a body assembled from parts). */
  encodingFor (acceptEncoding: string | undefined): ContentEncoding {
    if (!this.compressible) return 'identity'
    if (this.#effort !== 'parts' && this.#brotli) return negotiateEncoding(acceptEncoding)
    // Assembled from parts: gzip (their chunks) or the bytes as they are, which HTTP lets every
    // client take unless it says `identity;q=0`; only such a client gets brotli, at the lowest
    // quality. Brotli at quality 0 for a br-only client cost twice a browser's gzip.
    const chosen = oneUseChoice(acceptEncoding)
    if (chosen !== null) return chosen
    // Left: a client that names neither (oneUseChoice answers a header not sent with the bytes as they are).
    if (acceptEncoding === undefined || !refusesIdentity(acceptEncoding)) return 'identity'
    return this.#brotli && brotliOnlyNegotiator.negotiate(acceptEncoding) === 'br' ? 'br' : 'identity'
  }

  /**
   * This body compressed on its own as a part of a larger gzip body (a page, an export), made on
   * first use and kept: a question is a part of every page that lists it.
   */
  get deflatedPart (): DeflatedPart {
    return (this.#parts ??= deflatePartFollowedBy(this.raw, COMMA_PART)).part
  }

  /** deflatedPart followed by a comma, as a list holds every item but its last: one buffer to send, not two. */
  get listedPart (): DeflatedPart {
    return (this.#parts ??= deflatePartFollowedBy(this.raw, COMMA_PART)).followed
  }

  /** This body's answer in an encoding, or its 304; made on first use and kept. */
  answer (kind: ContentEncoding | 'not-modified'): PreparedAnswer {
    switch (kind) {
      case 'identity': return (this.#identityAnswer ??= this.#okAnswer(kind))
      // A body that shares its bytes makes its br for each request (see `encoded`).
      case 'br': return this.sharedBytes > 0 ? this.#okAnswer(kind) : (this.#brAnswer ??= this.#okAnswer(kind))
      case 'gzip': return (this.#gzipAnswer ??= this.#okAnswer(kind))
      case 'not-modified':
        return (this.#notModifiedAnswer ??= Object.freeze({ statusCode: 304, headers: Object.freeze({ etag: this.etag, vary: 'Accept-Encoding' }), payload: undefined }))
    }
  }

  #okAnswer (kind: ContentEncoding): PreparedAnswer {
    // A large gzip assembled from parts (an export) is sent as its chunks, never joined; a smaller one
    // of a body that owns its bytes, joined once and kept. A body that shares its bytes (a page or a
    // draw made of the questions' bytes) sends them, and its gzip, as the parts it was made of, so
    // that keeping it holds no copy: a draw of ten written as its parts in one writev cost what
    // the joined copy cost, within the bench's noise (bench/results.md).
    const shared = this.sharedBytes > 0
    if (shared && kind === 'identity') return Object.freeze({ statusCode: 200, headers: Object.freeze(this.#headersOf(kind)), payload: this.#rawParts! })
    const chunked = kind === 'gzip' && this.#gzipParts !== undefined && (shared || this.byteLength >= CHUNKED_GZIP_MIN_BYTES)
    const payload = chunked ? this.#gzipChunks() : this.encoded(kind)
    return Object.freeze({ statusCode: 200, headers: Object.freeze(this.#headersOf(kind)), payload })
  }

  #gzipChunks (): readonly Buffer[] {
    return (this.#gzipChunkList ??= Object.freeze(gzipChunksOfParts(this.#gzipParts!())))
  }

  /**
   * The headers of a 200 in an encoding. Written property by property, not as an object spread:
   * a literal with two spreads, made for every one-off search page, allocated straight into V8's
   * old generation, and was most of what a first search left there (bench/results.md).
   */
  #headersOf (kind: ContentEncoding): Record<string, string> {
    const headers: Record<string, string> = { etag: this.etag, vary: 'Accept-Encoding', 'content-type': this.contentType }
    if (kind !== 'identity') headers['content-encoding'] = kind
    for (const name in this.#headers) headers[name] = this.#headers[name]!
    return headers
  }

  encoded (encoding: ContentEncoding): Buffer {
    if (encoding === 'br') {
      // Made for a request, not kept, by a body that shares its bytes: kept, it would hold bytes of its own a cache does not count.
      if (this.sharedBytes > 0) return brotliCompressSync(this.raw, this.#brotliOptions())
      this.#br ??= ownedBytes(brotliCompressSync(this.raw, this.#brotliOptions()))
      return this.#br
    }
    if (encoding === 'gzip') {
      this.#gzip ??= this.#gzipParts !== undefined ? ownedConcat(this.#gzipChunks()) : ownedBytes(gzipSync(this.raw, { level: GZIP_LEVEL[this.#effort], ...deflateStateFor(this.raw.length) }))
      return this.#gzip
    }
    return this.raw
  }

  /**
   * Makes the br form in libuv's thread pool, so that a body of megabytes (the whole export) is
   * never compressed on the event loop when a client first asks for it; or takes it from the
   * start-up cache, where the first start that made it kept it.
   */
  async compressOffLoop (cache: StartUpCache = StartUpCache.NONE): Promise<void> {
    if (this.#br !== undefined || !this.#brotli || !this.#compress) return
    // Named by the bytes (their tag) and the brotli and quality that compressed them.
    const key = cacheKey(BROTLI_KIND, process.versions.brotli ?? '', String(BROTLI_QUALITY[this.#effort]), this.etag)
    const br = await cache.readOrMake(BROTLI_KIND, key, async () => ownedBytes(await brotliInPool(this.raw, this.#brotliOptions())))
    this.#br ??= br
  }

  #brotliOptions (): BrotliOptions {
    return {
      chunkSize: outputChunkFor(this.raw.length),
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[this.#effort],
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: this.raw.length
      }
    }
  }
}

const brotliInPool = promisify(brotliCompress)

/**
 * A strong entity tag derived from the bytes (a string's: its UTF-8 bytes; a list of strings':
 * theirs one after another), so equal tags mean equal bodies. One-shot crypto.hash: start-up tags
 * every prepared body, and a Hash object per body showed in its profile. A list is joined first,
 * not added up by its caller: in one process, hashing a page's 51 tags built by additions cost
 * 6.8 µs, the same string flat 1.3, the list joined and hashed 2.5.
 */
export function strongEtagOf (data: Buffer | string | readonly string[]): string {
  return `"${hash('sha1', typeof data === 'string' || Buffer.isBuffer(data) ? data : data.join(''), 'base64url')}"`
}

/** The comma between a list's items, and its stored block (the lists of pages and of MCP results). */
export const COMMA = Buffer.from(',')
export const COMMA_PART = storedPart(COMMA)

const negotiator = new Negotiator<ContentEncoding>({ supportedValues: ['br', 'gzip', 'identity'] })
/** For a body made for one request: gzip, its compression being a copy, or the bytes as they are (see CompressionEffort). */
const oneUseNegotiator = new Negotiator<ContentEncoding>({ supportedValues: ['gzip', 'identity'] })
/** For a body made for one request, to a client that takes neither gzip nor identity. */
const brotliOnlyNegotiator = new Negotiator<ContentEncoding>({ supportedValues: ['br'] })

/**
 * Whether a compressible body assembled from parts (effort `parts`) answers this Accept-Encoding
 * with gzip, the encoding made of its parts' deflated forms: what encodingFor chooses, asked before
 * the body exists (an MCP call deflates its questions' parts in turns of their own, src/mcp/mcp-endpoint.ts).
 */
export function partsAnswerGzip (acceptEncoding: string | undefined): boolean {
  return oneUseChoice(acceptEncoding) === 'gzip'
}

/** Of gzip and the bytes as they are, what a body made for one request answers an Accept-Encoding with (none sent: the bytes); null when the client names neither. */
function oneUseChoice (acceptEncoding: string | undefined): ContentEncoding | null {
  return acceptEncoding === undefined || acceptEncoding === '' ? 'identity' : oneUseNegotiator.negotiate(acceptEncoding)
}

/**
 * Whether an Accept-Encoding refuses the body as it is: `identity;q=0`, or `*;q=0` without naming
 * identity (RFC 9110, 12.5.3). Identity is acceptable to every other client, named or not.
 */
export function refusesIdentity (acceptEncoding: string): boolean {
  let wildcardRefused = false
  for (const entry of acceptEncoding.split(',')) {
    const [coding = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase())
    const quality = parameters.find((parameter) => parameter.startsWith('q='))
    const refused = quality !== undefined && Number(quality.slice(2)) === 0
    if (coding === 'identity') return refused
    if (coding === '*') wildcardRefused = refused
  }
  return wildcardRefused
}

/** The encoding to answer with, by the client's Accept-Encoding; identity when it names none we have. */
export function negotiateEncoding (acceptEncoding: string | undefined): ContentEncoding {
  if (acceptEncoding === undefined || acceptEncoding === '') return 'identity'
  return negotiator.negotiate(acceptEncoding) ?? 'identity'
}

/** RFC 9110 weak comparison, as If-None-Match requires: `W/"x"` matches `"x"`, and `*` matches anything. */
export function etagMatches (ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false
  if (ifNoneMatch.trim() === '*') return true
  for (const candidate of ifNoneMatch.split(',')) {
    const tag = candidate.trim()
    if (tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true
  }
  return false
}

/** How a prepared body answers one request: the status, the headers it decides, and the bytes to send. Shared and immutable. */
export interface PreparedAnswer {
  readonly statusCode: 200 | 304
  readonly headers: Readonly<Record<string, string>>
  /** Undefined for a 304; several buffers for a gzip assembled from parts, to be written one after another. */
  readonly payload: Buffer | readonly Buffer[] | undefined
}

/** How many bytes a payload holds. */
export function payloadLength (payload: Buffer | readonly Buffer[]): number {
  if (Buffer.isBuffer(payload)) return payload.length
  let length = 0
  for (const chunk of payload) length += chunk.length
  return length
}

/** A payload as one buffer, for the rare path that sends one (Fastify's reply): the fast path writes the chunks as they are. */
export function joinedPayload (payload: Buffer | readonly Buffer[] | undefined): Buffer | undefined {
  return payload === undefined || Buffer.isBuffer(payload) ? payload : Buffer.concat(payload)
}

/**
 * The answer of a prepared body to a request with these validators: 304 when the client's copy is
 * current, otherwise the encoding it asked for. Decides ETag, Vary, Content-Type and
 * Content-Encoding; the caller adds Cache-Control. Shared by the Fastify routes and the fast path
 * (src/http/server/fast-path.ts), so both answer alike. Allocates nothing: each body keeps its few answers.
 */
export function preparedAnswer (body: PreparedBody, ifNoneMatch: string | undefined, acceptEncoding: string | undefined): PreparedAnswer {
  if (etagMatches(ifNoneMatch, body.etag)) return body.answer('not-modified')
  return body.answer(body.encodingFor(acceptEncoding))
}

/** Sends a prepared body through Fastify (see preparedAnswer); the caller sets Cache-Control. */
export function sendPrepared (request: FastifyRequest, reply: FastifyReply, body: PreparedBody): FastifyReply {
  const answer = preparedAnswer(body, request.headers['if-none-match'], request.headers['accept-encoding'])
  return reply.code(answer.statusCode).headers(answer.headers).send(joinedPayload(answer.payload))
}
