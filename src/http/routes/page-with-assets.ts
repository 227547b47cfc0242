import type { FastifyInstance } from 'fastify'
import { ApiError, describeValue } from '../errors.ts'
import { IMMUTABLE_CACHE_CONTROL } from '../response-headers.ts'
import { PreparedBody, sendPrepared } from '../answers/prepared-body.ts'

/*
 * A page for people and the assets it names (scripts, styles, an icon), as /docs and the question
 * browser serve them: the page always revalidated (it is tiny and names the current assets), each
 * asset under a fingerprinted name, immutable; all made once, on first use, and made again on the
 * next visit if making them failed.
 */

/** A page and its assets by fingerprinted name. */
export interface PageWithAssets {
  page: PreparedBody
  assets: ReadonlyMap<string, PreparedBody>
}

/** The page names the current assets: always revalidate it (cheap, by ETag). */
const PAGE_CACHE_CONTROL = 'no-cache'

/**
 * An asset's name with a short content hash: `question-browser.<hash>.js`.
 * @example fingerprintedName('scalar', 'js', body) // 'scalar.Ab12Cd34Ef56.js'
 */
export function fingerprintedName (stem: string, extension: string, body: PreparedBody): string {
  return `${stem}.${body.etag.slice(1, 13).replace(/[^A-Za-z0-9]/g, '0')}.${extension}`
}

export interface PageRoutesOptions {
  pagePath: string
  /** Where the assets are served, each at `${assetsPath}/<name>`. */
  assetsPath: string
  /** Makes the page and its assets; called on first use, and again after a failure. */
  load: () => Promise<PageWithAssets>
  /** Headers of the page's answer besides Cache-Control (its Content-Security-Policy). */
  pageHeaders: Readonly<Record<string, string>>
  /** Whether `<pagePath>/` redirects to the page (its relative addresses would point one level too deep). */
  redirectTrailingSlash?: boolean
}

/** GET the page and GET its assets, hidden from the OpenAPI document. */
export function pageWithAssetsRoutes (app: FastifyInstance, { pagePath, assetsPath, load, pageHeaders, redirectTrailingSlash = false }: PageRoutesOptions): void {
  let loaded: Promise<PageWithAssets> | undefined
  const loadOnce = () => {
    loaded ??= load().catch((error: unknown) => {
      // Let the next visit try again rather than remember a failure for the life of the process.
      loaded = undefined
      throw error
    })
    return loaded
  }

  app.get(pagePath, { schema: { hide: true } }, async (request, reply) => {
    if (redirectTrailingSlash && request.url.split('?')[0]!.endsWith('/')) return reply.redirect(`../${pagePath.split('/').at(-1)!}`, 301)
    const { page } = await loadOnce()
    reply.headers(pageHeaders)
    return sendPrepared(request, reply.header('cache-control', PAGE_CACHE_CONTROL), page)
  })
  app.get<{ Params: { name: string } }>(`${assetsPath}/:name`, { schema: { hide: true } }, async (request, reply) => {
    const asset = (await loadOnce()).assets.get(request.params.name)
    if (asset === undefined) throw new ApiError(404, `No asset ${describeValue(request.params.name.slice(0, 60))}`)
    return sendPrepared(request, reply.header('cache-control', IMMUTABLE_CACHE_CONTROL), asset)
  })
}
