import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { PreparedBody, sendPrepared } from '../answers/prepared-body.ts'
import { API_BASE } from '../endpoints.ts'
import { JSON_CACHE_CONTROL } from '../response-headers.ts'
import { fingerprintedName, pageWithAssetsRoutes, type PageWithAssets } from './page-with-assets.ts'

export interface DocsRoutesOptions {
  /** Base of the public addresses: "try it" requests go there, so the page's CSP allows it. */
  publicUrl: string
}

/** The document's addresses (the predecessor served it at /v1; /v1/openapi.json is the usual name). */
export const OPENAPI_PATHS = [API_BASE, `${API_BASE}/openapi.json`] as const
export const DOCS_PATH = '/docs'

/** Scalar's name for our document; it heads the id of every entry of the page (not the URL). */
const SCALAR_DOCUMENT_SLUG = 'enem-api'

/** Per Scalar target, `true` hides all its clients, a list hides those. What is left: shell curl, js fetch, node fetch, python requests. */
const SAMPLE_CLIENTS_HIDDEN = {
  c: true,
  clojure: true,
  csharp: true,
  dart: true,
  fsharp: true,
  go: true,
  http: true,
  java: true,
  julia: true,
  kotlin: true,
  objc: true,
  ocaml: true,
  php: true,
  powershell: true,
  r: true,
  ruby: true,
  rust: true,
  swift: true,
  shell: ['httpie', 'wget'],
  js: ['axios', 'jquery', 'ofetch', 'xhr'],
  node: ['axios', 'ofetch', 'undici'],
  python: ['python3', 'httpx_sync', 'httpx_async', 'aiohttp']
}

/**
 * The Scalar reference UI (https://github.com/scalar/scalar), configured for a page that works
 * offline: no web fonts from fonts.scalar.com, no telemetry, no AI agent or MCP, no request proxy.
 *
 * Anchors: Scalar routes by the URL fragment, which names an entry of its navigation by its id
 * without the document slug. `generateHeadingSlug` makes a Markdown heading's id
 * `<document slug>/<heading slug>`, so the introduction's heading "Errors: not found" (see
 * errorHeading) is reached at `#errors-not-found`, the fragment of `docPathFor('not_found')`, and
 * is listed in the sidebar. (Scalar's default, `#description/<slug>`, would tie error links to
 * the page's layout; a bare slug as id makes Scalar take the fragment for a route prefix.)
 */
function scalarInitScript (): string {
  const configuration = {
    url: `${API_BASE.slice(1)}/openapi.json`,
    slug: SCALAR_DOCUMENT_SLUG,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    // Its button opens client.scalar.com; "Test Request" on each operation stays, on this page.
    hideClientButton: true,
    defaultOpenAllTags: true,
    // Code samples for each operation: curl first, then JavaScript's and Node's fetch and Python's
    // requests; the dozens of other clients Scalar knows are hidden so the choice stays short.
    defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
    hiddenClients: SAMPLE_CLIENTS_HIDDEN,
    documentDownloadType: 'json',
    metaData: { title: 'ENEM API reference' }
  }
  return `'use strict'
Scalar.createApiReference('#app', Object.assign(${JSON.stringify(configuration)}, {
  generateHeadingSlug: function (heading) { return ${JSON.stringify(`${SCALAR_DOCUMENT_SLUG}/`)} + heading.slug }
}))
`
}

/**
 * The UMD bundle of the Scalar UI. @scalar/fastify-api-reference carries it inside its module
 * and only hands it out over HTTP, at `<routePrefix>/js/scalar.js`; asking a throw-away instance
 * for it once lets us serve it ourselves: compressed, with an ETag and an immutable, hashed name,
 * and without the plugin's own copies of the document.
 */
