import { readFileSync } from 'node:fs'
import path from 'node:path'
import Type from 'typebox'
import { Compile } from 'typebox/compile'
import { ApplicationSchema } from '../record-schemas.ts'

/*
 * `manifest.json`, which `npm run dataset` writes at the top of the dataset folder it builds
 * (src/data/sources/build-dataset.ts): where every source came from (public address, commit,
 * licence, the git hash of each path read) and, per exam, the records written and those left out
 * with the reason. The server and `check-data` read it to credit the sources a folder serves.
 */

export const MANIFEST_FILE = 'manifest.json'

export const ManifestRepositorySourceSchema = Type.Object({
  name: Type.String({ description: 'The source\'s name for `--source NAME=PATH`' }),
  title: Type.String(),
  repository: Type.String({ description: 'Public address of its git repository' }),
  ref: Type.String(),
  commit: Type.String({ description: 'The commit the build read, or that the pin names when a local copy was read' }),
  licence: Type.String({ description: 'SPDX identifier of the repository\'s licence' }),
  obtained: Type.Union([Type.Literal('git clone'), Type.Literal('local copy')]),
  read: Type.Array(Type.Object({ path: Type.String(), kind: Type.Union([Type.Literal('blob'), Type.Literal('tree')]), hash: Type.String() }))
})
export type ManifestRepositorySource = Type.Static<typeof ManifestRepositorySourceSchema>

/** A source of single files its publisher serves (INEP's booklets), each read from a public git copy pinned on its own. */
export const ManifestFilesSourceSchema = Type.Object({
  name: Type.String({ description: 'The source\'s name for `--source NAME=PATH`' }),
  title: Type.String(),
  publisher: Type.String({ description: 'Who publishes the files: whom the data is credited to' }),
  address: Type.String({ description: 'Where the publisher serves them' }),
  obtained: Type.Union([Type.Literal('git clone'), Type.Literal('local copy')]),
  files: Type.Array(Type.Object({
    local: Type.String({ description: 'Its path in a local copy: `<year>/<INEP file name>`' }),
    origin: Type.String({ description: 'Where the publisher serves it (its bytes there may have changed since: a reissue)' }),
    repository: Type.String({ description: 'The public git copy read: its repository, commit and path' }),
    commit: Type.String(),
    path: Type.String(),
    blob: Type.String({ description: 'Its git blob hash' }),
    sha256: Type.String(),
    resave: Type.Optional(Type.String({ description: 'Set when the file is a re-save of INEP\'s file by a web tool, not INEP\'s bytes: what made it' }))
  }))
})
export type ManifestFilesSource = Type.Static<typeof ManifestFilesSourceSchema>

export const ManifestSourceSchema = Type.Union([ManifestRepositorySourceSchema, ManifestFilesSourceSchema])
export type ManifestSource = Type.Static<typeof ManifestSourceSchema>

/** Whether a source of the manifest is one of single files (INEP's booklets). */
export function isFilesSource (source: ManifestSource): source is ManifestFilesSource {
  return 'files' in source
}

export const ManifestLeftOutSchema = Type.Object({
  source: Type.String({ description: 'Where the source holds the record' }),
  index: Type.Integer({ description: 'Its position in the source\'s numbering' }),
  language: Type.Union([Type.String(), Type.Null()]),
  reason: Type.String(),
  about: Type.String({ description: 'What the reason means' }),
  detail: Type.String()
})

