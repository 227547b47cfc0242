import type { TObject, TSchema } from 'typebox'
import type { ExamSummary, Question } from '../data/record-schemas.ts'
import { LETTERS } from '../data/record-schemas.ts'
import { OnlyInLanguagesError } from '../http/answers/exam-answers.ts'
import { ApiError } from '../http/errors.ts'
import { answerOfBody, ENDPOINTS, type EndpointAnswers, type Endpoint } from '../http/endpoints.ts'
import type { ScoreAnswer } from '../http/schemas/scores.ts'
import { ScoreAnswerSchema } from '../http/schemas/scores.ts'
import { SkillCatalogSchema } from '../http/schemas/skills.ts'
import { booleanKind, choiceKind, descriptionOf, readArgument, type ToolArguments } from './argument-kinds.ts'
import type { Listing, PreparedBody } from '../http/answers/prepared-body.ts'
import { answerCheckText, examListText, labelsOf, scoreText, skillListText, type Labels, type SkillList } from './question-text.ts'
import { inFormWords, readScoreRequest, SCORE_INPUT } from './score-input.ts'
import { closedObject, DISCIPLINES, endpointToolInput, readEndpointValues } from './tool-input.ts'
import {
  AnswerCheckSchema, ExamListOutputSchema, PracticeDrawOutputSchema, QuestionPageOutputSchema, RandomDrawOutputSchema,
  ToolQuestionSchema, type AnswerCheck
} from './tool-output.ts'
import type { ToolAnswer } from './tool-answer.ts'
import { FIGURE_CAP_WORDS } from './question-figures.ts'

/*
 * The MCP tools: one entry each, most of them one endpoint of the table (src/http/endpoints.ts)
 * asked directly, with no HTTP in between. A tool's input is its endpoint's parameters typed for
 * what they mean (./tool-input.ts), its structured result the endpoint's JSON answer (the records
 * and head of the very body the endpoint sends, or that body parsed) with the answer key left out
 * unless the call asks for it, its output schema the endpoint's answer schema (./tool-output.ts), and
 * its errors the endpoint's ApiErrors (404, 422) with their messages, or the tool's own 400 naming the
 * argument. Its text is a reading for people (./question-text.ts). What `run` gives is a ToolAnswer
 * (./tool-answer.ts), written as the SDK's result object or as prepared bytes (./prepared-results.ts).
 */

export interface Tool {
  name: string
  title: string
  description: string
  /** A closed object: the tool refuses an argument it does not name. */
  inputSchema: TObject
  /** What `structured` always is. */
  outputSchema: TObject
  /** Throws ApiError for what the endpoint would refuse, and for arguments the input schema does not allow. */
  run: (answers: EndpointAnswers, args: ToolArguments) => ToolAnswer
}

function endpointOf (operationId: string): Endpoint {
  const endpoint = ENDPOINTS.find((candidate) => candidate.operationId === operationId)
  if (endpoint === undefined) throw new Error(`no endpoint ${operationId}`)
  return endpoint
}

/** The endpoint's answer to these arguments, the body it sends. */
function bodyOf (answers: EndpointAnswers, endpoint: Endpoint, args: ToolArguments): PreparedBody {
  const { params, query } = readEndpointValues(endpoint, args)
  return endpoint.answer(answers, params, query, undefined)
}

/** The endpoint's JSON answer to these arguments, exactly as it sends it. */
function ask<T> (answers: EndpointAnswers, endpoint: Endpoint, args: ToolArguments): T {
  return JSON.parse(bodyOf(answers, endpoint, args).raw.toString('utf8')) as T
}

/** The list an endpoint answers these arguments with (a page, a draw), and whether the same arguments always get it. */
function listOf<T> (answers: EndpointAnswers, endpoint: Endpoint, args: ToolArguments): { listing: Listing, head: T, reusable: boolean } {
  const body = bodyOf(answers, endpoint, args)
  const listing = body.listing
  if (listing === undefined) throw new Error(`${endpoint.operationId} answered a body that lists no questions`)
  return { listing, head: JSON.parse(`${listing.head}]}`) as T, reusable: body.cacheControl === undefined }
}

/** The record get_question reads: the one GET /v1/exams/{year}/questions/{index} answers with (its refusals naming the arguments). */
export function questionRecord (answers: EndpointAnswers, args: ToolArguments): Question {
  const { params, query } = readEndpointValues(getQuestion, args)
  try {
    return answers.exams.record(params.year!, params.index!, query)
  } catch (error) {
    throw error instanceof OnlyInLanguagesError ? inArgumentWords(error) : error
  }
}

/** The endpoint's 404 of a position printed only in other languages, advising the `language` argument rather than the query string. */
function inArgumentWords (error: OnlyInLanguagesError): ApiError {
  const printed = error.languages.filter((language) => language !== null).map((language) => `\`language: ${JSON.stringify(language)}\``)
  const [what] = error.message.split('; ')
  return new ApiError(404, printed.length === 0 ? what! : `${what}: ask again with ${printed.join(' or ')}`)
}

