import type { ExamSummary, Question, ServedQuestionSummary } from '../../data/record-schemas.ts'
import { DATASET_FILE_PREFIX } from '../../data/dataset/load-dataset.ts'
import { errorBody, type ErrorBody, type ErrorStatus } from '../error-codes.ts'
import { internalError } from '../errors.ts'
import { grammarProblem } from '../schemas/parameters.ts'
import { ENDPOINTS, endpointUrl } from '../endpoints.ts'
import { readPaging } from '../answers/exam-answers.ts'
import { noExamOfYear } from '../../data/catalog.ts'
import { BULK_READS } from '../error-descriptions.ts'
import { MemoryCounterStore } from '../rate-limit/memory-counter-store.ts'
import { RequestCounter } from '../rate-limit/request-counter.ts'
import { referenceMatrix } from '../../data/skills/matriz.ts'

/*
 * Examples for the OpenAPI document, copied from the real dataset (ENEM 2020) so that the
 * reference page shows what clients actually receive, Portuguese text and accents included.
 * Lists are trimmed to their first entries; records are otherwise verbatim. The file addresses
 * are kept as the dataset spells them (https://enem.dev/...) and rewritten to the server's
 * PUBLIC_URL exactly as the loader does, so the examples never name another host.
 * test/http/openapi.test.ts checks them against the schemas and, on the full dataset, against
 * what the server answers.
 */

/** The disciplines of the 2022 and 2023 exams, labels verbatim (their no-break spaces included). */
const DISCIPLINES = [
  { label: 'Ciências Humanas\u00a0e suas Tecnologias', value: 'ciencias-humanas' },
  { label: 'Ciências da Natureza\u00a0e suas Tecnologias', value: 'ciencias-natureza' },
  { label: 'Linguagens, Códigos\u00a0e suas Tecnologias', value: 'linguagens' },
  { label: 'Matemática e\u00a0suas Tecnologias', value: 'matematica' }
]

/** GET /v1/exams on the full dataset, trimmed to the two newest exams. */
export const EXAM_LIST_EXAMPLE: ExamSummary[] = [
  { title: 'ENEM 2023', year: 2023, application: 'regular', disciplines: DISCIPLINES, languages: [{ label: 'Espanhol', value: 'espanhol' }, { label: 'Inglês', value: 'ingles' }] },
  { title: 'ENEM 2022', year: 2022, application: 'regular', disciplines: DISCIPLINES, languages: [{ label: 'Espanhol', value: 'espanhol' }, { label: 'Inglês', value: 'ingles' }] }
]

const EXAM_2020: ExamSummary = {
  title: 'ENEM 2020',
  year: 2020,
  application: 'regular',
  disciplines: DISCIPLINES,
  languages: [{ label: 'Espanhol', value: 'espanhol' }, { label: 'Inglês', value: 'ingles' }]
}

/** GET /v1/exams/2020, trimmed to the first question entries (one per language variant). */
export const EXAM_DETAIL_EXAMPLE: ExamSummary & { questions: ServedQuestionSummary[] } = {
  ...EXAM_2020,
  questions: [
    { title: 'Questão 1 - ENEM 2020', index: 1, discipline: 'linguagens', language: 'espanhol', incomplete: null },
    { title: 'Questão 1 - ENEM 2020', index: 1, discipline: 'linguagens', language: 'ingles', incomplete: null },
    { title: 'Questão 2 - ENEM 2020', index: 2, discipline: 'linguagens', language: 'espanhol', incomplete: null },
    { title: 'Questão 2 - ENEM 2020', index: 2, discipline: 'linguagens', language: 'ingles', incomplete: null }
  ]
}

/**
 * 2020/questions/94/details.json as the dataset holds it, with INEP's official data the service
 * adds: a short question with one image (the \u00a0 are the record's own no-break spaces).
 */
export const QUESTION_RECORD_EXAMPLE: Question = {
  title: 'Questão 94 - ENEM 2020',
  index: 94,
  discipline: 'ciencias-natureza',
  language: null,
  year: 2020,
  application: 'regular',
  context: 'Um microempresário do ramo de cosméticos utiliza óleos\u00a0essenciais e quer produzir um creme com fragrância de\u00a0rosas. O principal componente do óleo de rosas tem\u00a0cadeia poli-insaturada e hidroxila em carbono terminal.\u00a0O catálogo dos óleos essenciais apresenta, para escolha\u00a0da essência, estas estruturas químicas:\n\n![](https://enem.dev/2020/questions/94/cd807044-741c-49d0-893a-9d11bfd1e72b.png)',
  files: ['https://enem.dev/2020/questions/94/cd807044-741c-49d0-893a-9d11bfd1e72b.png'],
  correctAlternative: 'A',
  alternativesIntroduction: 'Qual substância o empresário deverá utilizar?',
  alternatives: [
    { letter: 'A', text: '1', file: null, isCorrect: true },
    { letter: 'B', text: '2', file: null, isCorrect: false },
    { letter: 'C', text: '3', file: null, isCorrect: false },
    { letter: 'D', text: '4', file: null, isCorrect: false },
    { letter: 'E', text: '5', file: null, isCorrect: false }
  ],
  // The record's entry in data/official/2020.json.
  inep: {
    item: 60072,
    area: 'CN',
    skill: 24,
    key: 'A',
    annulled: false,
    excludedFromScoring: false,
    irt: { a: 4.35472, b: 1.09202, c: 0.14701 },
    difficulty: 624.7,
    booklet: { code: 597, colour: 'azul' },
    sources: ['itens-prova/ITENS_PROVA_2020.csv', 'items/enem-2020.json']
  },
  incomplete: null
}

