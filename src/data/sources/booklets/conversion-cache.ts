import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { OcrReader } from '../../booklets/ocr.ts'
import { ITENS_PROVA_FOLDER } from '../../official/itens-prova.ts'
import { projectRoot } from '../../official/official-table.ts'
import { examFolder, type ConvertedExam, type ConvertedRecord } from '../converted-exam.ts'
import { findBookletFiles, type BookletExam } from './booklet-files.ts'
import { convertInepBooklets } from './inep-booklets.ts'

/*
 * Each exam's booklets converted once, then reused: `npm run dataset` and the tests read the same
 * cache, so that a booklet is read once per machine (once per CI run) until what it is read from
 * changes. An entry is keyed by the SHA-256 of everything the conversion depends on:
 *
 *   - CACHE_FORMAT, the layout of an entry (bumped when it changes);
 *   - the reader's code: the text of every module inep-booklets.ts imports, directly or not (the
 *     booklet reader of src/data/booklets/, the keys, ITENS_PROVA's parser, the record schemas...),
 *     found by following their relative imports; where the sources are not at hand (the bundle of
 *     dist/), the running file itself; and the version of MuPDF, which draws the pages and figures;
 *   - the OCR: none, or Tesseract's version (it reads the text set in fonts with no text mapping);
 *   - the inputs: each booklet and answer key (and the answer key's text beside it) by name and
 *     SHA-256, and the files of INEP's item data the keys are read from (ITENS_PROVA_<year>.csv, the
 *     day's key in gabaritos/), by name and SHA-256, or as absent.
 *
 * A change to any of them makes another key: nothing is ever stale, only unused. An entry is written
 * beside its final name and renamed into place, so a build that dies leaves no half entry; a cache
 * that cannot be written (a read-only home in a container) converts every time, and says nothing.
 */

/** The layout of an entry: `exam.json` (the ConvertedExam, each record's files by name) and `files/<record>/<name>`. */
export const CACHE_FORMAT = 1

/**
 * The cache folder of `npm run dataset` and the tests: ENEM_CONVERSION_CACHE when set, else
 * `enem-api/conversions` in the user's cache folder (XDG_CACHE_HOME or ~/.cache), beside the
 * clones of the sources (`enem-api/sources`).
 */
export function defaultConversionCache (): string {
  const set = process.env.ENEM_CONVERSION_CACHE
  if (set !== undefined && set !== '') return path.resolve(set)
  return path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'enem-api', 'conversions')
}

export interface CachedConversionOptions {
  /** Tesseract (src/data/booklets/ocr.ts) or none. Another reader must not be given with a cache: its readings would be keyed as Tesseract's. */
  readonly ocr: OcrReader | null
  /** The cache folder, or null to convert without one. */
  readonly cacheDir: string | null
}

/** An exam's conversion and whether it came from the cache. */
export interface CachedConversion {
  readonly exam: ConvertedExam
  readonly cached: boolean
  /** The entry's key (SHA-256, hex). */
  readonly key: string
}

/**
 * Every exam of the booklets in `sourceDir` (as convertInepBooklets finds them, oldest first), each
 * converted or taken from the cache. Throws what convertInepBooklets throws.
 */
export function convertBookletsCached (sourceDir: string, inepDir: string, options: CachedConversionOptions): CachedConversion[] {
  const exams = findBookletFiles(sourceDir)
  if (exams.length === 0) throw new Error(`${sourceDir} holds no INEP booklet (<year>_PV_impresso_D<day>_CD<n>.pdf), at its top or one folder down`)
  return exams.map((exam) => convertExamCached(exam, inepDir, options))
}

/** One exam of findBookletFiles, converted or taken from the cache. */
export function convertExamCached (exam: BookletExam, inepDir: string, options: CachedConversionOptions): CachedConversion {
  const key = conversionKey(exam, inepDir, options.ocr)
  const entry = options.cacheDir === null ? null : path.join(options.cacheDir, key)
  if (entry !== null && existsSync(path.join(entry, 'exam.json'))) {
    try {
      return { exam: readEntry(entry), cached: true, key }
    } catch {
      // An entry that cannot be read (a disk error, a hand edit) is converted again and replaced.
    }
  }
  const converted = convertAlone(exam, inepDir, options.ocr)
  if (entry !== null) writeEntry(entry, converted)
  return { exam: converted, cached: false, key }
}

/** The files of the exam as found: its booklets, answer keys and the keys' texts beside them. */
function examFiles (exam: BookletExam): string[] {
  return exam.days.flatMap((day) => [day.booklet, ...(day.answerKey === null ? [] : [day.answerKey, `${day.answerKey}.txt`])]).filter((file) => existsSync(file))
}

