import type { ExamSummary, Question } from '../data/record-schemas.ts'
import { LETTERS } from '../data/record-schemas.ts'
import { ENDPOINTS, type EndpointAnswers, type Endpoint } from '../http/endpoints.ts'
import { ApiError, describeValue } from '../http/errors.ts'
import { AnswerSheetSchema, bodyProblem, PracticeRunSchema, type ScoreAnswer } from '../http/schemas/scores.ts'
import { answerCheckText, examListText, labelsOf, questionListText, questionText, scoreText, skillListText, type AnswerCheck, type Labels, type SkillList } from './question-text.ts'
import { endpointToolInput, readBoolean, readEndpointValues, type JsonSchema, type ToolArguments } from './tool-input.ts'

/*
 * The MCP tools: one entry each, most of them one endpoint of the table (src/http/endpoints.ts)
 * asked directly, with no HTTP in between. A tool's input schema comes from its endpoint's
 * schemas, its structured result is the endpoint's JSON answer (parsed from the very bytes the
 * endpoint sends), and its errors are the endpoint's ApiErrors (400, 404, 422) with their messages.
 * Its text is a reading for people (./question-text.ts).
 */

/** What a tool answers: the data, and its reading for people. */
export interface ToolResult {
  structured: Record<string, unknown>
  text: string
}

export interface Tool {
  name: string
  title: string
  description: string
  inputSchema: JsonSchema
  /** Throws ApiError for what the endpoint would refuse. */
  run: (answers: EndpointAnswers, args: ToolArguments) => ToolResult
}

/** An endpoint's description for an assistant: without its example address, which is HTTP's. */
function describedAs (endpoint: Endpoint): string {
  return endpoint.description.replace(/ Example: [^]*$/, '')
}

function endpointOf (operationId: string): Endpoint {
  const endpoint = ENDPOINTS.find((candidate) => candidate.operationId === operationId)
  if (endpoint === undefined) throw new Error(`no endpoint ${operationId}`)
  return endpoint
}

/** The endpoint's JSON answer to these arguments, exactly as it sends it. */
function ask<T> (answers: EndpointAnswers, endpoint: Endpoint, args: ToolArguments): T {
  const { params, query } = readEndpointValues(endpoint, args)
  return JSON.parse(endpoint.answer(answers, params, query, undefined).raw.toString('utf8')) as T
}

/** Labels of disciplines and languages, once per set of answer answers. */
const labelsByAnswers = new WeakMap<EndpointAnswers, Labels>()
function labels (answers: EndpointAnswers): Labels {
  let known = labelsByAnswers.get(answers)
  if (known === undefined) {
    known = labelsOf(JSON.parse(answers.exams.examList().raw.toString('utf8')) as ExamSummary[])
    labelsByAnswers.set(answers, known)
  }
  return known
}

/** A record without its answer: no `correctAlternative`, no alternative's `isCorrect`, no `inep.key`. */
export function withoutKey (question: Question): Record<string, unknown> {
  const { correctAlternative: _key, alternatives, inep, ...rest } = question
  const inepWithoutKey = inep === null ? null : (({ key: _official, ...facts }) => facts)(inep)
  return { ...rest, alternatives: alternatives.map(({ isCorrect: _isCorrect, ...alternative }) => alternative), inep: inepWithoutKey }
}

const listExams = endpointOf('listExams')
const getQuestion = endpointOf('getQuestion')
const findQuestions = endpointOf('findQuestions')
const randomQuestions = endpointOf('randomQuestions')
const practiceQuestions = endpointOf('practiceQuestions')
const listSkills = endpointOf('listSkills')
const computeScores = endpointOf('computeScores')

const REVEAL_ANSWER = {
  type: 'boolean',
  description: 'Include the answer key (`correctAlternative`, each alternative\'s `isCorrect`, `inep.key`). Default false, so a tutor can ask the question first and check the student\'s letter with check_answer',
  default: false
}

const ANSWER = {
  type: 'string',
  enum: [...LETTERS],
  description: 'The letter chosen, A to E'
}

/** score_answers' input: both forms of POST /v1/scores in one object (a tool's input must be one), told apart by `answers`. */
const SCORE_INPUT: JsonSchema = {
  type: 'object',
  description: 'Either a practice run (year, application, language, answers by question index) or an answer sheet (year, booklet, language, answers as one string in the booklet\'s order)',
  properties: {
    ...PracticeRunSchema.properties,
    booklet: AnswerSheetSchema.properties.booklet,
    answers: {
      description: 'A practice run: letters by question index (`{ "1": "A", "46": "C" }`). An answer sheet: the letters in the booklet\'s order as one string (45 characters, or 50 for linguagens in INEP\'s microdata form)',
      anyOf: [PracticeRunSchema.properties.answers, AnswerSheetSchema.properties.answers]
    }
  },
  required: ['year', 'answers']
}