/** The request each success example answers, so a test can replay it on the full dataset. */
export const EXAMPLE_REQUESTS = {
  listExams: endpointUrl('listExams'),
  getExam: endpointUrl('getExam', { year: '2020' }),
  listQuestions: endpointUrl('listQuestions', { year: '2020' }, { limit: '1', offset: '93' }),
  getQuestion: endpointUrl('getQuestion', { year: '2020', index: '94' }),
  // q="óleos essenciais": a phrase two questions hold, 2020/94 the best match.
  findQuestions: endpointUrl('findQuestions', {}, { q: '"óleos essenciais"', limit: '1' }),
  randomQuestions: endpointUrl('randomQuestions', {}, { q: '"óleos essenciais"', seed: '1' }),
  // Seed 7 draws 2020/94 (difficulty 624.7) among the 30 most informative CN items of 2020 at 625. Of 2020
  // alone: a draw among every exam changes with the exams a dataset holds (2024 and 2025 in a built one).
  practiceQuestions: endpointUrl('practiceQuestions', {}, { discipline: 'ciencias-natureza', score: '625', count: '1', seed: '7', year: '2020' }),
  listSkills: endpointUrl('listSkills')
}

/** GET /v1/skills on the full dataset, trimmed to CN with its first competência and first skill (the texts are the Matriz's own). */
function skillsExample (): unknown {
  const cn = referenceMatrix().areas.find((entry) => entry.area === 'CN')!
  const [competency] = cn.competencies
  const [skill] = cn.skills
  return {
    areas: [{
      area: 'CN',
      discipline: 'ciencias-natureza',
      name: cn.name,
      competencies: [competency],
      skills: [{ code: 'CN-H1', number: skill!.number, competency: skill!.competency, text: skill!.text, questions: 29 }]
    }]
  }
}

export type ExampleOperation = keyof typeof EXAMPLE_REQUESTS

/** The full dataset's years, which the 404's example names as the years held. */
const DATASET_YEARS = Array.from({ length: 2023 - 2009 + 1 }, (_, offset) => 2009 + offset)

/** The message of the error a check throws for the example's request. */
function refusalOf (check: () => unknown): string {
  try {
    check()
  } catch (error) {
    if (error instanceof Error) return error.message
  }
  throw new Error('an error example\'s request is not refused')
}

const listQuestions = ENDPOINTS.find((endpoint) => endpoint.operationId === 'listQuestions')!

/**
 * An error example per status: each message made by the very check that refuses the request the
 * summary names (test/http/openapi.test.ts sends those requests to the server on the full dataset).
 */
const ERROR_EXAMPLES: Partial<Record<ErrorStatus, { summary: string, message: string }>> = {
  400: { summary: `GET ${endpointUrl('listQuestions', { year: '2020' }, { limit: 'abc' })}`, message: grammarProblem('query', 'limit', 'abc', listQuestions.querystring) },
  404: { summary: `GET ${endpointUrl('getExam', { year: '1999' })}`, message: noExamOfYear(1999, DATASET_YEARS) },
  422: { summary: `GET ${endpointUrl('listQuestions', { year: '2020' }, { limit: '0' })}`, message: refusalOf(() => readPaging({ limit: '0' })) },
  429: { summary: 'The 601st request within a minute', message: new RequestCounter(600, 60_000, new MemoryCounterStore(1), BULK_READS).refusal(42).message },
  500: { summary: 'An unexpected failure', message: internalError().message }
}

/** The error examples with the request each answers (its method and address), for a test to replay. */
export function errorExampleRequests (): Array<{ status: ErrorStatus, request: string, message: string }> {
  return Object.entries(ERROR_EXAMPLES).flatMap(([status, example]) => example.summary.startsWith('GET /') ? [{ status: Number(status) as ErrorStatus, request: example.summary.slice('GET '.length), message: example.message }] : [])
}

/** File addresses of the dataset as this server serves them (same rule as the loader). */
function withPublicUrl<T> (value: T, publicUrl: string): T {
  return JSON.parse(JSON.stringify(value).replaceAll(DATASET_FILE_PREFIX, `${publicUrl}/files/`)) as T
}

/** The success example of each operation, with addresses under `publicUrl`. */
export function successExamples (publicUrl: string): Record<ExampleOperation, unknown> {
  const question = withPublicUrl(QUESTION_RECORD_EXAMPLE, publicUrl)
  return {
    listExams: EXAM_LIST_EXAMPLE,
    getExam: EXAM_DETAIL_EXAMPLE,
    listQuestions: { metadata: { limit: 1, offset: 93, total: 177, hasMore: true }, questions: [question] },
    getQuestion: question,
    findQuestions: { metadata: { limit: 1, offset: 0, total: 2, hasMore: true }, questions: [question] },
    randomQuestions: { seed: 1, questions: [question] },
    practiceQuestions: { seed: 7, target: { discipline: 'ciencias-natureza', score: 625, theta: 1.0951 }, questions: [question] },
    listSkills: skillsExample()
  }
}

/** The error example for a status, or undefined when there is none worth showing. */
export function errorExample (publicUrl: string, status: ErrorStatus): { summary: string, value: ErrorBody } | undefined {
  const example = ERROR_EXAMPLES[status]
  if (example === undefined) return undefined
  return { summary: example.summary, value: errorBody(publicUrl, status, example.message) }
}
