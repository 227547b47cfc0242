import { existsSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { PreparedBody } from '../answers/prepared-body.ts'
import { fingerprintedName, pageWithAssetsRoutes, type PageWithAssets } from './page-with-assets.ts'
import { dataProvenancePageHtml } from '../data-provenance.ts'
import type { DataCredit } from '../../data/dataset/dataset-manifest.ts'

/*
 * GET / : the question browser, a page for people (src/web/), a small client of the public API.
 * The server sends a fixed HTML shell plus one script and one stylesheet; everything the page
 * shows comes from /v1 and /files, so the page holds no data logic and needs no server routes of
 * its own for its views (they are addresses of `/` with a query, see src/web/addresses.ts).
 *
 * Where the client comes from depends on how the server runs:
 * - from the production bundle (`npm run build`, then `node dist/server.js`): scripts/build.ts
 *   writes the client next to the bundle, in dist/web/, with writeQuestionBrowserClient; it is
 *   read at start-up (a bundle without it refuses to start). esbuild is not needed at run time.
 * - from the TypeScript source (`npm run dev`, the tests, under tsx): the client is built in
 *   memory with esbuild on the first visit to `/`, as /docs loads Scalar on its first visit.
 */

export interface QuestionBrowserOptions {
  /** Base of the file addresses in records: the page's images come from there. */
  publicUrl: string
  /** The sources of the exams served (LoadedDataset.credits), credited in the footer. */
  credits?: readonly DataCredit[] | null | undefined
}

export const QUESTION_BROWSER_PATH = '/'
export const QUESTION_BROWSER_ASSETS_PATH = '/assets'

/** The client's files, as esbuild writes them (names inside dist/web/). */
const CLIENT_SCRIPT_FILE = 'question-browser.js'
const CLIENT_STYLES_FILE = 'question-browser.css'

/** This module runs from its TypeScript source (tsx) or from the bundle, dist/server.js. */
const RUNNING_FROM_SOURCE = import.meta.url.endsWith('.ts')

/** Imported by a computed name, so bundling the server neither follows nor includes it. */
const ESBUILD_MODULE = 'esbuild'

export interface ClientFiles {
  script: Buffer
  styles: Buffer
}

/** Builds the client (src/web/) with esbuild: one minified script, one stylesheet. Needs esbuild (a dev dependency). */
export async function buildQuestionBrowserClient (): Promise<ClientFiles> {
  const esbuild = await import(ESBUILD_MODULE) as typeof import('esbuild')
  const source = (name: string) => fileURLToPath(new URL(`../../web/${name}`, import.meta.url))
  const result = await esbuild.build({
    entryPoints: { 'question-browser': source('main.ts'), 'question-browser-styles': source('styles.css') },
    bundle: true,
    write: false,
    outdir: 'web',
    format: 'iife',
    platform: 'browser',
    // Browsers of the last few years; nothing older is worth the extra bytes of down-levelling.
    target: ['chrome109', 'edge109', 'firefox115', 'safari15.6'],
    minify: true,
    charset: 'utf8',
    logLevel: 'warning'
  })
  const output = (extension: string) => {
    const file = result.outputFiles.find((candidate) => candidate.path.endsWith(extension))
    if (file === undefined) throw new Error(`esbuild wrote no ${extension} file for the question browser`)
    return Buffer.from(file.contents)
  }
  return { script: output('.js'), styles: output('.css') }
}

/** `npm run build`: the client into `directory` (dist/web), where the bundled route reads it. */
export async function writeQuestionBrowserClient (directory: string): Promise<void> {
  const { script, styles } = await buildQuestionBrowserClient()
  await mkdir(directory, { recursive: true })
  await writeFile(path.join(directory, CLIENT_SCRIPT_FILE), script)
  await writeFile(path.join(directory, CLIENT_STYLES_FILE), styles)
}

/** The client written by `npm run build` next to the bundle; a bundle without it is a broken build. */
function readPrebuiltClient (): ClientFiles {
  const directory = fileURLToPath(new URL('web/', import.meta.url))
  const files = [CLIENT_SCRIPT_FILE, CLIENT_STYLES_FILE].map((name) => path.join(directory, name))
  const missing = files.filter((file) => !existsSync(file))
  if (missing.length > 0) throw new Error(`The question browser's client is missing (${missing.join(', ')}): run npm run build`)
  return { script: readFileSync(files[0]!), styles: readFileSync(files[1]!) }
}

/** The page's icon: drawn here, so the page needs no data: address and no extra file. */
const ICON_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b4fb3"/><path d="M8 17l5 5 11-12" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>'

/**
 * Content-Security-Policy of the page: scripts and styles from this server only (no inline code,
 * so nothing taken from the data can run even if it reached the DOM), API calls to this server,
 * images from this server and the public address the records' file addresses use.
 */
export function questionBrowserSecurityPolicy (publicUrl: string): string {
  const publicOrigin = new URL(publicUrl).origin
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' ${publicOrigin}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'"
  ].join('; ')
}

