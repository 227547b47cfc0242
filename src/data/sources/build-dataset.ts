import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, rmdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { OcrReader } from '../booklets/ocr.ts'
import { compareNewestFirst, DEFAULT_APPLICATION, parseExamKey, type Application } from '../exam-key.ts'
import { compareRows } from '../official/corrections.ts'
import { readItensProva } from '../official/itens-prova.ts'
import { formatTable } from './inep-official.ts'
import { DATASET_OFFICIAL_FOLDER, OFFICIAL_DATA_DIR, projectRoot, type CorrectionsFile } from '../official/official-table.ts'
import type { DatasetExamSummary, DatasetQuestion } from '../record-schemas.ts'
import { MANIFEST_FILE, type Manifest, type ManifestExam, type ManifestFilesSource, type ManifestSource } from '../dataset/dataset-manifest.ts'
import { printedPlaces, readingsFromBooklet, type BookletReadings } from './booklets/booklet-readings.ts'
import { parseBookletFileName } from './booklets/booklet-files.ts'
import { convertPinnedExam, pinnedBookletExams } from './booklets/booklet-source.ts'
import { examFolder, examSummary, LEFT_OUT_REASONS, type ConvertedExam } from './converted-exam.ts'
import { convertExam as convertPplExam } from './enem-dev-ppl.ts'
import { cloneSource, fetchPinnedFiles, type CloneOrigin } from './fetch-source.ts'
import { fileHashes, gitHash } from './git-hashes.ts'
import { convertExam as convertMaritacaExam } from './maritaca-2024.ts'
import { PPL_YEARS, pplFolder, SOURCE_NAMES, SOURCE_PINS, type FilesPin, type RepositorySourceName, type SourceName, type SourcePin } from './source-pins.ts'
import { correctionRows, writeConvertedExam } from './write-conversion.ts'
import { incompletenessOf } from '../record-statement.ts'

/*
 * `npm run dataset` (src/cli/dataset.ts): every exam we can serve, built from the public sources
 * (src/data/sources/source-pins.ts) into one dataset folder. Each source is cloned at its commit
 * or taken from a local copy, and every path read is checked against its git hash before anything
 * is written; 2024 and the second applications are converted as `npm run import-source` converts
 * them (checked against INEP's item data in data/inep/), and so are INEP's booklets of an exam no
 * other source gives (2025); the predecessor's exams are copied as they are, with the repository's
 * official tables (data/official/), and those records of theirs that a pinned booklet of their exam
 * can complete are repaired from it (src/data/sources/booklets/booklet-repairs.ts); everything is written to a
 * temporary folder beside the output, renamed to it at the end, with `manifest.json`. Nothing in
 * the output depends on when or where it was built, so a folder built twice is byte-identical.
 */

/** INEP's item data the conversions read, committed (data/inep/SOURCE.md). */
export const INEP_DATA_DIR = path.join(projectRoot(), 'data', 'inep')

export interface BuildOptions {
  readonly outDir: string
  /** Local copies by source name; the others are cloned. */
  readonly localCopies: Partial<Record<SourceName, string>>
  /** Where clones are kept between builds. */
  readonly cacheDir: string
  /** Another address and commit to clone a source from (a mirror); its hashes are checked all the same. */
  readonly origins?: Partial<Record<RepositorySourceName, CloneOrigin>>
  /** INEP's item data (default data/inep/). */
  readonly inepDir?: string
  /** Reads booklet text set in a font with no text mapping; none (the default): such questions are left out. */
  readonly ocr?: OcrReader | null
  /** Where each exam's booklet conversion is kept and reused (src/data/sources/booklets/conversion-cache.ts); none (the default): converted every time. */
  readonly conversionCache?: string | null
  /** Called with each step, for the terminal. */
  readonly progress?: (line: string) => void
}

/** A build stopped before writing: a source refused, a clone or a conversion failed. One line. */
export class BuildRefused extends Error {}

interface ReadySource {
  readonly pin: SourcePin
  /** The folder laid out as a local copy. */
  readonly root: string
  readonly manifest: ManifestSource
}

