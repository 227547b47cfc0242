import type { Alternative, Question } from './record-schemas.ts'
import { markdownImages, normalizedAddress } from './record-markdown.ts'

/*
 * A record's figures, and where each stands: the one answer every view that shows a question asks
 * (the question browser's page, search cards, Simulado and practice, the MCP tools' text), and the
 * second applications' conversion too, to put a lost figure back where it stood. A figure is an image
 * the record names: in its Markdown (`context`, `alternativesIntroduction`, an alternative's text), as
 * an alternative's `file`, or in `files`. Most records embed their statement's figures in `context` and
 * list them in `files` too; others (many second-application records) hold a figure in `files` alone,
 * the map or table the statement asks about, which a view must then show itself, after the statement.
 */

/** Where a figure stands: in the statement, in `files` alone (no text shows it), in the introduction, with an alternative. */
export type FigurePlace = 'context' | 'files' | 'introduction' | 'alternative'

export interface RecordFigure {
  /** A Markdown image's address as the page renders it; a file's as the record writes it. */
  readonly address: string
  readonly place: FigurePlace
  /** The letter of the alternative a figure belongs to. */
  readonly letter?: string
}

/** The parts of a record that name figures: a served record, a dataset's, or the page's copy of one. */
export interface FiguredRecord extends Pick<Question, 'context' | 'alternativesIntroduction' | 'files'> {
  readonly alternatives: ReadonlyArray<Pick<Alternative, 'letter' | 'text' | 'file'>>
}

/**
 * Every figure of a record, each once (the first place that shows it), in reading order: the
 * statement's, those `files` alone holds, the introduction's, each alternative's.
 * @example recordFigures({ context: 'Veja ![](a.png)', files: ['a.png', 'b.png'], alternativesIntroduction: null, alternatives: [] })
 * // [{ address: 'a.png', place: 'context' }, { address: 'b.png', place: 'files' }]
 */
export function recordFigures (record: FiguredRecord): RecordFigure[] {
  const placed: RecordFigure[] = [
    ...markdownImages(record.context ?? '').map((address) => ({ address, place: 'context' as const })),
    ...markdownImages(record.alternativesIntroduction ?? '').map((address) => ({ address, place: 'introduction' as const })),
    ...record.alternatives.flatMap(({ letter, text, file }) => [...markdownImages(text ?? ''), ...(file === null ? [] : [file])]
      .map((address) => ({ address, place: 'alternative' as const, letter })))
  ]
  const shown = new Set(placed.map((figure) => normalizedAddress(figure.address)))
  const filesAlone = record.files.filter((file) => !shown.has(normalizedAddress(file))).map((address) => ({ address, place: 'files' as const }))
  const inOrder = [...placed.filter((figure) => figure.place === 'context'), ...filesAlone, ...placed.filter((figure) => figure.place !== 'context')]
  const seen = new Set<string>()
  return inOrder.filter((figure) => {
    const key = normalizedAddress(figure.address)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** The figures no text of the record shows (`files` alone holds them): a view shows them after the statement. */
export function figuresOnlyInFiles (record: FiguredRecord): string[] {
  return recordFigures(record).filter((figure) => figure.place === 'files').map((figure) => figure.address)
}