function pageHtml (assets: { script: string, styles: string, icon: string }, credits: readonly DataCredit[] | null): string {
  // Relative addresses: the page works behind a proxy that serves the service under a path prefix.
  return `<!doctype html>
<html lang="pt-BR">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Questões do ENEM</title>
    <meta name="description" content="Busque, leia e pratique as questões das provas do ENEM, com gabarito.">
    <link rel="icon" href="${assets.icon}" type="image/svg+xml">
    <link rel="stylesheet" href="${assets.styles}">
    <script src="${assets.script}" defer></script>
  </head>
  <body>
    <a class="skip-link" href="#conteudo">Pular para o conteúdo</a>
    <header class="site-header">
      <div class="inner">
        <a class="site-name" href="./">Questões do ENEM</a>
        <nav aria-label="Principal">
          <ul>
            <li><a href="./">Início</a></li>
            <li><a href="./?q=">Buscar</a></li>
            <li><a href="./?simulado=">Simulado</a></li>
            <li><a href="docs">API</a></li>
          </ul>
        </nav>
      </div>
    </header>
    <main id="conteudo" tabindex="-1" aria-busy="true">
      <noscript><p>Esta página precisa de JavaScript. Os dados estão na API: <a href="docs">documentação</a>.</p></noscript>
    </main>
    <footer class="site-footer">
      <div class="inner">
        <p>Questões das provas do ENEM (INEP). Os dados desta página vêm da API pública deste servidor: <a href="docs">documentação</a>, <a href="v1/openapi.json">OpenAPI</a>.</p>
        <p class="data-provenance">${dataProvenancePageHtml(credits)}</p>
      </div>
    </footer>
  </body>
</html>
`
}

function pageAssets ({ script, styles }: ClientFiles, credits: readonly DataCredit[] | null): PageWithAssets {
  const named = (extension: string, body: PreparedBody): [string, PreparedBody] => [fingerprintedName('question-browser', extension, body), body]
  const assets = new Map([
    named('js', new PreparedBody(script, { contentType: 'application/javascript; charset=utf-8' })),
    named('css', new PreparedBody(styles, { contentType: 'text/css; charset=utf-8' })),
    named('svg', new PreparedBody(Buffer.from(ICON_SVG), { contentType: 'image/svg+xml' }))
  ])
  const address = (extension: string) => `${QUESTION_BROWSER_ASSETS_PATH.slice(1)}/${[...assets.keys()].find((name) => name.endsWith(`.${extension}`))!}`
  const page = new PreparedBody(
    Buffer.from(pageHtml({ script: address('js'), styles: address('css'), icon: address('svg') }, credits)),
    { contentType: 'text/html; charset=utf-8' })
  return { page, assets }
}

/** GET / (the page) and GET /assets/:name (its script, stylesheet and icon). Hidden from the OpenAPI document. */
export async function questionBrowserRoutes (app: FastifyInstance, { publicUrl, credits = null }: QuestionBrowserOptions): Promise<void> {
  // From the bundle, the prebuilt client is read now: a bundle without it refuses to start.
  const prebuilt = RUNNING_FROM_SOURCE ? undefined : pageAssets(readPrebuiltClient(), credits)
  pageWithAssetsRoutes(app, {
    pagePath: QUESTION_BROWSER_PATH,
    assetsPath: QUESTION_BROWSER_ASSETS_PATH,
    load: prebuilt === undefined ? () => buildQuestionBrowserClient().then((files) => pageAssets(files, credits)) : () => Promise.resolve(prebuilt),
    pageHeaders: { 'content-security-policy': questionBrowserSecurityPolicy(publicUrl), 'referrer-policy': 'same-origin' }
  })
}