/** The booklets source, checked: where each pinned file stands, by its `local` path. */
interface ReadyFiles {
  readonly pin: FilesPin
  readonly paths: ReadonlyMap<string, string>
  readonly manifest: ManifestFilesSource
}

/** Builds the dataset folder `outDir` (absent or empty); returns its manifest. Throws BuildRefused, having written nothing. */
export async function buildDataset (options: BuildOptions): Promise<Manifest> {
  const progress = options.progress ?? (() => {})
  const outDir = path.resolve(options.outDir)
  if (existsSync(outDir) && readdirSync(outDir).length > 0) throw new BuildRefused(`${outDir} is not empty: build into a new folder`)
  // Whether the target can be written is known before the sources are read, not after.
  removeStalePartials(outDir)
  try {
    makeFolders(partialFolder(outDir, process.pid))
    rmdirSync(partialFolder(outDir, process.pid))
  } catch (error) {
    throw writeRefusal(error, outDir)
  }
  const inepDir = options.inepDir ?? INEP_DATA_DIR

  const sources = new Map<SourceName, ReadySource>()
  for (const name of SOURCE_NAMES) {
    const pin = SOURCE_PINS[name]
    const local = options.localCopies[name]
    if (pin.kind === 'files') continue
    let root: string
    let commit: string
    if (local !== undefined) {
      progress(`${name}: local copy ${local}`)
      root = path.resolve(local)
      commit = pin.commit
    } else {
      const origin = options.origins?.[pin.name as RepositorySourceName] ?? { url: pin.repository, commit: pin.commit, ref: pin.ref }
      progress(`${name}: cloning ${origin.url} at ${origin.commit.slice(0, 12)} into ${options.cacheDir}`)
      try {
        ({ root, commit } = await cloneSource(options.cacheDir, pin, origin))
      } catch (error) {
        // Offline, or where the repository cannot be reached, say the two ways round it (one line).
        const reason = (error as Error).message.replace(`${name}: `, '')
        throw new BuildRefused(`source ${name}: ${reason}; without the network, read a local copy of it instead (--source ${name}=PATH; --help says what PATH holds) or clone a mirror (--git ${name}=URL#COMMIT)`)
      }
    }
    verify(pin, root)
    progress(`${name}: ${pin.read.length} path${pin.read.length === 1 ? '' : 's'} match their git hashes`)
    sources.set(name, {
      pin,
      root: realpathSync(root),
      manifest: {
        name,
        title: pin.title,
        repository: pin.repository,
        ref: pin.ref,
        commit,
        licence: pin.licence,
        obtained: local === undefined ? 'git clone' : 'local copy',
        read: pin.read.map(({ path, kind, hash }) => ({ path, kind, hash }))
      }
    })
  }

  // The booklets, the source of single files, last (SOURCE_NAMES' order).
  const booklets = await readyFiles(SOURCE_PINS.booklets, options.localCopies.booklets, options.cacheDir, progress)

  const datasetExams = readDatasetExams(sources.get('dataset')!.root)
  const converted: Array<{ source: SourceName, exam: ConvertedExam }> = []
  for (const year of PPL_YEARS) {
    const exam = convertOrRefuse(() => convertPplExam(sources.get('ppl')!.root, pplFolder(year), readItensProva(inepDir, year)), `ppl: ${pplFolder(year)}`)
    progress(`ppl: ${examFolder(exam.id)} converted, ${exam.records.length} of ${exam.sourceRecords} records (${exam.leftOut.length} left out)`)
    converted.push({ source: 'ppl', exam })
  }
  {
    const exam = convertOrRefuse(() => convertMaritacaExam(sources.get('2024')!.root, '2024.jsonl', readItensProva(inepDir, 2024), inepDir), '2024: 2024.jsonl')
    progress(`2024: ${examFolder(exam.id)} converted, ${exam.records.length} of ${exam.sourceRecords} records (${exam.leftOut.length} left out)`)
    converted.push({ source: '2024', exam })
  }
  // INEP's booklets: an exam no other source gives is converted; another's records are repaired from them.
  const held = new Set([...datasetExams.map((exam) => exam.key), ...converted.map(({ exam }) => examFolder(exam.id))])
  const repairs: BookletRepairs[] = []
  for (const pinned of pinnedBookletExams(booklets.pin)) {
    const key = examFolder(pinned.id)
    let cached = false
    const exam = convertOrRefuse(() => {
      const conversion = convertPinnedExam(pinned, booklets.paths, inepDir, options.ocr ?? null, options.conversionCache ?? null)
      cached = conversion.cached
      return conversion.exam
    }, `booklets: ${key}`)
    progress(`booklets: ${key} ${cached ? 'taken from the conversion cache' : 'read'}, ${exam.records.length} of ${exam.sourceRecords} questions (${exam.leftOut.length} left out), ${exam.reading?.figures ?? 0} figures${held.has(key) ? ', to repair the records another source gives' : ''}`)
    if (held.has(key)) repairs.push({ exam, booklets: pinned.files.map((file) => path.basename(file.local)).filter((name) => parseBookletFileName(name)?.kind === 'booklet') })
    else converted.push({ source: 'booklets', exam })
  }

  const partial = partialFolder(outDir, process.pid)
  try {
    rmSync(partial, { recursive: true, force: true })
    const manifest = writeDataset(partial, { sources, booklets, datasetExams, converted, repairs, inepDir }, progress)
    if (existsSync(outDir)) rmdirSync(outDir)
    renameSync(partial, outDir)
    progress(`wrote ${outDir}: ${manifest.totals.exams} exams, ${manifest.totals.written} question records (${manifest.totals.leftOut} left out)`)
    return manifest
  } catch (error) {
    rmSync(partial, { recursive: true, force: true })
    throw writeRefusal(error, outDir)
  }
}