/** Converts the exam from a folder of links to its files alone (the folder it was found in may hold others). */
function convertAlone (exam: BookletExam, inepDir: string, ocr: OcrReader | null): ConvertedExam {
  const folder = mkdtempSync(path.join(tmpdir(), 'enem-booklets-'))
  try {
    for (const file of examFiles(exam)) symlinkSync(path.resolve(file), path.join(folder, path.basename(file)))
    const [converted, ...more] = convertInepBooklets(folder, inepDir, { ocr })
    if (converted === undefined || more.length > 0) throw new Error(`${examFolder(exam)}: its files make ${more.length + (converted === undefined ? 0 : 1)} exams`)
    return converted
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex')

/** The key of an exam's conversion (see the top of this file). */
export function conversionKey (exam: BookletExam, inepDir: string, ocr: OcrReader | null): string {
  const inputs = examFiles(exam).map((file) => `${path.basename(file)} ${sha256(readFileSync(file))}`).sort()
  const inep = [
    path.join(ITENS_PROVA_FOLDER, `ITENS_PROVA_${exam.year}.csv`),
    ...[1, 2].flatMap((day) => [`gabaritos/${exam.year}_dia${day}.pdf`, `gabaritos/${exam.year}_dia${day}.pdf.txt`])
  ].map((name) => {
    const file = path.join(inepDir, name)
    return `${name} ${existsSync(file) ? sha256(readFileSync(file)) : 'absent'}`
  })
  return sha256([
    `format ${CACHE_FORMAT}`,
    `exam ${examFolder(exam)}`,
    `code ${readerCodeHash()}`,
    `ocr ${ocr === null ? 'none' : tesseractVersion()}`,
    ...inputs,
    ...inep
  ].join('\n'))
}

let codeHash: string | undefined

/** The SHA-256 of the reader's code: the modules inep-booklets.ts reaches by its imports, and MuPDF's version. */
export function readerCodeHash (): string {
  if (codeHash !== undefined) return codeHash
  const here = fileURLToPath(import.meta.url)
  const start = path.join(path.dirname(here), 'inep-booklets.ts')
  const texts: string[] = []
  if (existsSync(start)) {
    const root = path.dirname(path.dirname(path.dirname(path.dirname(start))))
    const seen = new Set<string>()
    const queue = [start]
    while (queue.length > 0) {
      const file = queue.pop()!
      if (seen.has(file)) continue
      seen.add(file)
      const text = readFileSync(file, 'utf8')
      texts.push(`${path.relative(root, file)}\n${text}`)
      for (const [, name] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+\.ts)'/gu)) queue.push(path.resolve(path.dirname(file), name!))
    }
    texts.sort()
  } else {
    // Bundled (dist/): the bundle holds the reader's code, and changes with it.
    texts.push(readFileSync(here, 'utf8'))
  }
  let mupdf = 'unknown'
  try {
    mupdf = (JSON.parse(readFileSync(path.join(projectRoot(), 'node_modules', 'mupdf', 'package.json'), 'utf8')) as { version: string }).version
  } catch {}
  codeHash = sha256(`${texts.join('\n')}\nmupdf ${mupdf}`)
  return codeHash
}

let tesseractSaid: string | undefined

/** Tesseract's version line, or `tesseract unavailable` (it then reads nothing). */
function tesseractVersion (): string {
  if (tesseractSaid !== undefined) return tesseractSaid
  try {
    const said = execFileSync('tesseract', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    tesseractSaid = said.split('\n')[0]!.trim()
  } catch {
    tesseractSaid = 'tesseract unavailable'
  }
  return tesseractSaid
}

interface StoredRecord extends Omit<ConvertedRecord, 'files'> {
  readonly files: readonly string[]
}

interface StoredExam extends Omit<ConvertedExam, 'records'> {
  readonly format: number
  readonly records: readonly StoredRecord[]
}

/** Writes `exam` as the cache entry `entry` (a folder), whole or not at all; false when it cannot be written. */
export function writeEntry (entry: string, exam: ConvertedExam): boolean {
  const partial = `${entry}.partial-${process.pid}`
  try {
    rmSync(partial, { recursive: true, force: true })
    mkdirSync(partial, { recursive: true })
    const records = exam.records.map((record, at): StoredRecord => {
      const folder = path.join(partial, 'files', String(at))
      if (record.files.size > 0) mkdirSync(folder, { recursive: true })
      for (const [name, bytes] of record.files) writeFileSync(path.join(folder, name), typeof bytes === 'string' ? readFileSync(bytes) : bytes)
      return { ...record, files: [...record.files.keys()] }
    })
    const stored: StoredExam = { format: CACHE_FORMAT, ...exam, records }
    writeFileSync(path.join(partial, 'exam.json'), JSON.stringify(stored))
    rmSync(entry, { recursive: true, force: true })
    renameSync(partial, entry)
    return true
  } catch {
    try {
      rmSync(partial, { recursive: true, force: true })
    } catch {}
    return false
  }
}

/** The exam a cache entry holds, its files' bytes read. Throws when it is not a whole entry of this format. */
export function readEntry (entry: string): ConvertedExam {
  const stored = JSON.parse(readFileSync(path.join(entry, 'exam.json'), 'utf8')) as StoredExam
  if (stored.format !== CACHE_FORMAT) throw new Error(`${entry}: format ${stored.format}`)
  const { format: _format, records, ...exam } = stored
  return {
    ...exam,
    records: records.map((record, at): ConvertedRecord => ({
      ...record,
      files: new Map(record.files.map((name) => [name, new Uint8Array(readFileSync(path.join(entry, 'files', String(at), name)))]))
    }))
  }
}

/** Entries of the cache folder, for a report: how many and their keys. */
export function cachedKeys (cacheDir: string): string[] {
  try {
    return readdirSync(cacheDir).filter((name) => /^[0-9a-f]{64}$/u.test(name)).sort()
  } catch {
    return []
  }
}