export const ManifestExamSchema = Type.Object({
  exam: Type.String({ description: 'Its folder: `2023`, `2012-ppl`' }),
  year: Type.Integer(),
  application: ApplicationSchema,
  source: Type.String(),
  /** Question records the source holds for it. */
  sourceRecords: Type.Integer({ minimum: 0 }),
  written: Type.Integer({ minimum: 0 }),
  leftOut: Type.Array(ManifestLeftOutSchema),
  repairs: Type.Optional(Type.Object({
    source: Type.String({ description: 'The source of the booklets read' }),
    booklets: Type.Array(Type.String(), { description: 'The booklet files read' }),
    repaired: Type.Integer({ minimum: 0 }),
    notRepaired: Type.Integer({ minimum: 0 })
  }, { description: 'Records completed from a booklet of the exam: each repaired and each not repaired, with why, is a row of `official/corrections.json` (`repairs`)' })),
  readings: Type.Optional(Type.Object({
    print: Type.Integer({ minimum: 0, description: 'Records whose booklet reading agrees with the transcription: served as printed' }),
    repaired: Type.Integer({ minimum: 0, description: 'Records the transcription gives without a statement (or with a placeholder, an empty alternative), completed from the print: one reading' }),
    agreeingKept: Type.Integer({ minimum: 0, description: 'Records whose readings agree, the transcription kept: the print\'s reading shows fewer figures' }),
    disagreeing: Type.Integer({ minimum: 0, description: 'Records whose readings disagree, or that the booklet\'s reading lacks: the transcription alone (each a row of `official/corrections.json`, `readings`)' }),
    notRepaired: Type.Integer({ minimum: 0, description: 'Records a repair rule takes that the print could not complete: the transcription alone' }),
    notPrinted: Type.Integer({ minimum: 0, description: 'Records of a day no pinned booklet prints: the transcription alone' }),
    days: Type.Array(Type.Object({
      booklet: Type.String(),
      day: Type.Union([Type.Literal(1), Type.Literal(2)]),
      resave: Type.Boolean({ description: 'The booklet is a re-save of INEP\'s file, not its bytes' }),
      compared: Type.Integer({ minimum: 0, description: 'The day\'s records no repair rule takes' }),
      agreeing: Type.Integer({ minimum: 0 }),
      trustedForRepairs: Type.Boolean({ description: 'INEP\'s bytes, or a re-save agreeing on 90 % of the compared records' })
    }))
  }, { description: 'Which reading each record of an exam with a pinned booklet is: INEP\'s print where it agrees with the transcription (src/data/sources/booklets/booklet-readings.ts)' })),
  incomplete: Type.Optional(Type.Integer({ minimum: 0, description: 'Records written that show no statement (no context, no figure in files: src/data/record-statement.ts): served and marked `incomplete`, never drawn; docs/data.md lists them' }))
})
export type ManifestExam = Type.Static<typeof ManifestExamSchema>

export const ManifestSchema = Type.Object({
  manifest: Type.Literal(1),
  sources: Type.Array(ManifestSourceSchema),
  official: Type.String({ description: 'Where the official tables and the INEP item data the conversions read come from' }),
  exams: Type.Array(ManifestExamSchema),
  totals: Type.Object({ exams: Type.Integer(), written: Type.Integer(), leftOut: Type.Integer() })
})
export type Manifest = Type.Static<typeof ManifestSchema>

const checkManifest = Compile(ManifestSchema)

/**
 * The manifest of a dataset folder: null when it has none (a folder not built by
 * `npm run dataset`); throws one line naming the file when it is unreadable or malformed.
 */
export function readManifest (dataDir: string): Manifest | null {
  const file = path.join(dataDir, MANIFEST_FILE)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new Error(`${file}: ${(error as Error).message}`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`)
  }
  if (!checkManifest.Check(value)) {
    const [first] = checkManifest.Errors(value)
    throw new Error(`${file}: ${first === undefined ? 'not a manifest' : `${first.instancePath || '(root)'} ${first.message}`}`)
  }
  return value
}

/** The manifest's sources, one line each: `the predecessor's dataset (GPL-2.0): https://…, commit fbe74ce`. */
export function describeSources (manifest: Manifest): string[] {
  return manifest.sources.map((source) => isFilesSource(source)
    ? `${source.name}: ${source.title} (${source.publisher}, ${source.address}), ${source.obtained}, ${source.files.map((file) => `${file.local} blob ${file.blob.slice(0, 12)} sha256 ${file.sha256.slice(0, 12)} (${file.repository} ${file.path} at ${file.commit.slice(0, 12)})`).join('; ')}`
    : `${source.name}: ${source.title} (${source.licence}), ${source.repository} at ${source.commit.slice(0, 12)}, ${source.obtained}, ${source.read.map((entry) => `${entry.path} ${entry.kind} ${entry.hash.slice(0, 12)}`).join('; ')}`)
}

/**
 * A source to credit wherever the data is shown: what it is, where it is, on what terms (a
 * repository's licence), or, for files read as their publisher serves them, who publishes them.
 */
export type DataCredit =
  | { readonly title: string, readonly repository: string, readonly licence: string }
  | { readonly title: string, readonly publisher: string, readonly address: string }

/**
 * The sources to credit for the exams `served` (exam keys) of a folder with this manifest: each
 * source that wrote one of them, in the manifest's order.
 */
export function creditsOf (manifest: Manifest, served: ReadonlySet<string>): DataCredit[] {
  const used = new Set(manifest.exams.filter((exam) => exam.written > 0 && served.has(exam.exam)).map((exam) => exam.source))
  return manifest.sources.filter((source) => used.has(source.name)).map((source) => isFilesSource(source)
    ? { title: source.title, publisher: source.publisher, address: source.address }
    : { title: source.title, repository: source.repository, licence: source.licence })
}