/** Where a build of `outDir` by process `pid` writes before its folder is whole: beside it, hidden. */
export function partialFolder (outDir: string, pid: number): string {
  return path.join(path.dirname(outDir), `.${path.basename(outDir)}.partial-${pid}`)
}

/**
 * The folders earlier builds of `outDir` left when they died (killed, out of power): those whose
 * process is gone are removed; a build running now keeps its own.
 */
export function removeStalePartials (outDir: string): string[] {
  const prefix = `.${path.basename(outDir)}.partial-`
  let names: string[]
  try {
    names = readdirSync(path.dirname(outDir))
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    if (!name.startsWith(prefix)) continue
    const pid = Number(name.slice(prefix.length))
    if (!Number.isInteger(pid) || pid <= 0 || isRunning(pid)) continue
    rmSync(path.join(path.dirname(outDir), name), { recursive: true, force: true })
    removed.push(name)
  }
  return removed
}

/**
 * `mkdirSync(folder, { recursive: true })`, one level at a time: Node's own loops forever, deaf to
 * signals, where making a folder answers ENOENT under a parent that exists (`/proc/x`: a file
 * system that makes no folders); each level made on its own fails there at once, with that code.
 */
function makeFolders (folder: string): void {
  const missing: string[] = []
  for (let at = folder; !existsSync(at); at = path.dirname(at)) {
    missing.unshift(at)
    if (path.dirname(at) === at) break
  }
  for (const level of missing) mkdirSync(level)
}

function isRunning (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

const WRITE_FAILURES: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ENOENT: 'a folder of the path does not exist',
  EEXIST: 'something stands there already'
}

/** A failure to write the dataset as one line naming the target (BuildRefused); any other error as it is. */
export function writeRefusal (error: unknown, outDir: string): unknown {
  const code = (error as NodeJS.ErrnoException).code
  if (error instanceof BuildRefused || code === undefined || !(code in WRITE_FAILURES)) return error
  const where = (error as NodeJS.ErrnoException).path ?? outDir
  return new BuildRefused(`cannot write ${outDir}: ${WRITE_FAILURES[code]} (${code} at ${where}); nothing was written`)
}