export const TOOLS: readonly Tool[] = [
  {
    name: 'list_exams',
    title: 'List ENEM exams',
    description: 'Every ENEM exam the service holds (year, application, disciplines, foreign languages), newest first: what `year`, `application`, `discipline` and `language` of the other tools can be. The structured result is `{ "exams": [...] }`, the answer of GET /v1/exams.',
    inputSchema: endpointToolInput(listExams),
    run: (answers) => {
      const exams = ask<ExamSummary[]>(answers, listExams, {})
      return { structured: { exams }, text: examListText(exams) }
    }
  },
  {
    name: 'search_questions',
    title: 'Search ENEM questions',
    description: `${describedAs(findQuestions)} Takes the parameters of GET /v1/questions; the structured result is its answer (\`metadata\`, \`questions\`: full records, keys included). The text shows the questions without their keys.`,
    inputSchema: endpointToolInput(findQuestions),
    run: (answers, args) => {
      const page = ask<{ metadata: { total: number, offset: number }, questions: Question[] }>(answers, findQuestions, args)
      const { total, offset } = page.metadata
      const shown = page.questions.length === 0 ? '' : `; mostrando ${offset + 1}–${offset + page.questions.length}`
      return { structured: page, text: questionListText(`**${total} ${total === 1 ? 'questão encontrada' : 'questões encontradas'}**${shown}.`, page.questions, labels(answers)) }
    }
  },
  {
    name: 'get_question',
    title: 'Get one ENEM question',
    description: `${describedAs(getQuestion)} The answer key is withheld unless \`reveal_answer\` is true: the record of GET /v1/exams/{year}/questions/{index} without \`correctAlternative\`, the alternatives' \`isCorrect\` and \`inep.key\`; with \`reveal_answer\`, that record whole.`,
    inputSchema: endpointToolInput(getQuestion, { reveal_answer: REVEAL_ANSWER }),
    run: (answers, args) => {
      const reveal = readBoolean(args, 'reveal_answer', false)
      const question = ask<Question>(answers, getQuestion, args)
      return { structured: reveal ? question : withoutKey(question), text: questionText(question, labels(answers), reveal) }
    }
  },
  {
    name: 'check_answer',
    title: 'Check an answer to an ENEM question',
    description: 'Whether a letter is the right answer to a question (the same question get_question finds: year, index, language, application), with the key and whether INEP annulled the question. The key is the official one (INEP\'s, where it corrects the dataset). Result: `{ year, application, index, language, answer, correct, correctAlternative, annulled }`.',
    inputSchema: endpointToolInput(getQuestion, { answer: ANSWER }, ['answer']),
    run: (answers, args) => {
      const question = ask<Question>(answers, getQuestion, args)
      const answer = args.answer
      if (typeof answer !== 'string' || !(LETTERS as readonly string[]).includes(answer)) {
        throw new ApiError(400, `answer must be one of ${LETTERS.join(', ')}, got ${describeValue(answer)}`)
      }
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
      return { structured: { ...check }, text: answerCheckText(check, question.title) }
    }
  },
  {
    name: 'random_questions',
    title: 'Draw random ENEM questions',
    description: `${describedAs(randomQuestions)} Takes the parameters of GET /v1/questions/random; the structured result is its answer (\`seed\`, \`questions\`: full records, keys included). The text shows the questions without their keys.`,
    inputSchema: endpointToolInput(randomQuestions),
    run: (answers, args) => {
      const draw = ask<{ seed: number, questions: Question[] }>(answers, randomQuestions, args)
      return { structured: draw, text: questionListText(`**${draw.questions.length} ${draw.questions.length === 1 ? 'questão sorteada' : 'questões sorteadas'}** (semente ${draw.seed}).`, draw.questions, labels(answers)) }
    }
  },
  {
    name: 'practice_questions',
    title: 'Draw ENEM questions at a score',
    description: `${describedAs(practiceQuestions)} Takes the parameters of GET /v1/questions/practice (\`discipline\` and \`score\` required); the structured result is its answer (\`seed\`, \`target\`, \`questions\`: full records, keys included, easiest first). The text shows the questions without their keys.`,
    inputSchema: endpointToolInput(practiceQuestions),
    run: (answers, args) => {
      const draw = ask<{ seed: number, target: { score: number }, questions: Question[] }>(answers, practiceQuestions, args)
      return { structured: draw, text: questionListText(`**${draw.questions.length} ${draw.questions.length === 1 ? 'questão' : 'questões'} para praticar no nível ${draw.target.score}** da escala do ENEM (semente ${draw.seed}), da mais fácil à mais difícil.`, draw.questions, labels(answers)) }
    }
  },
  {
    name: 'list_skills',
    title: 'List the skills of INEP\'s Matriz',
    description: `${describedAs(listSkills)} The structured result is the answer of GET /v1/skills: per area its competências and habilidades (\`code\` such as \`MT-H21\`, INEP's text, how many questions each has), the codes \`skill\` of search_questions, random_questions and practice_questions takes.`,
    inputSchema: endpointToolInput(listSkills),
    run: (answers) => {
      const list = ask<SkillList & Record<string, unknown>>(answers, listSkills, {})
      return { structured: list, text: skillListText(list) }
    }
  },
  {
    name: 'score_answers',
    title: 'Compute an ENEM score',
    description: `${describedAs(computeScores)} The structured result is the answer of POST /v1/scores for the same body.`,
    inputSchema: SCORE_INPUT,
    run: (answers, args) => {
      const problem = bodyProblem(args)
      if (problem !== undefined) throw new ApiError(400, problem)
      const answer = JSON.parse(computeScores.answer(answers, {}, {}, args).raw.toString('utf8')) as ScoreAnswer
      return { structured: answer, text: scoreText(answer, labels(answers)) }
    }
  }
]
