import { ProtocolError, ProtocolErrorCode, type GetPromptResult, type McpServer, type PromptMessage, type StandardSchemaWithJSON } from '@modelcontextprotocol/server'
import type { Question } from '../data/record-schemas.ts'
import type { ServedFiles } from '../http/answers/served-files.ts'
import type { EndpointAnswers } from '../http/endpoints.ts'
import { ApiError } from '../http/errors.ts'
import { carriedFigures, figureContent, figuresOf, type CallFigures } from './question-figures.ts'
import { QUESTION_SEPARATOR, questionText } from './question-text.ts'
import { DISCIPLINES } from './tool-input.ts'
import { labels, questionRecord } from './tools.ts'

/*
 * The prompts a client offers its user (a slash command, a menu): `tutor`, one question walked
 * through with a student, the key kept back until asked; `simulado`, one area of one exam, answered
 * and then scored with score_answers. prompts/get assembles each: the instructions, the questions'
 * text (get_question's, the key withheld) and their figures as image messages (capped as a tool's
 * result is, the rest named with their addresses). Prompt arguments are strings, as the protocol has them.
 */

interface PromptArgument {
  readonly description: string
  readonly required: boolean
}

/** A prompt's arguments as the SDK lists them; the values are read by the prompt, which names what is wrong. */
function promptArguments (properties: Record<string, PromptArgument>): StandardSchemaWithJSON<Record<string, string | undefined>> {
  const json = {
    type: 'object',
    properties: Object.fromEntries(Object.entries(properties).map(([name, { description }]) => [name, { type: 'string', description }])),
    required: Object.entries(properties).filter(([, { required }]) => required).map(([name]) => name)
  }
  return {
    '~standard': {
      version: 1,
      vendor: 'enem-api',
      validate: (value) => ({ value: (typeof value === 'object' && value !== null ? value : {}) as Record<string, string | undefined> }),
      jsonSchema: { input: () => json, output: () => json }
    }
  }
}

const EXAM_ARGUMENTS = {
  year: { description: 'Year of the exam (list_exams lists them)', required: true },
  application: { description: '`regular` (default) or `ppl` (the second application)', required: false },
  language: { description: 'Foreign language, `ingles` or `espanhol` (default: the exam\'s first)', required: false }
}

