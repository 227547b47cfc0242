/**
 * What the loader found wrong with a dataset. The rule: a record that breaks the contract's
 * types is an error (the service refuses to start); a record whose parts disagree is a warning
 * (logged, and the record is served as it is).
 */

export type Severity = 'error' | 'warning'

/** Every kind of problem the loader reports, with what it means, for the check command's report. */
export const ISSUE_KINDS = {
  unreadable_file: { severity: 'error', about: 'a JSON file is missing or is not valid JSON' },
  invalid_record: { severity: 'error', about: 'a field is missing or has the wrong type or value' },
  duplicate_record: { severity: 'error', about: 'two question folders hold the same index and language' },
  missing_exam: { severity: 'error', about: 'exams.json lists a year whose folder has no details.json' },
  duplicate_exam: { severity: 'error', about: 'exams.json lists a year twice' },
  unlisted_exam: { severity: 'warning', about: 'a year folder that exams.json does not list (not served)' },
  exam_summary_mismatch: { severity: 'warning', about: "an exam's details.json summary differs from its exams.json entry" },
  duplicate_entry: { severity: 'warning', about: "an exam's details.json lists the same question entry twice" },
  listed_without_record: { severity: 'warning', about: "an exam's details.json lists a question that has no folder" },
  unlisted_record: { severity: 'warning', about: "a question folder that its exam's details.json does not list" },
  summary_mismatch: { severity: 'warning', about: "an exam's details.json entry disagrees with the question record" },
  folder_mismatch: { severity: 'warning', about: "a record's year, index or language disagrees with its folder" },
  title_mismatch: { severity: 'warning', about: 'a record title is not "Questão <index> - <exam title>"' },
  unknown_discipline: { severity: 'warning', about: "a record's discipline is not among its exam's disciplines" },
  unknown_language: { severity: 'warning', about: "a record's language is not among its exam's languages (unreachable)" },
  mixed_language_index: { severity: 'warning', about: 'an index has both a null-language record and language variants' },
  variant_discipline_mismatch: { severity: 'warning', about: 'the records of one index (language variants) disagree on the discipline' },
  answer_key_mismatch: { severity: 'warning', about: 'correctAlternative disagrees with the isCorrect flags' },
  alternative_count: { severity: 'warning', about: 'a question does not have exactly five alternatives A–E in order' },
  empty_alternative: { severity: 'warning', about: 'an alternative has neither text nor file' },
  empty_question: { severity: 'warning', about: 'a question has nothing to read: no context, files or alternativesIntroduction' },
  invalid_official_data: { severity: 'error', about: 'the official data table cannot be read or breaks its format' },
  invalid_manifest: { severity: 'error', about: 'manifest.json (written by npm run dataset) cannot be read or breaks its format' },
  missing_file: { severity: 'warning', about: 'a file address points at a file the dataset does not have' },
  placeholder_image: { severity: 'warning', about: "a file address points at the dataset's placeholder for a missing picture (broken-image.svg), not at the question's own" },
  foreign_file_address: { severity: 'warning', about: 'a file address that does not start with https://enem.dev/' },
  unknown_field: { severity: 'warning', about: 'a record carries a field the contract does not define (not served)' }
} as const satisfies Record<string, { severity: Severity, about: string }>

export type IssueKind = keyof typeof ISSUE_KINDS

export interface DatasetIssue {
  kind: IssueKind
  severity: Severity
  /** Path of the file concerned, relative to the dataset folder. */
  file: string
  /** JSON pointer of the field concerned, '' for the whole file. */
  field: string
  message: string
}

/** Collects issues while a dataset loads. */
export class DatasetReport {
  readonly issues: DatasetIssue[] = []

  add (kind: IssueKind, file: string, field: string, message: string): void {
    this.issues.push({ kind, severity: ISSUE_KINDS[kind].severity, file, field, message })
  }

  get errors (): DatasetIssue[] {
    return this.issues.filter((issue) => issue.severity === 'error')
  }

  get warnings (): DatasetIssue[] {
    return this.issues.filter((issue) => issue.severity === 'warning')
  }

  /** Counts by kind, errors first, each group by descending count. */
  countsByKind (): Array<{ kind: IssueKind, severity: Severity, count: number }> {
    const counts = new Map<IssueKind, number>()
    for (const issue of this.issues) counts.set(issue.kind, (counts.get(issue.kind) ?? 0) + 1)
    return [...counts].map(([kind, count]) => ({ kind, severity: ISSUE_KINDS[kind].severity, count }))
      .sort((a, b) => (a.severity === b.severity ? b.count - a.count : a.severity === 'error' ? -1 : 1))
  }

  /** One line, for the start-up log: `0 errors, 42 warnings (answer_key_mismatch 3, ...)`. */
  summaryLine (): string {
    const counts = this.countsByKind()
    const detail = counts.map(({ kind, count }) => `${kind} ${count}`).join(', ')
    return `${this.errors.length} errors, ${this.warnings.length} warnings${detail === '' ? '' : ` (${detail})`}`
  }

  /** The full report, grouped by kind, for people who maintain the dataset. */
  format (): string {
    const lines: string[] = []
    for (const { kind, severity, count } of this.countsByKind()) {
      lines.push(`${severity.toUpperCase()} ${kind} (${count}): ${ISSUE_KINDS[kind].about}`)
      for (const issue of this.issues) {
        if (issue.kind !== kind) continue
        lines.push(`  ${issue.file}${issue.field === '' ? '' : ` ${issue.field}`}: ${issue.message}`)
      }
    }
    lines.push(`Summary: ${this.summaryLine()}`)
    return lines.join('\n')
  }
}