async function loadScalarBundle (): Promise<Buffer> {
  // Imported on the first visit to /docs, not at start-up: the module alone would be a large part of start-up.
  const { default: scalarApiReference } = await import('@scalar/fastify-api-reference')
  const scratch = Fastify({ logger: false })
  try {
    await scratch.register(scalarApiReference, { routePrefix: '/scalar', configuration: { content: {} } })
    const response = await scratch.inject('/scalar/js/scalar.js')
    if (response.statusCode !== 200 || !response.body.includes('createApiReference')) {
      throw new Error(`@scalar/fastify-api-reference did not hand out its bundle (status ${response.statusCode})`)
    }
    return response.rawPayload
  } finally {
    await scratch.close()
  }
}

/**
 * Content-Security-Policy of the page: it may load and call nothing but this server (and the
 * public address, where "try it" sends requests), so "works offline" is enforced by the browser.
 * Scalar injects its styles at run time, hence 'unsafe-inline' for styles only.
 */
function pageSecurityPolicy (publicUrl: string): string {
  const publicOrigin = new URL(publicUrl).origin
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${publicOrigin}`,
    "font-src 'self' data:",
    `connect-src 'self' ${publicOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join('; ')
}

function pageHtml (bundlePath: string, initPath: string): string {
  // Relative addresses: the page works behind a proxy that serves the API under a path prefix.
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>ENEM API reference</title>
    <link rel="icon" href="data:,">
  </head>
  <body>
    <noscript>This page needs JavaScript. The OpenAPI document is at <a href="${OPENAPI_PATHS[1].slice(1)}">${OPENAPI_PATHS[1]}</a>.</noscript>
    <div id="app"></div>
    <script src="${bundlePath.slice(1)}"></script>
    <script src="${initPath.slice(1)}"></script>
  </body>
</html>
`
}

/**
 * GET /v1 and /v1/openapi.json (the OpenAPI document, serialized once) and GET /docs (the
 * interactive reference built from it, with its assets served from our own dependencies).
 * All hidden from the document itself.
 */
export async function docsRoutes (app: FastifyInstance, { publicUrl }: DocsRoutesOptions): Promise<void> {
  let documentBody: PreparedBody | undefined
  // The document is complete once every route is registered; building it at start-up also means
  // a broken document stops the start instead of failing a request.
  app.addHook('onReady', async () => {
    documentBody = PreparedBody.json(app.swagger())
  })

  const sendDocument = (request: FastifyRequest, reply: FastifyReply) => {
    if (documentBody === undefined) throw new Error('the OpenAPI document is not built yet')
    return sendPrepared(request, reply.header('cache-control', JSON_CACHE_CONTROL), documentBody)
  }
  for (const url of OPENAPI_PATHS) app.get(url, { schema: { hide: true } }, sendDocument)

  pageWithAssetsRoutes(app, {
    pagePath: DOCS_PATH,
    assetsPath: `${DOCS_PATH}/assets`,
    load: buildDocsAssets,
    pageHeaders: { 'content-security-policy': pageSecurityPolicy(publicUrl) },
    redirectTrailingSlash: true
  })
}

/** The page and its assets, built on the first visit: most API servers never serve /docs. */
async function buildDocsAssets (): Promise<PageWithAssets> {
  // Bundles served once per process: compressing megabytes of JavaScript at the best ratio would
  // cost seconds on the first visit, the fast level costs a fraction of that.
  const bundle = new PreparedBody(await loadScalarBundle(), { contentType: 'application/javascript; charset=utf-8', effort: 'fast' })
  const init = new PreparedBody(Buffer.from(scalarInitScript()), { contentType: 'application/javascript; charset=utf-8' })
  const bundleName = fingerprintedName('scalar', 'js', bundle)
  const initName = fingerprintedName('init', 'js', init)
  const page = new PreparedBody(
    Buffer.from(pageHtml(`${DOCS_PATH}/assets/${bundleName}`, `${DOCS_PATH}/assets/${initName}`)),
    { contentType: 'text/html; charset=utf-8' })
  return { page, assets: new Map([[bundleName, bundle], [initName, init]]) }
}
