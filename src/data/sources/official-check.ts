import { CorrectionLedger, proposeCorrections } from '../official/corrections.ts'
import { officialTable, type CorrectionRow, type OfficialYear } from '../official/official-table.ts'
import type { AreaBooklet, ConvertedExam, ConvertedRecord, ExamId, LeftOut, SourceKind } from './converted-exam.ts'
import { examFolder, questionFolder } from './converted-exam.ts'

/*
 * The last check of a conversion: the correction rows a converted exam needs against its official
 * table (src/data/official/corrections.ts, as `npm run import-official` computes them), then the
 * table and rows applied to every record as the server applies a folder's `official/`. A record
 * that would be served without INEP's item, or with a key other than INEP's, is left out, and the
 * rows are computed again without it (a left-out record can decide another's language label).
 */

export interface CheckedExam {
  readonly records: ConvertedRecord[]
  readonly corrections: CorrectionRow[]
  readonly leftOut: LeftOut[]
}

export function checkAgainstTable (kind: SourceKind, id: ExamId, table: OfficialYear, candidates: readonly ConvertedRecord[]): CheckedExam {
  let records = [...candidates]
  const leftOut: LeftOut[] = []
  for (;;) {
    const corrections = proposeCorrections(officialTable('', [table], []), records.map(({ record }) => record))
    const ledger = new CorrectionLedger(officialTable('', [table], corrections))
    const failing = new Map<ConvertedRecord, string>()
    for (const converted of records) {
      const { record } = converted
      const served = ledger.correct(record, `${examFolder(id)}/questions/${questionFolder(record.index, record.language)}/details.json`)
      if (served.inep === null) failing.set(converted, `no entry of the table at position ${record.index}${served.language === null ? '' : ` ${served.language}`}`)
      else if (!served.inep.annulled && served.correctAlternative !== served.inep.key) failing.set(converted, `it would be served with key ${served.correctAlternative}, INEP's is ${served.inep.key}`)
    }
    if (failing.size === 0) return { records, corrections, leftOut }
    for (const [{ record, source, sourceIndex }, detail] of failing) {
      leftOut.push({ kind, exam: id, index: sourceIndex, language: record.language, source, reason: 'no-official-entry', detail })
    }
    records = records.filter((converted) => !failing.has(converted))
  }
}

/**
 * A converted exam once its candidates pass the last check: those left out before it (`leftOut`)
 * and by it are reported together.
 */
export function checkedExam (exam: { kind: SourceKind, id: ExamId, sourceRecords: number, leftOut: readonly LeftOut[], booklets: readonly AreaBooklet[], table: OfficialYear, warnings: readonly string[] }, candidates: readonly ConvertedRecord[]): ConvertedExam {
  const checked = checkAgainstTable(exam.kind, exam.id, exam.table, candidates)
  return { ...exam, records: checked.records, leftOut: [...exam.leftOut, ...checked.leftOut], corrections: checked.corrections }
}
