import { examLabel, LEFT_OUT_REASONS, type ConvertedExam, type LeftOutReason } from './converted-exam.ts'

/*
 * What `npm run import-source` prints: per exam, the records of the source, those written, those
 * left out by reason, the booklet found per area with its agreement, and the correction rows; then
 * every record left out with its reason (and what each reason means), and every warning.
 */

/** One line per exam. */
export function examLine (exam: ConvertedExam): string {
  const reasons = new Map<LeftOutReason, number>()
  for (const { reason } of exam.leftOut) reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
  const leftOut = exam.leftOut.length === 0 ? '' : ` (${[...reasons].map(([reason, count]) => `${reason} ${count}`).join(', ')})`
  const booklets = exam.booklets.map((booklet) => `${booklet.area} ${booklet.code ?? `none (best ${booklet.agree}/${booklet.compared})`}` +
    (booklet.code === null ? '' : ` ${booklet.colour.toLowerCase()} ${booklet.agree}/${booklet.compared}`) +
    (booklet.renumberedTo !== null && booklet.renumberedTo !== booklet.code ? ` -> ${booklet.renumberedTo}` : '')).join(', ')
  const fields = ['correctAlternative', 'discipline', 'language'] as const
  const corrections = fields.map((field) => `${exam.corrections.filter((row) => row.field === field).length} ${field === 'correctAlternative' ? 'keys' : `${field === 'discipline' ? 'disciplines' : 'languages'}`}`).join(', ')
  const reading = exam.reading === undefined ? '' : `; ${exam.reading.figures} figures, ${exam.reading.ocrLines} lines read by OCR`
  return `${examLabel(exam.id)}: ${exam.sourceRecords} in source, ${exam.records.length} written, ${exam.leftOut.length} left out${leftOut}; ` +
    `booklets ${booklets}; corrected ${corrections}${reading}`
}

/** The whole summary. */
export function formatSummary (exams: readonly ConvertedExam[]): string {
  const lines = exams.map(examLine)
  const leftOut = exams.flatMap((exam) => exam.leftOut)
  lines.push(`Left out (${leftOut.length}):`)
  for (const entry of leftOut) {
    lines.push(`  ${entry.kind} ${examLabel(entry.exam)} #${entry.index}${entry.language === null ? '' : ` ${entry.language}`} (${entry.source}): ${entry.reason}: ${entry.detail}`)
  }
  for (const reason of new Set(leftOut.map((entry) => entry.reason))) lines.push(`  (${reason}: ${LEFT_OUT_REASONS[reason]})`)
  const warnings = exams.flatMap((exam) => exam.warnings)
  lines.push(`Warnings (${warnings.length}):`)
  for (const warning of warnings) lines.push(`  ${warning}`)
  return lines.join('\n')
}
