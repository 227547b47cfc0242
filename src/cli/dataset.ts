import { homedir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { tesseract, unlessUnavailable } from '../data/booklets/ocr.ts'
import { BuildRefused, buildDataset, INEP_DATA_DIR } from '../data/sources/build-dataset.ts'
import { defaultConversionCache } from '../data/sources/booklets/conversion-cache.ts'
import type { CloneOrigin } from '../data/sources/fetch-source.ts'
import { SOURCE_NAMES, SOURCE_PINS, type RepositorySourceName, type SourceName } from '../data/sources/source-pins.ts'

/**
 * `npm run dataset -- <out-dir>`: every exam, from the public sources, into one dataset folder
 * (src/data/sources/build-dataset.ts). Exits 1 when a source is refused or a step fails (nothing
 * written), 2 on a bad argument.
 */
const DEFAULT_CACHE = path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'enem-api', 'sources')

const USAGE = `Usage: npm run dataset -- <out-dir> [--source NAME=PATH]... [--json]
  out-dir             the dataset folder to write; must be absent or empty (serve it with ENEM_DATA_DIR=<out-dir>)
  --source NAME=PATH  read a local copy instead of cloning; NAME is one of:
${SOURCE_NAMES.map((name) => { const pin = SOURCE_PINS[name]; return `                        ${name.padEnd(8)} ${pin.localCopy} (${pin.kind === 'files' ? `${pin.publisher}'s files, each from its pinned public git copy` : pin.repository})` }).join('\n')}
  --cache DIR         where clones are kept between builds (default ${DEFAULT_CACHE})
  --no-conversion-cache  convert every booklet anew; by default each exam's conversion is kept and reused while
                      its booklets, keys, item data and the reader's code are the same (ENEM_CONVERSION_CACHE, default
                      ${defaultConversionCache()})
  --git NAME=URL#COMMIT  clone NAME from another address and commit (a mirror); its git hashes are checked all the same
                      (not booklets: its files come from several repositories, each pinned on its own)
  --inep DIR          INEP's item data the conversions read (default ${INEP_DATA_DIR})
  --json              print the manifest (manifest.json) instead of a summary
Every path read is checked against the git hash it is pinned to (a booklet against its git blob and SHA-256); a source that does not match is refused and nothing is written.`

let parsed: ReturnType<typeof parse>
function parse () {
  return parseArgs({
    allowPositionals: true,
    options: {
      source: { type: 'string', multiple: true },
      git: { type: 'string', multiple: true },
      cache: { type: 'string' },
      inep: { type: 'string' },
      json: { type: 'boolean' },
      'no-conversion-cache': { type: 'boolean' },
      help: { type: 'boolean' }
    }
  })
}

function fail (message: string): never {
  process.stderr.write(`dataset: ${message}\n${USAGE}\n`)
  process.exit(2)
}

try {
  parsed = parse()
} catch (error) {
  fail((error as Error).message.split('\n')[0]!)
}
if (parsed.values.help === true) {
  process.stdout.write(`${USAGE}\n`)
  process.exit(0)
}
const [outDir, ...extra] = parsed.positionals
if (outDir === undefined || extra.length > 0) fail('expected one output folder')

/** `NAME=VALUE` options, by source name; a name given twice or unknown is a bad argument. */
function bySource (values: readonly string[] | undefined, option: string): Partial<Record<SourceName, string>> {
  const found: Partial<Record<SourceName, string>> = {}
  for (const value of values ?? []) {
    const at = value.indexOf('=')
    const name = value.slice(0, Math.max(at, 0))
    if (at <= 0 || at === value.length - 1) fail(`--${option} ${JSON.stringify(value)}: expected NAME=${option === 'git' ? 'URL#COMMIT' : 'PATH'}`)
    if (!(SOURCE_NAMES as readonly string[]).includes(name)) fail(`--${option} ${JSON.stringify(value)}: unknown source ${JSON.stringify(name)}, expected ${SOURCE_NAMES.join(', ')}`)
    if (found[name as SourceName] !== undefined) fail(`--${option} ${name} given twice`)
    found[name as SourceName] = value.slice(at + 1)
  }
  return found
}

const localCopies = bySource(parsed.values.source, 'source')
const origins: Partial<Record<RepositorySourceName, CloneOrigin>> = {}
for (const [name, value] of Object.entries(bySource(parsed.values.git, 'git')) as Array<[SourceName, string]>) {
  if (name === 'booklets') fail(`--git booklets=${value}: the booklets come from several repositories, each file pinned on its own; give a local copy instead (--source booklets=PATH)`)
  const hash = value.lastIndexOf('#')
  const commit = value.slice(hash + 1)
  if (hash <= 0 || !/^[0-9a-f]{40}$/.test(commit)) fail(`--git ${name}=${value}: expected URL#COMMIT, the commit in 40 hex digits`)
  origins[name] = { url: value.slice(0, hash), commit, ref: commit }
}

const json = parsed.values.json === true
// Tesseract reads booklet text set in a font with no text mapping; without it such questions are left out, and the build goes on.
const ocrWarnings: string[] = []
const ocr = unlessUnavailable(tesseract, (reason) => ocrWarnings.push(`dataset: OCR: ${reason}; booklet questions that needed it are left out (manifest.json says which)`))
const started = Date.now()
// Progress is for a person at a terminal; a pipe or a log gets the summary (or the manifest) alone.
const progress = process.stderr.isTTY ? (line: string) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}\n`) : undefined
try {
  const manifest = await buildDataset({
    outDir,
    localCopies,
    origins,
    cacheDir: path.resolve(parsed.values.cache ?? DEFAULT_CACHE),
    ...(parsed.values.inep === undefined ? {} : { inepDir: path.resolve(parsed.values.inep) }),
    ocr,
    conversionCache: parsed.values['no-conversion-cache'] === true ? null : defaultConversionCache(),
    ...(progress === undefined ? {} : { progress })
  })
  for (const warning of ocrWarnings) process.stderr.write(`${warning}\n`)
  if (json) {
    process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`)
  } else {
    for (const exam of manifest.exams) {
      const read = exam.readings
      const repaired = exam.repairs === undefined || read === undefined ? '' : `, ${read.print} as printed (agreeing with the transcription), ${read.repaired} repaired from ${exam.repairs.booklets.join(', ')}${read.notRepaired === 0 ? '' : ` (${read.notRepaired} could not be)`}, ${read.agreeingKept + read.disagreeing} the transcription's (${read.disagreeing} disagree)`
      process.stdout.write(`${exam.exam.padEnd(9)} ${String(exam.written).padStart(4)} records${exam.leftOut.length === 0 ? '' : `, ${exam.leftOut.length} left out`}${repaired}  (${exam.source})\n`)
    }
    process.stdout.write(`Wrote ${path.resolve(outDir)}: ${manifest.totals.exams} exams, ${manifest.totals.written} question records, ${manifest.totals.leftOut} left out (why: ${path.join(path.resolve(outDir), 'manifest.json')}). Serve it: ENEM_DATA_DIR=${outDir} npm start\n`)
  }
} catch (error) {
  // One line, whatever stopped it: a refusal says why; anything else says what, without a stack.
  const message = error instanceof BuildRefused ? error.message : `stopped: ${(error as Error).message?.split('\n')[0] ?? String(error)}`
  process.stderr.write(`dataset: ${message}\n`)
  process.exit(1)
}