/** Labels of disciplines and languages, once per set of answer answers. */
const labelsByAnswers = new WeakMap<EndpointAnswers, Labels>()
export function labels (answers: EndpointAnswers): Labels {
  let known = labelsByAnswers.get(answers)
  if (known === undefined) {
    known = labelsOf(JSON.parse(answers.exams.examList().raw.toString('utf8')) as ExamSummary[])
    labelsByAnswers.set(answers, known)
  }
  return known
}

const listExams = endpointOf('listExams')
const getQuestion = endpointOf('getQuestion')
const findQuestions = endpointOf('findQuestions')
const randomQuestions = endpointOf('randomQuestions')
const practiceQuestions = endpointOf('practiceQuestions')
const listSkills = endpointOf('listSkills')
const computeScores = endpointOf('computeScores')

const REVEAL_ANSWER = {
  reveal_answer: booleanKind.schema({ description: 'Include the answer key. Default false: the student answers first, check_answer checks a letter' })
}

/** Whether the call asked for the key. */
const revealed = (args: ToolArguments) => readArgument(args, 'reveal_answer', booleanKind) ?? false

const letterKind = choiceKind(LETTERS)
const disciplineKind = choiceKind(DISCIPLINES)

/** What a question tool says of its keys. */
const KEYS_WITHHELD = 'The key (`correctAlternative`, `isCorrect`, `inep.key`) is withheld unless `reveal_answer`.'

/** The figures argument of the list tools (off by default: a list of 50 would be megabytes). */
const LIST_FIGURES = {
  figures: booleanKind.schema({ description: `Give each question's figures as images after the text (${FIGURE_CAP_WORDS}). Default false` })
}

/** Whether the call asked for figures; `byDefault` when it does not say. */
const withFigures = (args: ToolArguments, byDefault: boolean) => readArgument(args, 'figures', booleanKind) ?? byDefault

const SEARCH_INPUT = endpointToolInput(findQuestions, { ...REVEAL_ANSWER, ...LIST_FIGURES })

/**
 * A draw's input with each argument it shares with search_questions (a filter, reveal_answer)
 * described by pointing there: a model reads every tool's list at once, and the filters' words
 * were said three times in tools/list.
 */
function sharingSearchWords (input: TObject): TObject {
  const properties: Record<string, TSchema> = {}
  for (const [name, schema] of Object.entries(input.properties)) {
    const searchs = SEARCH_INPUT.properties[name]
    properties[name] = searchs !== undefined && descriptionOf(searchs) === descriptionOf(schema) && descriptionOf(schema) !== ''
      ? { ...schema, description: 'As in search_questions' }
      : schema
  }
  return { ...input, properties }
}

