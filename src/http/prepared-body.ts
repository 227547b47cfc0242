import { createHash } from 'node:crypto'
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib'
import { Negotiator } from '@fastify/accept-negotiator'
import type { FastifyReply, FastifyRequest } from 'fastify'

export type ContentEncoding = 'br' | 'gzip' | 'identity'

/** Bodies this small gain nothing from compression (headers alone outweigh the saving). */
const MIN_COMPRESSIBLE_BYTES = 512

/**
 * How hard to compress. Bodies prepared once for the life of the process get the best ratio;
 * bodies assembled per request (question pages) get a level that costs well under a millisecond.
 */
export type CompressionEffort = 'max' | 'fast'

const BROTLI_QUALITY: Record<CompressionEffort, number> = { max: 11, fast: 5 }
const GZIP_LEVEL: Record<CompressionEffort, number> = { max: 9, fast: 6 }

/**
 * A response body serialized once, with its strong ETag and its compressed forms, each made on
 * first use and kept: the data never changes while the process runs.
 */
export class PreparedBody {
  readonly raw: Buffer
  readonly etag: string
  readonly contentType: string
  readonly #effort: CompressionEffort
  readonly #compress: boolean
  #br: Buffer | undefined
  #gzip: Buffer | undefined

  /** `compress: false` for bytes that are compressed already (PNG, JPEG): another pass gains nothing. */
  constructor (raw: Buffer, options: { contentType?: string, etag?: string, effort?: CompressionEffort, compress?: boolean } = {}) {
    this.raw = raw
    this.contentType = options.contentType ?? 'application/json; charset=utf-8'
    this.etag = options.etag ?? strongEtagOf(raw)
    this.#effort = options.effort ?? 'max'
    this.#compress = options.compress ?? true
  }

  /** @example PreparedBody.json({ ok: true }).raw.toString() === '{"ok":true}' */
  static json (value: unknown, effort: CompressionEffort = 'max'): PreparedBody {
    return new PreparedBody(Buffer.from(JSON.stringify(value)), { effort })
  }

  get compressible (): boolean {
    return this.#compress && this.raw.length >= MIN_COMPRESSIBLE_BYTES
  }

  encoded (encoding: ContentEncoding): Buffer {
    if (encoding === 'br') {
      this.#br ??= brotliCompressSync(this.raw, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[this.#effort],
          [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: this.raw.length
        }
      })
      return this.#br
    }
    if (encoding === 'gzip') {
      this.#gzip ??= gzipSync(this.raw, { level: GZIP_LEVEL[this.#effort] })
      return this.#gzip
    }
    return this.raw
  }
}

/** A strong entity tag derived from the bytes, so equal tags mean equal bodies. */
export function strongEtagOf (...parts: Array<Buffer | string>): string {
  const hash = createHash('sha1')
  for (const part of parts) hash.update(part)
  return `"${hash.digest('base64url')}"`
}

const negotiator = new Negotiator<ContentEncoding>({ supportedValues: ['br', 'gzip', 'identity'] })

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

/**
 * Sends a prepared body: 304 when the client's copy is current, otherwise the encoding it asked
 * for. Sets ETag and Vary; the caller sets Cache-Control.
 */
export function sendPrepared (request: FastifyRequest, reply: FastifyReply, body: PreparedBody): FastifyReply {
  reply.header('etag', body.etag)
  reply.header('vary', 'Accept-Encoding')
  if (etagMatches(request.headers['if-none-match'], body.etag)) {
    return reply.code(304).send()
  }
  reply.header('content-type', body.contentType)
  const encoding = body.compressible ? negotiateEncoding(request.headers['accept-encoding']) : 'identity'
  if (encoding !== 'identity') reply.header('content-encoding', encoding)
  return reply.send(body.encoded(encoding))
}
