import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { compareNewestFirst, DEFAULT_APPLICATION } from '../exam-key.ts'
import { compareRows } from '../official/corrections.ts'
import { formatTable } from './inep-official.ts'
import { DATASET_OFFICIAL_FOLDER, type CorrectionRow, type CorrectionsFile } from '../official/official-table.ts'
import type { QuestionSummary } from '../record-schemas.ts'
import { examFolder, examSummary, questionFolder, type ConvertedExam } from './converted-exam.ts'

/*
 * Writes converted exams as a dataset folder the server reads beside the dataset: `exams.json`,
 * one folder per exam (`2024/`, `2012-ppl/`) in the dataset's layout with the files the records
 * name, and `official/` holding each exam's official table (`2024.json`, `2012-ppl.json`, the
 * latter saying `"application": "ppl"` after its year) and the correction rows of every exam (a second
 * application's saying `"application": "ppl"` too). Records are
 * written as the source holds them, in our numbering: the server corrects them through `official/`.
 */

/** Writes `exams` into `outDir`, which must be absent or empty (nothing is overwritten). `dataset` names the source in corrections.json. */
export function writeConversion (outDir: string, exams: readonly ConvertedExam[], dataset: string): void {
  let existing: string[] = []
  try {
    existing = readdirSync(outDir)
  } catch {}
  if (existing.length > 0) throw new Error(`${outDir} is not empty: convert into a new folder`)
  mkdirSync(path.join(outDir, DATASET_OFFICIAL_FOLDER), { recursive: true })

  const ordered = [...exams].sort((a, b) => compareNewestFirst(a.id, b.id))
  writeJson(path.join(outDir, 'exams.json'), ordered.map(examSummary))
  for (const exam of ordered) writeConvertedExam(outDir, exam)
  const corrections: CorrectionsFile = { dataset, rows: correctionRows(ordered) }
  writeFileSync(path.join(outDir, DATASET_OFFICIAL_FOLDER, 'corrections.json'), formatTable(corrections))
}

/**
 * Writes one converted exam into a dataset folder: its folder (details.json, a folder per record
 * with the files it names) and its official table in `official/`.
 */
export function writeConvertedExam (outDir: string, exam: ConvertedExam): void {
  const folder = path.join(outDir, examFolder(exam.id))
  const records = [...exam.records].sort((a, b) => a.record.index - b.record.index || (a.record.language ?? '').localeCompare(b.record.language ?? ''))
  const questions: QuestionSummary[] = records.map(({ record }) => ({ title: record.title, index: record.index, discipline: record.discipline, language: record.language }))
  writeJson(path.join(folder, 'details.json'), { ...examSummary(exam), questions })
  for (const { record, files } of records) {
    const recordDir = path.join(folder, 'questions', questionFolder(record.index, record.language))
    mkdirSync(recordDir, { recursive: true })
    writeJson(path.join(recordDir, 'details.json'), record)
    for (const [name, from] of files) {
      if (typeof from === 'string') copyFileSync(from, path.join(recordDir, name))
      else writeFileSync(path.join(recordDir, name), from)
    }
  }
  const { year, ...facts } = exam.table
  const table = exam.id.application === DEFAULT_APPLICATION ? exam.table : { year, application: exam.id.application, ...facts }
  mkdirSync(path.join(outDir, DATASET_OFFICIAL_FOLDER), { recursive: true })
  writeFileSync(path.join(outDir, DATASET_OFFICIAL_FOLDER, `${examFolder(exam.id)}.json`), formatTable(table))
}

/**
 * The correction rows of converted exams, as corrections.json holds them: a second application's
 * saying so, as its table does (the server reads the rows of each application apart).
 */
export function correctionRows (exams: readonly ConvertedExam[]): CorrectionRow[] {
  const rows = exams.flatMap((exam) => exam.corrections.map(({ year, ...row }) => (exam.id.application === DEFAULT_APPLICATION ? { year, ...row } : { year, application: exam.id.application, ...row })))
  return rows.sort(compareRows)
}

function writeJson (file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`)
}