export const TOOLS: readonly Tool[] = [
  {
    name: 'list_exams',
    title: 'List ENEM exams',
    description: 'Every ENEM exam held (year, application, disciplines, foreign languages), newest first: what `year`, `application`, `discipline` and `language` of the other tools can be.',
    inputSchema: endpointToolInput(listExams),
    outputSchema: ExamListOutputSchema,
    run: (answers) => {
      const exams = ask<ExamSummary[]>(answers, listExams, {})
      return { kind: 'data', structured: { exams }, text: examListText(exams), reusable: true }
    }
  },
  {
    name: 'search_questions',
    title: 'Search ENEM questions',
    description: `Questions of every exam that pass the filters and, with \`q\`, match the search (best match first; else newest exam first, then by index). Page with \`offset\`. ${KEYS_WITHHELD}`,
    inputSchema: SEARCH_INPUT,
    outputSchema: QuestionPageOutputSchema,
    run: (answers, args) => {
      const reveal = revealed(args)
      const { listing, head: { metadata: { total, offset } }, reusable } = listOf<{ metadata: { total: number, offset: number } }>(answers, findQuestions, args)
      const count = listing.items.length
      const shown = count === 0 ? '' : `; mostrando ${offset + 1}–${offset + count}`
      return { kind: 'list', listing, heading: `**${total} ${total === 1 ? 'questão encontrada' : 'questões encontradas'}**${shown}.`, reveal, figures: withFigures(args, false), reusable }
    }
  },
  {
    name: 'get_question',
    title: 'Get one ENEM question',
    description: `One question of an exam, by year and index (the exam's first language unless \`language\`), its figures as images after the text (${FIGURE_CAP_WORDS}). ${KEYS_WITHHELD}`,
    inputSchema: endpointToolInput(getQuestion, { ...REVEAL_ANSWER, figures: booleanKind.schema({ description: 'Give the figures as images. Default true' }) }),
    outputSchema: ToolQuestionSchema,
    run: (answers, args) => {
      return { kind: 'question', question: questionRecord(answers, args), reveal: revealed(args), figures: withFigures(args, true), reusable: true }
    }
  },
  {
    name: 'check_answer',
    title: 'Check an answer to an ENEM question',
    description: 'Whether a letter is the right answer to a question (found as get_question finds it), with INEP\'s official key and whether INEP annulled the question.',
    inputSchema: endpointToolInput(getQuestion, { answer: letterKind.schema({ description: 'The letter chosen, A to E' }) }, ['answer']),
    outputSchema: AnswerCheckSchema,
    run: (answers, args) => {
      const answer = readArgument(args, 'answer', letterKind, true)!
      const question = questionRecord(answers, args)
      const check: AnswerCheck = {
        year: question.year,
        application: question.application,
        index: question.index,
        language: question.language,
        answer,
        correct: answer === question.correctAlternative,
        correctAlternative: question.correctAlternative,
        annulled: question.inep?.annulled === true
      }
      return { kind: 'data', structured: { ...check }, text: answerCheckText(check, question.title), reusable: true }
    }
  },
  {
    name: 'random_questions',
    title: 'Draw random ENEM questions',
    description: `Distinct questions drawn at random among those search_questions finds with the same filters. The same \`seed\` and filters give the same draw; without one the server picks it and says it. ${KEYS_WITHHELD}`,
    inputSchema: sharingSearchWords(endpointToolInput(randomQuestions, { ...REVEAL_ANSWER, ...LIST_FIGURES })),
    outputSchema: RandomDrawOutputSchema,
    run: (answers, args) => {
      const { listing, head: { seed }, reusable } = listOf<{ seed: number }>(answers, randomQuestions, args)
      const count = listing.items.length
      return { kind: 'list', listing, heading: `**${count} ${count === 1 ? 'questão sorteada' : 'questões sorteadas'}** (semente ${seed}).`, reveal: revealed(args), figures: withFigures(args, false), reusable }
    }
  },
  {
    name: 'practice_questions',
    title: 'Draw ENEM questions at a score',
    description: `Questions that best measure a candidate of \`score\` in one area (\`discipline\`), as an adaptive test chooses items (most Fisher information under INEP's three-parameter model, never annulled or unscored ones), drawn at random among the most informative and given easiest first. The same \`seed\` gives the same draw. ${KEYS_WITHHELD}`,
    inputSchema: sharingSearchWords(endpointToolInput(practiceQuestions, { ...REVEAL_ANSWER, ...LIST_FIGURES })),
    outputSchema: PracticeDrawOutputSchema,
    run: (answers, args) => {
      const { listing, head: { seed, target }, reusable } = listOf<{ seed: number, target: { score: number } }>(answers, practiceQuestions, args)
      const count = listing.items.length
      return { kind: 'list', listing, heading: `**${count} ${count === 1 ? 'questão' : 'questões'} para praticar no nível ${target.score}** da escala do ENEM (semente ${seed}), da mais fácil à mais difícil.`, reveal: revealed(args), figures: withFigures(args, false), reusable }
    }
  },
  {
    name: 'list_skills',
    title: 'List the skills of INEP\'s Matriz',
    description: 'The competências and habilidades of INEP\'s Matriz de Referência for one area (`discipline`): each habilidade\'s `code` (such as `MT-H21`, what `skill` of the question tools takes), INEP\'s text, and how many questions it has.',
    inputSchema: closedObject({ discipline: disciplineKind.schema({ description: 'The area, by its discipline' }) }, ['discipline']),
    outputSchema: SkillCatalogSchema,
    run: (answers, args) => {
      const discipline = readArgument(args, 'discipline', disciplineKind, true)!
      const { areas, ...rest } = ask<SkillList & Record<string, unknown>>(answers, listSkills, {})
      const list = { ...rest, areas: areas.filter((area) => area.discipline === discipline) }
      return { kind: 'data', structured: list, text: skillListText(list), reusable: true }
    }
  },
  {
    name: 'score_answers',
    title: 'Compute an ENEM score',
    description: 'An ENEM score per area, computed as INEP computes it (three-parameter IRT, EAP estimate). Two forms, exactly one: an answer sheet (`sheet`: the letters marked in one INEP booklet\'s order, with its `booklet` code) or a practice run on an exam the service holds (`answers`: `{ index, answer }` by question index, with `application`). `language` when linguagens is answered.',
    inputSchema: SCORE_INPUT,
    outputSchema: ScoreAnswerSchema,
    run: (answers, args) => {
      const { body, form } = readScoreRequest(args)
      let answer: ScoreAnswer
      try {
        answer = JSON.parse(answerOfBody(computeScores, answers, body).raw.toString('utf8')) as ScoreAnswer
      } catch (error) {
        throw inFormWords(error, form)
      }
      return { kind: 'data', structured: answer, text: scoreText(answer, labels(answers)), reusable: true }
    }
  }
]
