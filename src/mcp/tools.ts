import type { TObject } from 'typebox'
import type { ExamSummary, Question } from '../data/record-schemas.ts'
import { LETTERS } from '../data/record-schemas.ts'
import { answerOfBody, ENDPOINTS, type EndpointAnswers, type Endpoint } from '../http/endpoints.ts'
import type { ScoreAnswer } from '../http/schemas/scores.ts'
import { ScoreAnswerSchema } from '../http/schemas/scores.ts'
import { SkillCatalogSchema } from '../http/schemas/skills.ts'
import { booleanKind, choiceKind, readArgument, type ToolArguments } from './argument-kinds.ts'
import { answerCheckText, examListText, labelsOf, questionListText, questionText, scoreText, skillListText, type Labels, type SkillList } from './question-text.ts'
import { inFormWords, readScoreRequest, SCORE_INPUT } from './score-input.ts'
import { endpointToolInput, readEndpointValues } from './tool-input.ts'
import {
  AnswerCheckSchema, ExamListOutputSchema, PracticeDrawOutputSchema, QuestionPageOutputSchema, RandomDrawOutputSchema,
  shownQuestions, ToolQuestionSchema, withoutKey, type AnswerCheck
} from './tool-output.ts'

/*
 * The MCP tools: one entry each, most of them one endpoint of the table (src/http/endpoints.ts)
 * asked directly, with no HTTP in between. A tool's input is its endpoint's parameters typed for
 * what they mean (./tool-input.ts), its structured result the endpoint's JSON answer (parsed from
 * the very bytes the endpoint sends) with the answer key left out unless the call asks for it, its
 * output schema the endpoint's answer schema (./tool-output.ts), and its errors the endpoint's
 * ApiErrors (404, 422) with their messages, or the tool's own 400 naming the argument. Its text is a
 * reading for people (./question-text.ts).
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
  /** A closed object: the tool refuses an argument it does not name. */
  inputSchema: TObject
  /** What `structured` always is. */
  outputSchema: TObject
  /** Throws ApiError for what the endpoint would refuse, and for arguments the input schema does not allow. */
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
      return { structured: { exams }, text: examListText(exams) }
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
      const page = ask<{ metadata: { total: number, offset: number }, questions: Question[] }>(answers, findQuestions, args)
      const { total, offset } = page.metadata
      const shown = page.questions.length === 0 ? '' : `; mostrando ${offset + 1}–${offset + page.questions.length}`
      return {
        structured: { ...page, questions: shownQuestions(page.questions, reveal) },
        text: questionListText(`**${total} ${total === 1 ? 'questão encontrada' : 'questões encontradas'}**${shown}.`, page.questions, labels(answers), reveal)
      }
    }
  },
  {
    name: 'get_question',
    title: 'Get one ENEM question',
    description: `${describedAs(getQuestion)} The structured result is the record of GET /v1/exams/{year}/questions/{index}. ${KEYS_WITHHELD}`,
    inputSchema: endpointToolInput(getQuestion, REVEAL_ANSWER),
    outputSchema: ToolQuestionSchema,
    run: (answers, args) => {
      const reveal = revealed(args)
      const question = ask<Question>(answers, getQuestion, args)
      return { structured: reveal ? question : withoutKey(question), text: questionText(question, labels(answers), reveal) }
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
      const question = ask<Question>(answers, getQuestion, args)
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
    description: `${describedAs(randomQuestions)} The structured result is the answer of GET /v1/questions/random for the same filters (\`seed\`, \`questions\`). ${KEYS_WITHHELD}`,
    inputSchema: endpointToolInput(randomQuestions, REVEAL_ANSWER),
    outputSchema: RandomDrawOutputSchema,
    run: (answers, args) => {
      const reveal = revealed(args)
      const draw = ask<{ seed: number, questions: Question[] }>(answers, randomQuestions, args)
      return {
        structured: { ...draw, questions: shownQuestions(draw.questions, reveal) },
        text: questionListText(`**${draw.questions.length} ${draw.questions.length === 1 ? 'questão sorteada' : 'questões sorteadas'}** (semente ${draw.seed}).`, draw.questions, labels(answers), reveal)
      }
    }
  },
  {
    name: 'practice_questions',
    title: 'Draw ENEM questions at a score',
    description: `${describedAs(practiceQuestions)} \`discipline\` and \`score\` are required. The structured result is the answer of GET /v1/questions/practice (\`seed\`, \`target\`, \`questions\`, easiest first). ${KEYS_WITHHELD}`,
    inputSchema: endpointToolInput(practiceQuestions, REVEAL_ANSWER),
    outputSchema: PracticeDrawOutputSchema,
    run: (answers, args) => {
      const reveal = revealed(args)
      const draw = ask<{ seed: number, target: { score: number }, questions: Question[] }>(answers, practiceQuestions, args)
      return {
        structured: { ...draw, questions: shownQuestions(draw.questions, reveal) },
        text: questionListText(`**${draw.questions.length} ${draw.questions.length === 1 ? 'questão' : 'questões'} para praticar no nível ${draw.target.score}** da escala do ENEM (semente ${draw.seed}), da mais fácil à mais difícil.`, draw.questions, labels(answers), reveal)
      }
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
      return { structured: list, text: skillListText(list) }
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
      return { structured: answer, text: scoreText(answer, labels(answers)) }
    }
  }
]
