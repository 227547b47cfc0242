import { rmSync } from 'node:fs'
import { build } from 'esbuild'

/*
 * `npm run build`: the production server as one ES module, dist/server.js, and beside it the data
 * check, dist/check-data.js, the dataset build, dist/dataset.js, and two worker threads, the search
 * index's, dist/search-index-worker.js, and the kernel tables', dist/kernel-tables-worker.js (each a
 * bundle of its own), so a production install (`npm ci
 * --omit=dev`, the container image) runs them with no dev tool. Bundled because start-up
 * is mostly module loading: Node resolves and links each ESM file on its own, and TypeBox alone
 * is hundreds of them: one bundle starts far sooner than tsc's one file per source file with
 * packages from node_modules.
 * Type checking is `npm run typecheck` (part of `npm test`); esbuild only strips the types.
 */

rmSync('dist', { recursive: true, force: true })
await build({
  entryPoints: { server: 'src/server.ts', 'check-data': 'src/cli/check-data.ts', dataset: 'src/cli/dataset.ts', 'search-index-worker': 'src/data/finding/search-index-worker.ts', 'kernel-tables-worker': 'src/http/server/kernel-tables-worker.ts', mcp: 'src/mcp-stdio.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Imported on first use only (a REDIS_URL, a visit to /docs): they stay in node_modules, off the start-up path.
  // MuPDF (the booklets' reader, dist/dataset.js alone) stays in node_modules as the package it is, with its
  // AGPL-3.0 licence and its WebAssembly beside it: no bundle of ours holds its code (docs/data.md).
  external: ['ioredis', '@scalar/fastify-api-reference', 'mupdf'],
  // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // Less for V8 to parse at every start. Identifiers are not renamed, so stack traces
  // and profiles keep their names, and name the TypeScript source with NODE_OPTIONS=--enable-source-maps.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  logLevel: 'warning'
})

// The question browser's client (src/web/), next to the bundle: src/http/routes/question-browser.ts
// reads it from dist/web/ when running from dist/server.js, where esbuild may not be installed.
const { writeQuestionBrowserClient } = await import('../src/http/routes/question-browser.ts')
await writeQuestionBrowserClient('dist/web')
