import { figuresOnlyInFiles, recordFigures } from '../data/record-figures.ts'
import { normalizedAddress } from '../data/record-markdown.ts'
import { MARKDOWN_IMAGE, type ExamSummary, type Question } from '../data/record-schemas.ts'
import type { ScoreAnswer } from '../http/schemas/scores.ts'
import type { AnswerCheck } from './tool-output.ts'

/*
 * The text of the tools' results, for people (in Portuguese, Markdown): what an assistant shows a
 * student. Images are links to the server's own /files addresses (records carry them already), not
 * inline images: many chat clients do not load remote images; each is named `Figura N` in the order
 * the tools' image blocks follow (./question-figures.ts). The structured result is the data;
 * this is only its reading.
 */

/** Labels of the disciplines and languages the exams offer, by slug. */
export type Labels = ReadonlyMap<string, string>

/** The labels the exams give their disciplines and languages. */
export function labelsOf (exams: readonly ExamSummary[]): Labels {
  return new Map(exams.flatMap((exam) => [...exam.disciplines, ...exam.languages]).map((option) => [option.value, option.label]))
}

const APPLICATION_NAMES: Record<string, string> = { regular: 'aplicação regular', ppl: 'reaplicação/PPL' }

function numberPt (value: number, fractionDigits: number): string {
  return value.toLocaleString('pt-BR', { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits })
}

/** Each figure's number in a record (`Figura 1` …), by its normalized address: the order get_question's image blocks follow. */
type FigureNumbers = ReadonlyMap<string, number>

function figureNumbers (question: Question): FigureNumbers {
  return new Map(recordFigures(question).map(({ address }, at) => [normalizedAddress(address), at + 1]))
}

/** A figure's link: `[Figura 2](address)`, with its alternative text when it has one. */
function figureLink (address: string, numbers: FigureNumbers, alt = ''): string {
  const number = numbers.get(normalizedAddress(address))
  const name = number === undefined ? 'imagem' : `Figura ${number}`
  return `[${name}${alt.trim() === '' ? '' : `: ${alt.trim()}`}](${address})`
}

/** A record's Markdown with its images as numbered links. */
function withImageLinks (markdown: string, numbers: FigureNumbers): string {
  return markdown.replace(MARKDOWN_IMAGE, (_image, alt: string, address: string) => figureLink(address, numbers, alt))
}

/**
 * One question as it appears in the exam: heading, context, the images no text of it shows,
 * the introduction and the alternatives A–E; the key only when `reveal` (and it is the record's).
 */
export function questionText (question: Question, labels: Labels, reveal: boolean): string {
  const area = [question.discipline, question.language].filter((slug) => slug !== null).map((slug) => labels.get(slug!) ?? slug).join(' · ')
  const numbers = figureNumbers(question)
  const lines = [`### ${question.title}`, `*${[area, APPLICATION_NAMES[question.application] ?? question.application].filter((part) => part !== '').join(' · ')}*`, '']
  if (question.context !== null && question.context.trim() !== '') lines.push(withImageLinks(question.context.trim(), numbers), '')
  // The figures no text of the record shows, as every view of a question shows them (src/data/record-figures.ts).
  const otherImages = figuresOnlyInFiles(question)
  if (otherImages.length > 0) lines.push(`Imagens: ${otherImages.map((file) => figureLink(file, numbers)).join(', ')}`, '')
  if (question.alternativesIntroduction !== null && question.alternativesIntroduction.trim() !== '') lines.push(withImageLinks(question.alternativesIntroduction.trim(), numbers), '')
  for (const alternative of question.alternatives) {
    const parts = [alternative.file === null ? '' : figureLink(alternative.file, numbers), alternative.text === null ? '' : withImageLinks(alternative.text.trim(), numbers)]
    lines.push(`**${alternative.letter})** ${parts.filter((part) => part !== '').join(' ')}`)
  }
  if (question.inep?.annulled === true) lines.push('', '*Questão anulada pelo INEP: não conta na nota.*')
  if (reveal) lines.push('', `**Gabarito:** ${question.correctAlternative}`)
  return lines.join('\n')
}