/** Refuses, in one line, the first path of `pin` that is not what its hash says. */
function verify (pin: SourcePin, root: string): void {
  for (const entry of pin.read) {
    const target = path.join(root, entry.local)
    let found: string
    try {
      found = gitHash(target, entry.kind)
    } catch (error) {
      throw new BuildRefused(`${pin.name}: ${target} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the pin is ${entry.kind} ${entry.hash} (${pin.repository} ${entry.path})`)
    }
    if (found !== entry.hash) {
      throw new BuildRefused(`${pin.name}: ${target} has git ${entry.kind} hash ${found}, the pin is ${entry.hash} (${pin.repository} ${entry.path} at ${pin.commit.slice(0, 12)})`)
    }
  }
}

/**
 * The booklets source ready to read: its files fetched (one partial clone per repository and commit)
 * or found in a local copy, each checked against its git blob and SHA-256 before anything is read.
 */
async function readyFiles (pin: FilesPin, local: string | undefined, cacheDir: string, progress: (line: string) => void): Promise<ReadyFiles> {
  let paths: ReadonlyMap<string, string>
  if (local !== undefined) {
    progress(`${pin.name}: local copy ${local}`)
    paths = new Map(pin.files.map((file) => [file.local, path.resolve(local, file.local)]))
  } else {
    progress(`${pin.name}: fetching ${pin.files.length} files from ${new Set(pin.files.map((file) => `${file.repository}@${file.commit.slice(0, 12)}`)).size} repository commits into ${cacheDir}`)
    try {
      paths = await fetchPinnedFiles(cacheDir, pin)
    } catch (error) {
      throw new BuildRefused((error as Error).message)
    }
  }
  for (const file of pin.files) {
    const target = paths.get(file.local)!
    let found: { blob: string, sha256: string }
    try {
      found = fileHashes(target)
    } catch (error) {
      throw new BuildRefused(`${pin.name}: ${target} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the pin is blob ${file.blob}, SHA-256 ${file.sha256} (${file.repository} ${file.path} at ${file.commit.slice(0, 12)})`)
    }
    if (found.blob !== file.blob || found.sha256 !== file.sha256) {
      throw new BuildRefused(`${pin.name}: ${target} has git blob hash ${found.blob} and SHA-256 ${found.sha256}, the pin is ${file.blob} and ${file.sha256} (${file.repository} ${file.path} at ${file.commit.slice(0, 12)})`)
    }
  }
  progress(`${pin.name}: ${pin.files.length} files match their git blob hashes and SHA-256`)
  return {
    pin,
    paths: new Map([...paths].map(([at, target]) => [at, realpathSync(target)])),
    manifest: {
      name: pin.name,
      title: pin.title,
      publisher: pin.publisher,
      address: pin.address,
      obtained: local === undefined ? 'git clone' : 'local copy',
      files: pin.files.map((file) => ({ ...file }))
    }
  }
}

function convertOrRefuse (convert: () => ConvertedExam, what: string): ConvertedExam {
  try {
    return convert()
  } catch (error) {
    throw new BuildRefused(`${what}: ${(error as Error).message}`)
  }
}

interface DatasetExam { readonly key: string, readonly year: number, readonly application: Application, readonly summary: DatasetExamSummary }

/** The predecessor's exams, as its exams.json lists them. */
function readDatasetExams (root: string): DatasetExam[] {
  const listed = JSON.parse(readFileSync(path.join(root, 'exams.json'), 'utf8')) as DatasetExamSummary[]
  return listed.map((summary) => ({ key: examFolder({ year: summary.year, application: summary.application ?? DEFAULT_APPLICATION }), year: summary.year, application: summary.application ?? DEFAULT_APPLICATION, summary }))
}

interface BuildParts {
  readonly sources: ReadonlyMap<SourceName, ReadySource>
  readonly booklets: ReadyFiles
  readonly datasetExams: readonly DatasetExam[]
  readonly converted: ReadonlyArray<{ source: SourceName, exam: ConvertedExam }>
  /** The booklets' readings of exams another source gives: their records repaired from them. */
  readonly repairs: readonly BookletRepairs[]
  /** INEP's item data: where a booklet of another colour prints the blue booklet's questions. */
  readonly inepDir: string
}

