import type { ImageContent, TextContent } from '@modelcontextprotocol/server'
import { recordFigures } from '../data/record-figures.ts'
import type { Question } from '../data/record-schemas.ts'
import type { PreparedBody } from '../http/answers/prepared-body.ts'
import type { ServedFiles } from '../http/answers/served-files.ts'

/*
 * A result's figures as MCP image content: a model that reads images then sees what the student
 * sees, where a figure's address is something it cannot open. Each figure of each question, in the
 * order its text names them (Figura 1, 2 … of that question: src/data/record-figures.ts's reading
 * order, the order questionText numbers them), as the bytes /files serves (one cache for both,
 * src/http/answers/served-files.ts), up to a cap per call; the figures past the cap are named with
 * their addresses in a text block before the images, which also says which question each image is.
 */

/** Most figures one call carries as images. */
export const FIGURES_PER_CALL = 10
/** Most bytes of figures (the files' own bytes, before base64) one call carries. */
export const FIGURE_BYTES_PER_CALL = 1024 * 1024

/** What a tool's description says of the cap. */
export const FIGURE_CAP_WORDS = `at most ${FIGURES_PER_CALL} figures and ${FIGURE_BYTES_PER_CALL / 1024 / 1024} MB per call; the rest are named with their addresses`

/** One figure of a question: its number in the question's text and its address; `relative` when this server serves it. */
export interface QuestionFigure {
  readonly question: Question
  readonly number: number
  readonly address: string
  readonly relative: string | undefined
}

/** A figure carried: its file's answer (bytes and type, as /files sends them). */
export interface CarriedFigure {
  readonly figure: QuestionFigure
  readonly body: PreparedBody
}

/** A call's figures: those carried as images, in order, and those past the cap. */
export interface CallFigures {
  readonly carried: readonly CarriedFigure[]
  readonly left: readonly QuestionFigure[]
}

/** Every figure of the questions, in the order their texts name them. */
export function figuresOf (questions: readonly Question[], files: ServedFiles): QuestionFigure[] {
  return questions.flatMap((question) => recordFigures(question).map(({ address }, at) => ({ question, number: at + 1, address, relative: files.relativeOf(address) })))
}

/**
 * The figures a call carries: in order, while they fit the cap (a figure that does not fit, and
 * every one after it, is left out; so is one this server does not serve). Files are read through
 * the shared cache: once, not per call.
 */
export async function carriedFigures (figures: readonly QuestionFigure[], files: ServedFiles): Promise<CallFigures> {
  const carried: CarriedFigure[] = []
  const left: QuestionFigure[] = []
  let bytes = 0
  for (const figure of figures) {
    if (figure.relative === undefined || left.length > 0 || carried.length === FIGURES_PER_CALL) {
      left.push(figure)
      continue
    }
    const body = await files.body(figure.relative)
    if (bytes + body.raw.length > FIGURE_BYTES_PER_CALL) {
      left.push(figure)
      continue
    }
    bytes += body.raw.length
    carried.push({ figure, body })
  }
  return { carried, left }
}

/** The figures by question, in order: `Questão 12 - ENEM 2020: Figura 1, Figura 2`. */
function byQuestion (figures: readonly QuestionFigure[], withAddress: boolean): string {
  const groups: Array<{ question: Question, names: string[] }> = []
  for (const figure of figures) {
    const last = groups.at(-1)
    const name = withAddress ? `Figura ${figure.number} (${figure.address})` : `Figura ${figure.number}`
    if (last?.question === figure.question) last.names.push(name)
    else groups.push({ question: figure.question, names: [name] })
  }
  return groups.map(({ question, names }) => `${question.title}: ${names.join(', ')}`).join('; ')
}

/** The text block before the images: which figure each image is, and those left out with their addresses. */
export function figureIndexText ({ carried, left }: CallFigures): string {
  const lines: string[] = []
  if (carried.length > 0) lines.push(`Figuras anexadas a seguir, nesta ordem: ${byQuestion(carried.map(({ figure }) => figure), false)}.`)
  if (left.length > 0) lines.push(`Figuras não anexadas (limite de ${FIGURES_PER_CALL} figuras e ${FIGURE_BYTES_PER_CALL / 1024 / 1024} MB por chamada): ${byQuestion(left, true)}.`)
  return lines.join('\n')
}

/** The content blocks after a result's text: the index, then each figure as an image (base64 of the file's bytes, its type). None without figures. */
export function figureContent (figures: CallFigures | undefined): Array<TextContent | ImageContent> {
  if (figures === undefined || (figures.carried.length === 0 && figures.left.length === 0)) return []
  return [
    { type: 'text', text: figureIndexText(figures) },
    ...figures.carried.map(({ body }): ImageContent => ({ type: 'image', data: body.raw.toString('base64'), mimeType: body.contentType }))
  ]
}
