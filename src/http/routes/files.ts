import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

export interface FileRoutesOptions {
  dataDir: string
  /** Relative paths of the files that may be served; anything else is 404 without touching the disk. */
  servableFiles: ReadonlySet<string>
}

/** A year: file names are unique (UUIDs) and never change, so clients may keep them for good. */
const FILE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60

/** Serves the question images of the dataset under /files, as the rewritten addresses in records point. */
export async function fileRoutes (app: FastifyInstance, { dataDir, servableFiles }: FileRoutesOptions): Promise<void> {
  await app.register(fastifyStatic, {
    root: path.resolve(dataDir),
    prefix: '/files/',
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    cacheControl: true,
    maxAge: FILE_MAX_AGE_SECONDS * 1000,
    immutable: true,
    acceptRanges: true,
    // The request path is only used as a key into the set the loader built; it never names a file by itself.
    allowedPath: (pathName) => servableFiles.has(pathName.replace(/^\/+/, '')),
    setHeaders: (reply, filePath) => {
      if (filePath.toLowerCase().endsWith('.svg')) {
        // An SVG opened directly is a document that could run script; forbid everything but its own styles.
        reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      }
    }
  })
}
