/*
 * Runs before `npm start` and `npm run check-data` (prestart, precheck-data). Plain JavaScript on
 * purpose: it must run in a production install (`npm ci --omit=dev`), where tsx and esbuild are
 * not installed.
 *
 * - dist/ is up to date (newer than src/, scripts/build.ts and package-lock.json): nothing to do,
 *   so a start costs no build.
 * - dist/ is missing or older, and the dev dependencies are installed: builds it (npm run build).
 * - dist/ is missing and they are not: says in one line what to do, and fails.
 * - dist/ is older and they are not (a built copy deployed without its build tools): says so in
 *   one line and goes on with the build it has.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const OUTPUTS = ['dist/server.js', 'dist/check-data.js', 'dist/search-index-worker.js', 'dist/kernel-tables-worker.js', 'dist/dataset.js', 'dist/mcp.js']
const INPUTS = ['src', 'scripts/build.ts', 'package-lock.json']

/** Newest modification time of a file, or of every file under a folder; 0 when it does not exist. */
function newestChange (relative) {
  const full = path.join(root, relative)
  if (!existsSync(full)) return 0
  const stats = statSync(full)
  if (!stats.isDirectory()) return stats.mtimeMs
  let newest = 0
  for (const entry of readdirSync(full, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs)
  }
  return newest
}

function canBuild () {
  const require = createRequire(path.join(root, 'package.json'))
  try {
    require.resolve('esbuild')
    require.resolve('tsx')
    return true
  } catch {
    return false
  }
}

const missing = OUTPUTS.filter((output) => !existsSync(path.join(root, output)))
const builtAt = missing.length > 0 ? 0 : Math.min(...OUTPUTS.map((output) => statSync(path.join(root, output)).mtimeMs))
const changedAt = Math.max(...INPUTS.map(newestChange))

if (missing.length === 0 && builtAt >= changedAt) process.exit(0)

if (canBuild()) {
  process.stderr.write(missing.length > 0 ? 'Building dist/ (first start)\n' : 'Building dist/ (the sources changed since the last build)\n')
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: root, stdio: 'inherit' })
  process.exit(build.status ?? 1)
}

if (missing.length > 0) {
  process.stderr.write(`${missing.join(' and ')} missing, and the build tools are not installed (npm ci --omit=dev): build once with them, e.g. \`npm ci && npm run build && npm prune --omit=dev\`, or run the container image (docs/operations.md, "Container")\n`)
  process.exit(1)
}
process.stderr.write('dist/ is older than the sources and the build tools are not installed (npm ci --omit=dev): running the existing build; run `npm run build` with the dev dependencies to update it\n')