/** A booklet reading of an exam another source gives, and the booklet files read. */
interface BookletRepairs {
  readonly exam: ConvertedExam
  readonly booklets: readonly string[]
}

function writeDataset (outDir: string, { sources, booklets, datasetExams, converted, repairs, inepDir }: BuildParts, progress: (line: string) => void): Manifest {
  const dataset = sources.get('dataset')!
  // The predecessor's folder as it is: its exams, its top-level files (the placeholder image).
  mkdirSync(outDir)
  for (const name of readdirSync(dataset.root)) {
    if (name !== 'exams.json') cpSync(path.join(dataset.root, name), path.join(outDir, name), { recursive: true })
  }
  progress(`dataset: copied ${datasetExams.length} exams`)

  for (const { exam } of converted) writeConvertedExam(outDir, exam)
  const entries = [
    ...datasetExams.map((exam) => ({ year: exam.year, application: exam.application, summary: exam.summary })),
    ...converted.map(({ exam }) => ({ year: exam.id.year, application: exam.id.application, summary: examSummary(exam) }))
  ].sort(compareNewestFirst)
  writeFileSync(path.join(outDir, 'exams.json'), `${JSON.stringify(entries.map((entry) => entry.summary), null, 2)}\n`)

  // The repository's official tables of the predecessor's exams (what the server applies to that
  // folder served alone), and their correction rows, beside the converted exams' own.
  const official = path.join(outDir, DATASET_OFFICIAL_FOLDER)
  mkdirSync(official, { recursive: true })
  const regularYears = new Set(datasetExams.filter((exam) => exam.application === DEFAULT_APPLICATION).map((exam) => exam.year))
  for (const name of readdirSync(OFFICIAL_DATA_DIR).sort()) {
    const key = parseExamKey(name.replace(/\.json$/, ''))
    if (key !== null && key.application === DEFAULT_APPLICATION && regularYears.has(key.year)) cpSync(path.join(OFFICIAL_DATA_DIR, name), path.join(official, name))
  }
  const repositoryRows = (JSON.parse(readFileSync(path.join(OFFICIAL_DATA_DIR, 'corrections.json'), 'utf8')) as CorrectionsFile).rows
    .filter((row) => (row.application ?? DEFAULT_APPLICATION) === DEFAULT_APPLICATION && regularYears.has(row.year))
  const rows = [...repositoryRows, ...correctionRows(converted.map(({ exam }) => exam))].sort(compareRows)

  // Per record of a day with a booklet: the print where the two readings agree, the transcription (and a
  // row) where they do not, a repair where the transcription has no statement; matched by the language each
  // is served in (the rows' labels).
  const resaves = new Set(booklets.pin.files.filter((file) => file.resave !== undefined).map((file) => path.basename(file.local)))
  const applied = new Map<string, BookletReadings>()
  for (const { exam, booklets: read } of repairs) {
    const application = exam.id.application
    const servedLanguage = (record: DatasetQuestion) => rows.find((row) => row.field === 'language' && (row.application ?? DEFAULT_APPLICATION) === application &&
      row.year === record.year && row.index === record.index && row.language === record.language && row.inDataset === record.language)?.served ?? record.language
    const made = readingsFromBooklet(outDir, exam, servedLanguage, resaves, printedPlaces(exam, read, inepDir))
    applied.set(examFolder(exam.id), made)
    const { counts } = made
    progress(`booklets: ${examFolder(exam.id)}: ${counts.print} records as printed (the readings agree), ${counts.agreeingKept + counts.disagreeing} the transcription's (${counts.disagreeing} disagree), ${counts.repaired} repaired, ${counts.notRepaired} not; ${made.days.map((day) => `${day.booklet} agrees on ${day.agreeing}/${day.compared}`).join(', ')}`)
  }
  const corrections: CorrectionsFile = {
    dataset: SOURCE_NAMES.join(' + '),
    rows,
    repairs: [...applied.values()].flatMap((made) => made.repairs),
    readings: [...applied.values()].flatMap((made) => made.readings)
  }
  writeFileSync(path.join(official, 'corrections.json'), formatTable(corrections))

  const repairsOf = (key: string): Pick<ManifestExam, 'repairs' | 'readings'> => {
    const made = applied.get(key)
    if (made === undefined) return {}
    const read = repairs.find((candidate) => examFolder(candidate.exam.id) === key)!.booklets
    const { counts } = made
    return {
      repairs: { source: booklets.pin.name, booklets: [...read], repaired: counts.repaired, notRepaired: counts.notRepaired },
      readings: {
        print: counts.print,
        repaired: counts.repaired,
        agreeingKept: counts.agreeingKept,
        disagreeing: counts.disagreeing,
        notRepaired: counts.notRepaired,
        notPrinted: counts.notPrinted,
        days: made.days.map((day) => ({ ...day }))
      }
    }
  }
  const exams: ManifestExam[] = [
    ...datasetExams.map((exam): ManifestExam => {
      const records = countRecords(path.join(outDir, exam.key))
      return { exam: exam.key, year: exam.year, application: exam.application, source: 'dataset', sourceRecords: records, written: records, leftOut: [], ...repairsOf(exam.key), incomplete: countIncomplete(path.join(outDir, exam.key)) }
    }),
    ...converted.map(({ source, exam }): ManifestExam => ({
      exam: examFolder(exam.id),
      year: exam.id.year,
      application: exam.id.application,
      source,
      sourceRecords: exam.sourceRecords,
      written: exam.records.length,
      leftOut: exam.leftOut.map((left) => ({ source: left.source, index: left.index, language: left.language, reason: left.reason, about: LEFT_OUT_REASONS[left.reason], detail: left.detail })),
      ...repairsOf(examFolder(exam.id)),
      incomplete: countIncomplete(path.join(outDir, examFolder(exam.id)))
    }))
  ].sort(compareNewestFirst)
  const manifest: Manifest = {
    manifest: 1,
    sources: SOURCE_NAMES.map((name) => (name === booklets.pin.name ? booklets.manifest : sources.get(name)!.manifest)),
    official: 'The official tables of 2009–2023 are this repository\'s data/official/; 2024, the second applications and the exams converted from INEP\'s booklets (2025) are converted and checked against INEP\'s item data in its data/inep/ (data/inep/SOURCE.md), the booklets\' against their answer keys too. Where a pinned booklet prints a record the transcription gives, the record is the print\'s where the two readings agree; the records repaired from a booklet are listed in official/corrections.json (repairs), those that keep the transcription\'s reading with why (readings).',
    exams,
    totals: {
      exams: exams.length,
      written: exams.reduce((sum, exam) => sum + exam.written, 0),
      leftOut: exams.reduce((sum, exam) => sum + exam.leftOut.length, 0)
    }
  }
  writeFileSync(path.join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
  readableByAll(outDir)
  return manifest
}

/**
 * Every file 0644 and every folder 0755, whatever modes the sources had (a local copy may be
 * read-only): the replicas read the folder as another user (the container's `node`), and a
 * folder built twice is the same down to its modes.
 */
function readableByAll (dir: string): void {
  chmodSync(dir, 0o755)
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) readableByAll(full)
    else chmodSync(full, 0o644)
  }
}

/** Question folders of an exam folder that hold a record. */
/** The records of an exam folder, as written, that show no statement (src/data/record-statement.ts): served, never drawn. */
function countIncomplete (examDir: string): number {
  const folder = path.join(examDir, 'questions')
  // An exam whose every record was left out has no questions folder.
  if (!existsSync(folder)) return 0
  return readdirSync(folder).filter((name) => {
    const file = path.join(folder, name, 'details.json')
    return existsSync(file) && incompletenessOf(JSON.parse(readFileSync(file, 'utf8')) as DatasetQuestion) !== null
  }).length
}

function countRecords (examDir: string): number {
  try {
    return readdirSync(path.join(examDir, 'questions')).filter((name) => existsSync(path.join(examDir, 'questions', name, 'details.json'))).length
  } catch {
    return 0
  }
}