/** What stands between a list's heading and each question, and between questions. */
export const QUESTION_SEPARATOR = '\n\n---\n\n'
/** What follows the heading of a list without questions. */
export const NO_QUESTIONS = '\n\nNenhuma questão.'

/**
 * Several questions, one after another, under a heading; their keys only when `reveal`. The text
 * is the heading, then QUESTION_SEPARATOR and questionText for each question (NO_QUESTIONS for
 * none): the prepared answers (./prepared-results.ts) write it from those pieces.
 */
export function questionListText (heading: string, questions: readonly Question[], labels: Labels, reveal: boolean): string {
  if (questions.length === 0) return `${heading}${NO_QUESTIONS}`
  return [heading, ...questions.map((question) => questionText(question, labels, reveal))].join(QUESTION_SEPARATOR)
}

/** The skills of INEP's Matriz, as GET /v1/skills answers them (the parts a text shows). */
export interface SkillList {
  readonly areas: ReadonlyArray<{
    readonly area: string
    readonly discipline: string
    readonly name: string
    readonly skills: ReadonlyArray<{ readonly code: string, readonly text: string, readonly questions: number }>
  }>
}

export function skillListText (list: SkillList): string {
  const lines: string[] = []
  for (const area of list.areas) {
    lines.push(`## Habilidades da Matriz de Referência do ENEM — ${area.name} (${area.area})`, '')
    for (const skill of area.skills) lines.push(`- **${skill.code}** (${skill.questions} ${skill.questions === 1 ? 'questão' : 'questões'}): ${skill.text}`)
  }
  return lines.join('\n')
}

export function examListText (exams: readonly ExamSummary[]): string {
  const lines = [`## Provas do ENEM (${exams.length})`, '']
  for (const exam of exams) {
    const languages = exam.languages.length === 0 ? '' : `; línguas estrangeiras: ${exam.languages.map((language) => language.label).join(', ')}`
    lines.push(`- **${exam.title}** (${APPLICATION_NAMES[exam.application] ?? exam.application}, \`year\` ${exam.year}, \`application\` ${exam.application}): ${exam.disciplines.map((discipline) => discipline.label).join(', ')}${languages}`)
  }
  return lines.join('\n')
}

const LEFT_OUT_REASONS: Record<string, string> = {
  annulled: 'anulada',
  'not-taken-language': 'da outra língua',
  'no-parameters': 'sem parâmetros do INEP',
  missing: 'ausente do conjunto de dados'
}

export function scoreText (answer: ScoreAnswer, labels: Labels): string {
  const booklet = answer.booklet === undefined ? '' : `, caderno ${answer.booklet.code} (${answer.booklet.colour})`
  const exam = answer.application === null ? `ENEM ${answer.year}` : `ENEM ${answer.year} (${APPLICATION_NAMES[answer.application] ?? answer.application})`
  const lines = [`## Nota — ${exam}${booklet}`, '', 'Calculada como o INEP calcula: TRI de três parâmetros, estimativa EAP.', '']
  if (answer.areas.length === 0) lines.push('Nenhuma área respondida.')
  for (const area of answer.areas) {
    lines.push(`- **${labels.get(area.discipline) ?? area.discipline}** (${area.area}): **${numberPt(area.score, 1)}** — ${area.correct} acertos de ${area.scored} itens que contam (θ = ${numberPt(area.theta, 4)}, erro-padrão ${numberPt(area.standardError, 4)})`)
    if (area.leftOut.length > 0) {
      lines.push(`  - Não contam: ${area.leftOut.map((item) => `${item.index} (${LEFT_OUT_REASONS[item.reason] ?? item.reason})`).join(', ')}`)
    }
  }
  return lines.join('\n')
}

export function answerCheckText (check: AnswerCheck, title: string): string {
  const verdict = check.correct
    ? `${title}: **correta**. A resposta certa é ${check.correctAlternative}.`
    : `${title}: **incorreta**. Você marcou ${check.answer}; a resposta certa é ${check.correctAlternative}.`
  return check.annulled ? `${verdict}\n\nA questão foi anulada pelo INEP: não conta na nota.` : verdict
}