/** A whole number argument; its message names it. */
function wholeNumber (value: string | undefined, name: string): number {
  if (value === undefined || !/^\s*[1-9][0-9]{0,8}\s*$/.test(value)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${name} must be a positive whole number, got ${JSON.stringify(value ?? null)}`)
  return Number(value)
}

/** An optional argument: absent when empty (a form's blank field). */
const optional = (value: string | undefined) => value === undefined || value.trim() === '' ? undefined : value.trim()

/** The data's refusals (an exam or question not held, a language not offered) as the protocol's invalid parameters. */
function inPromptWords<T> (read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof ApiError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message)
    throw error
  }
}

/** The messages of a prompt: its text, then the blocks a tool's result carries after its text (the figures' index, each figure as an image), one message each. */
function withFigures (text: string, figures: CallFigures): PromptMessage[] {
  return [{ type: 'text', text } as const, ...figureContent(figures)].map((content): PromptMessage => ({ role: 'user', content }))
}

/** Where a question is, as the tools take it: `year 2020, index 12, language "ingles"`. */
function toolArguments (question: Question): string {
  const parts = [`year ${question.year}`, `index ${question.index}`]
  if (question.application !== 'regular') parts.push(`application "${question.application}"`)
  if (question.language !== null) parts.push(`language "${question.language}"`)
  return parts.join(', ')
}

export function registerStudyPrompts (server: McpServer, answers: EndpointAnswers, files: ServedFiles): void {
  server.registerPrompt('tutor', {
    title: 'Tutor de uma questão do ENEM',
    description: 'Walk a student through one ENEM question (its text and figures), without giving the key until the student asks for it',
    argsSchema: promptArguments({ ...EXAM_ARGUMENTS, index: { description: 'Number of the question in the exam', required: true } })
  }, async (args): Promise<GetPromptResult> => {
    const question = inPromptWords(() => questionRecord(answers, {
      year: wholeNumber(args.year, 'year'),
      index: wholeNumber(args.index, 'index'),
      application: optional(args.application),
      language: optional(args.language)
    }))
    const text = [
      'Você é um tutor que ajuda um estudante a resolver a questão do ENEM abaixo. Guie o raciocínio com perguntas e dicas, um passo de cada vez;',
      'não diga qual é a alternativa correta até o estudante pedir o gabarito ou responder. Para conferir a letra que ele escolher, use a ferramenta',
      `check_answer com ${toolArguments(question)} e a letra (answer); explique depois por que as outras alternativas não servem.`,
      '',
      questionText(question, labels(answers), false)
    ].join('\n')
    return { description: `Tutor: ${question.title}`, messages: withFigures(text, await carriedFigures(figuresOf([question], files), files)) }
  })

  server.registerPrompt('simulado', {
    title: 'Simulado de uma área do ENEM',
    description: 'One area (discipline) of one ENEM exam as a practice test: its questions (text and figures), answered one by one, then scored with score_answers',
    argsSchema: promptArguments({ ...EXAM_ARGUMENTS, discipline: { description: `The area: ${DISCIPLINES.join(', ')}`, required: true } })
  }, async (args): Promise<GetPromptResult> => {
    const year = wholeNumber(args.year, 'year')
    const discipline = optional(args.discipline)
    if (discipline === undefined || !(DISCIPLINES as readonly string[]).includes(discipline)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `discipline must be one of ${DISCIPLINES.join(', ')}, got ${JSON.stringify(args.discipline ?? null)}`)
    const application = optional(args.application)
    const language = optional(args.language)
    const listed = inPromptWords(() => areaQuestions(answers, year, discipline, application, language))
    // A record without its statement is in no Simulado (the page's and this one alike): it asks about what it does not show.
    const questions = listed.filter((question) => question.incomplete === null)
    const incomplete = listed.length - questions.length
    if (questions.length === 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `the exam of ${year} has no question of ${discipline}`)
    const first = questions[0]!
    const examTitle = first.title.replace(/^Questão \d+ - /, '')
    const labelled = labels(answers)
    const scoreArguments = [`year ${year}`, ...(first.application === 'regular' ? [] : [`application "${first.application}"`]), ...(language === undefined && discipline !== 'linguagens' ? [] : [`language "${questions.find((question) => question.language !== null)?.language ?? language}"`])]
    const text = [
      `Aplique ao estudante um simulado de ${labelled.get(discipline) ?? discipline} com as ${questions.length} questões abaixo (${examTitle}), na ordem.`,
      'Mostre uma questão por vez e anote a letra que o estudante escolher; não diga o gabarito durante o simulado. As figuras de cada questão vêm',
      'depois do texto (as que não vieram, get_question as dá). Ao final, calcule a nota com a ferramenta score_answers, com',
      `${scoreArguments.join(', ')} e answers: a lista de { index, answer } das questões respondidas; depois mostre os acertos com check_answer se o estudante quiser.`,
      ...(incomplete === 0 ? [] : [`${incomplete === 1 ? 'Uma questão desta área está incompleta' : `${incomplete} questões desta área estão incompletas`} no acervo (sem o enunciado): fica${incomplete === 1 ? '' : 'm'} fora do simulado e, na nota, conta${incomplete === 1 ? '' : 'm'} como em branco.`]),
      '',
      questions.map((question) => questionText(question, labelled, false)).join(QUESTION_SEPARATOR)
    ].join('\n')
    return { description: `Simulado: ${discipline}, ${examTitle}`, messages: withFigures(text, await carriedFigures(figuresOf(questions, files), files)) }
  })
}

/** The questions of one area of one exam, in the exam's order (its language view): the endpoint's own pages. */
function areaQuestions (answers: EndpointAnswers, year: number, discipline: string, application: string | undefined, language: string | undefined): Question[] {
  const questions: Question[] = []
  for (let offset = 0; ; offset += 50) {
    const query = { discipline, limit: '50', offset: String(offset), ...(application === undefined ? {} : { application }), ...(language === undefined ? {} : { language }) }
    const listing = answers.exams.questionPage(String(year), query as Parameters<EndpointAnswers['exams']['questionPage']>[1]).listing
    const items = listing?.items ?? []
    questions.push(...items)
    if (items.length < 50) return questions
  }
}
