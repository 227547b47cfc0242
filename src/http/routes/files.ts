import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { ApiError, describeValue } from '../errors.ts'
import { IMMUTABLE_CACHE_CONTROL } from '../response-headers.ts'
import { sendPrepared } from '../answers/prepared-body.ts'
import type { ServedFiles } from '../answers/served-files.ts'

export interface FileRoutesOptions {
  /**
   * The files that may be served, each with the dataset folder that holds it (with several folders,
   * the one of the exam it belongs to), and their cache, shared with the MCP tools' figures;
   * anything else is 404 without touching the disk.
   */
  files: ServedFiles
}

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
export async function fileRoutes (app: FastifyInstance, { files }: FileRoutesOptions): Promise<void> {
  const roots = files.roots
  // Only for reply.sendFile (ranges), which is told the folder each time: the route below decides what may be served.
  await app.register(fastifyStatic, { root: roots.length === 0 ? path.resolve('.') : roots, serve: false, index: false, dotfiles: 'deny', cacheControl: false, acceptRanges: true })

  app.get<{ Params: { '*': string } }>('/files/*', { schema: { hide: true } }, async (request, reply) => {
    // The request path is only used as a key into the set the loader built; it never names a file by itself.
    const relative = request.params['*']
    const folder = files.folderOf(relative)
    if (folder === undefined) throw new ApiError(404, `No file at ${describeValue(`/files/${relative}`)}`)
    reply.header('cache-control', IMMUTABLE_CACHE_CONTROL)
    if (relative.toLowerCase().endsWith('.svg')) reply.header('content-security-policy', SVG_SECURITY_POLICY)
    if (request.headers.range !== undefined) return reply.sendFile(relative, path.resolve(folder))
    return sendPrepared(request, reply, await files.body(relative))
  })
}
