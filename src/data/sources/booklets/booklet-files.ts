import { readdirSync, statSync, type Dirent } from 'node:fs'
import path from 'node:path'
import type { Application } from '../../exam-key.ts'

/*
 * INEP's booklet and answer-key PDFs found by their names (the names INEP publishes them under at
 * download.inep.gov.br/enem/provas_e_gabaritos/):
 *
 *   <year>_PV_impresso_D<day>_CD<n>.pdf              booklet (prova) of the regular application
 *   <year>_GB_impresso_D<day>_CD<n>.pdf              its answer key (gabarito)
 *   <year>_PV_reaplicacao_PPL_D<day>_CD<n>.pdf       booklet of the second application (reaplicação/PPL)
 *   <year>_GB_reaplicacao_PPL_D<day>_CD<n>.pdf       its answer key
 *
 * API:
 *   parseBookletFileName(name): BookletFileName | null
 *   listBookletFiles(folder): BookletFile[]          every such file at the folder's top or one folder down
 *   findBookletFiles(folder): BookletExam[]          per exam (year + application) and day, the booklet
 *                                                    to convert and its answer key (or null)
 *
 * One booklet per day: the blue one (day 1 CD1, day 2 CD7, the contract's choice: our numbering
 * follows it) when the folder holds it, otherwise the day's only booklet; more than one and no blue
 * is refused, naming them. (2009's booklets were published as `dia1_caderno1_azul.pdf`; the copies
 * here carry today's names, and only today's names are read.)
 */

export type BookletFileKind = 'booklet' | 'key'

/** What an INEP file name says. */
export interface BookletFileName {
  readonly year: number
  readonly application: Application
  readonly day: 1 | 2
  /** The caderno number (`CD<n>`). */
  readonly booklet: number
  readonly kind: BookletFileKind
}

/** A file found in a folder, with what its name says. */
export interface BookletFile extends BookletFileName {
  readonly path: string
  readonly name: string
}

/** The booklet of one day to convert, and what else the folder holds of that day. */
export interface BookletDay {
  readonly day: 1 | 2
  /** The caderno number of the booklet taken. */
  readonly cd: number
  readonly booklet: string
  /** The answer-key PDF of the same day and caderno, or null when the folder has none. */
  readonly answerKey: string | null
  /** The other booklets of the day the folder holds, not converted (another colour of the same questions). */
  readonly others: readonly string[]
}

/** One exam of the folder: its days that have a booklet, day 1 first. */
export interface BookletExam {
  readonly year: number
  readonly application: Application
  readonly days: readonly BookletDay[]
}

/** The caderno that is blue on each day: our numbering follows the blue booklets. */
export const BLUE_BOOKLET: Readonly<Record<1 | 2, number>> = { 1: 1, 2: 7 }

const FILE_NAME = /^(\d{4})_(PV|GB)_(impresso|reaplicacao_PPL)_D([12])_CD(\d{1,2})\.pdf$/

/**
 * What an INEP booklet or answer-key file name says, or null for any other name.
 * @example parseBookletFileName('2025_GB_impresso_D2_CD7.pdf') // { year: 2025, application: 'regular', day: 2, booklet: 7, kind: 'key' }
 */
export function parseBookletFileName (name: string): BookletFileName | null {
  const match = FILE_NAME.exec(name)
  if (match === null) return null
  const booklet = Number(match[5])
  if (booklet < 1) return null
  return {
    year: Number(match[1]),
    application: match[3] === 'impresso' ? 'regular' : 'ppl',
    day: Number(match[4]) as 1 | 2,
    booklet,
    kind: match[2] === 'PV' ? 'booklet' : 'key'
  }
}

/**
 * Every INEP-named booklet and key at the top of `folder` or in a folder directly under it, sorted by
 * name. Throws when the folder cannot be read, or when one name is found twice.
 */
export function listBookletFiles (folder: string): BookletFile[] {
  const found = new Map<string, BookletFile>()
  const add = (dir: string, name: string) => {
    const parsed = parseBookletFileName(name)
    if (parsed === null) return
    const file = { ...parsed, name, path: path.join(dir, name) }
    const already = found.get(name)
    if (already !== undefined) throw new Error(`${name} is found twice: ${already.path} and ${file.path}`)
    found.set(name, file)
  }
  // A link is taken for what it points to (a folder of links to the copies at hand is a folder of booklets).
  const kind = (dir: string, entry: Dirent) => (entry.isSymbolicLink() ? statSync(path.join(dir, entry.name)) : entry)
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (kind(folder, entry).isDirectory()) {
      const inside = path.join(folder, entry.name)
      for (const inner of readdirSync(inside, { withFileTypes: true })) {
        if (kind(inside, inner).isFile()) add(inside, inner.name)
      }
    } else if (kind(folder, entry).isFile()) {
      add(folder, entry.name)
    }
  }
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/**
 * The exams of `folder` (see listBookletFiles), oldest first, regular before the second application:
 * per day holding a booklet, the one to convert and its answer key. Answer keys of a day without a
 * booklet are not listed. Throws when a day holds several booklets and none is blue.
 */
export function findBookletFiles (folder: string): BookletExam[] {
  return groupBookletFiles(listBookletFiles(folder))
}

/** findBookletFiles on a list of files already found (the pure part of it). */
export function groupBookletFiles (files: readonly BookletFile[]): BookletExam[] {
  const exams = new Map<string, { year: number, application: Application, files: BookletFile[] }>()
  for (const file of files) {
    const id = `${file.year}-${file.application}`
    const exam = exams.get(id) ?? { year: file.year, application: file.application, files: [] }
    exam.files.push(file)
    exams.set(id, exam)
  }
  return [...exams.values()]
    .sort((a, b) => a.year - b.year || (a.application === b.application ? 0 : a.application === 'regular' ? -1 : 1))
    .map(({ year, application, files: examFiles }) => ({
      year,
      application,
      days: ([1, 2] as const).flatMap((day) => {
        const booklets = examFiles.filter((file) => file.day === day && file.kind === 'booklet')
        if (booklets.length === 0) return []
        const chosen = booklets.length === 1 ? booklets[0]! : booklets.find((file) => file.booklet === BLUE_BOOKLET[day])
        if (chosen === undefined) {
          throw new Error(`ENEM ${year}${application === 'ppl' ? ' (second application)' : ''} day ${day}: ${booklets.length} booklets and no blue one (CD${BLUE_BOOKLET[day]}) to choose: ${booklets.map((file) => file.name).join(', ')}`)
        }
        const key = examFiles.find((file) => file.kind === 'key' && file.day === day && file.booklet === chosen.booklet)
        return [{
          day,
          cd: chosen.booklet,
          booklet: chosen.path,
          answerKey: key?.path ?? null,
          others: booklets.filter((file) => file !== chosen).map((file) => file.path)
        }]
      })
    }))
    .filter((exam) => exam.days.length > 0)
}
