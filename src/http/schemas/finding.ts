import Type from 'typebox'
import { QuestionSchema } from '../../data/record-schemas.ts'
import { SEED_MAX } from '../../data/finding/random-draw.ts'
import { FINDING_FILTERS, filterParameters } from './finding-filters.ts'
import { PaginationMetadataSchema } from './responses.ts'
import { integerParameter, LIMIT_DEFAULT, LIMIT_MAX } from './parameters.ts'

/*
 * Parameters of the endpoints that find questions across exams (/v1/questions,
 * /v1/questions/random, /v1/export/questions.jsonl): their filters come from the filter table
 * (src/http/schemas/finding-filters.ts), plus paging or the draw's own. As in ./parameters.ts, values are
 * checked as strings against their grammar first (400), and only then converted and range-checked (422).
 */

export const COUNT_DEFAULT = 1
export const COUNT_MAX = 50

/** The filters /v1/questions and /v1/questions/random share: every one of the table. */
const filters = filterParameters(FINDING_FILTERS)

export const FindQuestionsQuerySchema = Type.Object({
  ...filters,
  limit: Type.Optional(integerParameter(`Most questions to return, 1 to ${LIMIT_MAX}; default ${LIMIT_DEFAULT}`, `1 to ${LIMIT_MAX}`, ['10', '50'])),
  offset: Type.Optional(integerParameter('Matching questions to skip (a position in the list), at least 0; default 0', 'at least 0', ['0', '10']))
})

export const RandomQuestionsQuerySchema = Type.Object({
  ...filters,
  count: Type.Optional(integerParameter(`How many distinct questions to draw, 1 to ${COUNT_MAX}; default ${COUNT_DEFAULT} (fewer when fewer match)`, `1 to ${COUNT_MAX}`, ['5'])),
  seed: Type.Optional(integerParameter(`Seed of the draw, 0 to ${SEED_MAX}: the same seed, filters and dataset give the same questions in the same order. Default: one picked by the server, returned in \`seed\``, `0 to ${SEED_MAX}`, ['42']))
})

export const ExportQuerySchema = Type.Object({
  year: filters.year,
  application: filters.application
})

export type FindQuestionsQuery = Type.Static<typeof FindQuestionsQuerySchema>
export type RandomQuestionsQuery = Type.Static<typeof RandomQuestionsQuerySchema>
export type ExportQuery = Type.Static<typeof ExportQuerySchema>

export const FoundQuestionPageSchema = Type.Object({
  metadata: PaginationMetadataSchema,
  questions: Type.Array(QuestionSchema)
}, { title: 'FoundQuestionPage', description: 'One page of the questions that match, every exam together' })

export const RandomDrawSchema = Type.Object({
  seed: Type.Integer({ minimum: 0, maximum: SEED_MAX, description: 'The seed of this draw: send it back to get the same questions again', examples: [42] }),
  questions: Type.Array(QuestionSchema, { description: 'Distinct questions, in draw order' })
}, { title: 'RandomDraw', description: 'Questions drawn at random from those that match' })
