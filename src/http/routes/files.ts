import { readFile } from 'node:fs/promises'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { LRUCache } from 'lru-cache'
import { ApiError, describeValue } from '../errors.ts'
import { IMMUTABLE_CACHE_CONTROL } from '../response-headers.ts'
import { PreparedBody, sendPrepared } from '../answers/prepared-body.ts'

export interface FileRoutesOptions {
  /**
   * Relative paths of the files that may be served, each with the dataset folder that holds it (with
   * several folders, the one of the exam it belongs to); anything else is 404 without touching the disk.
   */
  servableFiles: ReadonlyMap<string, string>
}

/** Bytes of files kept in memory. The whole image set is ~100 MB; the popular part fits in this. */
const FILE_CACHE_BYTES = 32 * 1024 * 1024

/** The dataset's file types; anything else is served as bytes, never sniffed (nosniff is on). */
const CONTENT_TYPES: Record<string, { type: string, compress: boolean }> = {
  png: { type: 'image/png', compress: false },
  jpg: { type: 'image/jpeg', compress: false },
  jpeg: { type: 'image/jpeg', compress: false },
  gif: { type: 'image/gif', compress: false },
  webp: { type: 'image/webp', compress: false },
  bmp: { type: 'image/bmp', compress: true },
  svg: { type: 'image/svg+xml', compress: true }
}
const UNKNOWN_TYPE = { type: 'application/octet-stream', compress: false }

/**
 * An SVG opened directly is a document that could run script; forbid everything but its own styles
 * and the images it carries inside itself (`data:` addresses, as the dataset's SVGs embed theirs).
 */
const SVG_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"

/**
 * Serves the question images of the dataset under /files, as the rewritten addresses in records
 * point. Whole files come from a bounded in-memory cache with a strong ETag (streaming each one
 * from disk cost several times the CPU of sending it from memory); byte ranges go to @fastify/static.
 */
export async function fileRoutes (app: FastifyInstance, { servableFiles }: FileRoutesOptions): Promise<void> {
  const roots = [...new Set(servableFiles.values())].map((dir) => path.resolve(dir))
  // Only for reply.sendFile (ranges), which is told the folder each time: the route below decides what may be served.
  await app.register(fastifyStatic, { root: roots.length === 0 ? path.resolve('.') : roots, serve: false, index: false, dotfiles: 'deny', cacheControl: false, acceptRanges: true })

  const files = new LRUCache<string, PreparedBody>({
    maxSize: FILE_CACHE_BYTES,
    sizeCalculation: (body) => body.raw.length,
    fetchMethod: async (relative) => {
      const kind = CONTENT_TYPES[path.extname(relative).slice(1).toLowerCase()] ?? UNKNOWN_TYPE
      return new PreparedBody(await readFile(path.resolve(servableFiles.get(relative)!, relative)), { contentType: kind.type, compress: kind.compress, effort: 'fast' })
    }
  })

  app.get<{ Params: { '*': string } }>('/files/*', { schema: { hide: true } }, async (request, reply) => {
    // The request path is only used as a key into the set the loader built; it never names a file by itself.
    const relative = request.params['*']
    const folder = servableFiles.get(relative)
    if (folder === undefined) throw new ApiError(404, `No file at ${describeValue(`/files/${relative}`)}`)
    reply.header('cache-control', IMMUTABLE_CACHE_CONTROL)
    if (relative.toLowerCase().endsWith('.svg')) reply.header('content-security-policy', SVG_SECURITY_POLICY)
    if (request.headers.range !== undefined) return reply.sendFile(relative, path.resolve(folder))
    const body = await files.fetch(relative)
    return sendPrepared(request, reply, body!)
  })
}
