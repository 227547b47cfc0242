import type { TObject } from 'typebox'
import type { ExamSummary, Question } from '../data/record-schemas.ts'
import { LETTERS } from '../data/record-schemas.ts'
import { answerOfBody, ENDPOINTS, type EndpointAnswers, type Endpoint } from '../http/endpoints.ts'
import type { ScoreAnswer } from '../http/schemas/scores.ts'
import { ScoreAnswerSchema } from '../http/schemas/scores.ts'
import { SkillCatalogSchema } from '../http/schemas/skills.ts'
import { booleanKind, choiceKind, readArgument, type ToolArguments } from './argument-kinds.ts'
import type { Listing, PreparedBody } from '../http/answers/prepared-body.ts'
import { answerCheckText, examListText, labelsOf, scoreText, skillListText, type Labels, type SkillList } from './question-text.ts'
import { inFormWords, readScoreRequest, SCORE_INPUT } from './score-input.ts'
import { endpointToolInput, readEndpointValues } from './tool-input.ts'
import {
  AnswerCheckSchema, ExamListOutputSchema, PracticeDrawOutputSchema, QuestionPageOutputSchema, RandomDrawOutputSchema,
  ToolQuestionSchema, type AnswerCheck
} from './tool-output.ts'
import type { ToolAnswer } from './tool-answer.ts'

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

/** An endpoint's description for an assistant: without its example address, which is HTTP's. */
function describedAs (endpoint: Endpoint): string {
  return endpoint.description.replace(/ Example: [^]*$/, '')
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

/** The record get_question reads: the one GET /v1/exams/{year}/questions/{index} answers with. */
function recordOf (answers: EndpointAnswers, args: ToolArguments): Question {
  const { params, query } = readEndpointValues(getQuestion, args)
  return answers.exams.record(params.year!, params.index!, query)
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
  reveal_answer: booleanKind.schema({
    description: 'Include the answer key (`correctAlternative`, each alternative\'s `isCorrect`, `inep.key`), in the result and its text. Default false, so a tutor can ask the question first and check the student\'s letter with check_answer'
  })
}

/** Whether the call asked for the key. */
const revealed = (args: ToolArguments) => readArgument(args, 'reveal_answer', booleanKind) ?? false

const letterKind = choiceKind(LETTERS)

/** What a list tool says of its keys. */
const KEYS_WITHHELD = 'The answer key is withheld unless `reveal_answer` is true (no `correctAlternative`, no alternative\'s `isCorrect`, no `inep.key`); check_answer checks a letter.'

export const TOOLS: readonly Tool[] = [
  {
    name: 'list_exams',
    title: 'List ENEM exams',
    description: 'Every ENEM exam the service holds (year, application, disciplines, foreign languages), newest first: what `year`, `application`, `discipline` and `language` of the other tools can be. The structured result is `{ "exams": [...] }`, the answer of GET /v1/exams.',
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
    description: `${describedAs(findQuestions)} The structured result is the answer of GET /v1/questions for the same filters (\`metadata\`, \`questions\`). ${KEYS_WITHHELD}`,
    inputSchema: endpointToolInput(findQuestions, REVEAL_ANSWER),
    outputSchema: QuestionPageOutputSchema,
    run: (answers, args) => {
      const reveal = revealed(args)
      const { listing, head: { metadata: { total, offset } }, reusable } = listOf<{ metadata: { total: number, offset: number } }>(answers, findQuestions, args)
      const count = listing.items.length
      const shown = count === 0 ? '' : `; mostrando ${offset + 1}–${offset + count}`
      return { kind: 'list', listing, heading: `**${total} ${total === 1 ? 'questão encontrada' : 'questões encontradas'}**${shown}.`, reveal, reusable }
    }
  },
  {
    name: 'get_question',
    title: 'Get one ENEM question',
    description: `${describedAs(getQuestion)} The structured result is the record of GET /v1/exams/{year}/questions/{index}. ${KEYS_WITHHELD}`,
    inputSchema: endpointToolInput(getQuestion, REVEAL_ANSWER),
    outputSchema: ToolQuestionSchema,
    run: (answers, args) => {
      return { kind: 'question', question: recordOf(answers, args), reveal: revealed(args), reusable: true }
    }
  },
  {
    name: 'check_answer',
    title: 'Check an answer to an ENEM question',
    description: 'Whether a letter is the right answer to a question (the same question get_question finds: year, index, language, application), with the key and whether INEP annulled the question. The key is the official one (INEP\'s, where it corrects the dataset).',
    inputSchema: endpointToolInput(getQuestion, { answer: letterKind.schema({ description: 'The letter chosen, A to E' }) }, ['answer']),
    outputSchema: AnswerCheckSchema,
    run: (answers, args) => {
      const answer = readArgument(args, 'answer', letterKind, true)!
      const question = recordOf(answers, args)
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
    description: `${describedAs(randomQuestions)} The structured result is the answer of GET /v1/questions/random for the same filters (\`seed\`, \`questions\`). ${KEYS_WITHHELD}`,
    inputSchema: endpointToolInput(randomQuestions, REVEAL_ANSWER),
    outputSchema: RandomDrawOutputSchema,
    run: (answers, args) => {
      const { listing, head: { seed }, reusable } = listOf<{ seed: number }>(answers, randomQuestions, args)
      const count = listing.items.length
      return { kind: 'list', listing, heading: `**${count} ${count === 1 ? 'questão sorteada' : 'questões sorteadas'}** (semente ${seed}).`, reveal: revealed(args), reusable }
    }
  },
  {
    name: 'practice_questions',
    title: 'Draw ENEM questions at a score',
    description: `${describedAs(practiceQuestions)} \`discipline\` and \`score\` are required. The structured result is the answer of GET /v1/questions/practice (\`seed\`, \`target\`, \`questions\`, easiest first). ${KEYS_WITHHELD}`,
    inputSchema: endpointToolInput(practiceQuestions, REVEAL_ANSWER),
    outputSchema: PracticeDrawOutputSchema,
    run: (answers, args) => {
      const { listing, head: { seed, target }, reusable } = listOf<{ seed: number, target: { score: number } }>(answers, practiceQuestions, args)
      const count = listing.items.length
      return { kind: 'list', listing, heading: `**${count} ${count === 1 ? 'questão' : 'questões'} para praticar no nível ${target.score}** da escala do ENEM (semente ${seed}), da mais fácil à mais difícil.`, reveal: revealed(args), reusable }
    }
  },
  {
    name: 'list_skills',
    title: 'List the skills of INEP\'s Matriz',
    description: `${describedAs(listSkills)} The structured result is the answer of GET /v1/skills: per area its competências and habilidades (\`code\` such as \`MT-H21\`, INEP's text, how many questions each has), the codes \`skill\` of search_questions, random_questions and practice_questions takes.`,
    inputSchema: endpointToolInput(listSkills),
    outputSchema: SkillCatalogSchema,
    run: (answers) => {
      const list = ask<SkillList & Record<string, unknown>>(answers, listSkills, {})
      return { kind: 'data', structured: list, text: skillListText(list), reusable: true }
    }
  },
  {
    name: 'score_answers',
    title: 'Compute an ENEM score',
    description: `${describedAs(computeScores).replace(/ Two forms: [^]*$/, '')} Two forms, exactly one: an answer sheet (\`sheet\`: the letters marked in one INEP booklet's order, with its \`booklet\` code) or a practice run on an exam the service holds (\`answers\`: \`{ index, answer }\` by question index, with \`application\`). \`language\` when linguagens is answered. The structured result is the answer of POST /v1/scores.`,
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
