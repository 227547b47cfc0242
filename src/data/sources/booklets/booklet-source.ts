import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { OcrReader } from '../../booklets/ocr.ts'
import { examFolder, type ExamId } from '../converted-exam.ts'
import { findBookletFiles, parseBookletFileName } from './booklet-files.ts'
import { convertExamCached, type CachedConversion } from './conversion-cache.ts'
import type { FilesPin, PinnedFile } from '../source-pins.ts'

/*
 * The `booklets` source of `npm run dataset`: INEP's booklets and answer keys, each pinned on its own
 * (src/data/sources/source-pins.ts), grouped by the exam their INEP names say. Each exam is converted
 * by convertInepBooklets from a folder of links to its checked files alone, with beside each answer key
 * the text `pdftotext -layout` made of it, committed in `<inep>/answer-keys/` (data/inep/SOURCE.md):
 * the build then needs no poppler, and reads the same text wherever it runs.
 */

/** The folder of the INEP data folder holding the answer keys' texts, `<name>.pdf.txt`. */
export const ANSWER_KEY_TEXTS = 'answer-keys'

/** The files a pin holds of one exam. */
export interface PinnedBookletExam {
  readonly id: ExamId
  readonly files: readonly PinnedFile[]
}

/** The exams of a pin's files, oldest first, regular before a second application. Throws on a file not named as INEP names its booklets. */
export function pinnedBookletExams (pin: FilesPin): PinnedBookletExam[] {
  const exams = new Map<string, { id: ExamId, files: PinnedFile[] }>()
  for (const file of pin.files) {
    const name = parseBookletFileName(path.basename(file.local))
    if (name === null) throw new Error(`${pin.name}: ${file.local} is not named as INEP names its booklets (<year>_PV_impresso_D<day>_CD<n>.pdf)`)
    const id: ExamId = { year: name.year, application: name.application }
    const exam = exams.get(examFolder(id)) ?? { id, files: [] }
    exam.files.push(file)
    exams.set(examFolder(id), exam)
  }
  return [...exams.values()].sort((a, b) => a.id.year - b.id.year || (a.id.application === b.id.application ? 0 : a.id.application === 'regular' ? -1 : 1))
}

/**
 * Converts one exam of the pin from its files, found at `paths` (by `local`, already checked against
 * their hashes), or takes it from the conversion cache `cacheDir` (src/data/sources/booklets/conversion-cache.ts;
 * null: none). Throws what convertInepBooklets throws (an answer key that disagrees, no booklet).
 */
export function convertPinnedExam (exam: PinnedBookletExam, paths: ReadonlyMap<string, string>, inepDir: string, ocr: OcrReader | null, cacheDir: string | null = null): CachedConversion {
  const folder = mkdtempSync(path.join(tmpdir(), 'enem-booklets-'))
  try {
    for (const file of exam.files) {
      const name = path.basename(file.local)
      symlinkSync(path.resolve(paths.get(file.local)!), path.join(folder, name))
      const text = path.resolve(inepDir, ANSWER_KEY_TEXTS, `${name}.txt`)
      if (existsSync(text)) symlinkSync(text, path.join(folder, `${name}.txt`))
    }
    const [found, ...more] = findBookletFiles(folder)
    if (found === undefined || more.length > 0) throw new Error(`${examFolder(exam.id)}: its files make ${more.length + (found === undefined ? 0 : 1)} exams`)
    return convertExamCached(found, inepDir, { ocr, cacheDir })
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}
