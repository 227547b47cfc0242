import Type from 'typebox'
import { QuestionSchema } from '../../data/record-schemas.ts'
import { SEARCH_TEXT_MAX_LENGTH } from '../../data/question-search.ts'
import { SEED_MAX } from '../../data/random-draw.ts'
import { PaginationMetadataSchema } from './responses.ts'
import { INTEGER_GRAMMAR, INTEGER_PATTERN, LIMIT_DEFAULT, LIMIT_MAX, SLUG_GRAMMAR, SLUG_MAX_LENGTH, SLUG_PATTERN } from './parameters.ts'

/*
 * Parameters of the endpoints that find questions across exams (/v1/questions,
 * /v1/questions/random, /v1/export/questions.jsonl). As in ./parameters.ts, values are checked as
 * strings against their grammar first (400), and only then converted and range-checked (422).
 */

const YEAR_NUMBER = '(0|[1-9][0-9]{0,9})'
const YEAR_ITEM = `${YEAR_NUMBER}(-${YEAR_NUMBER})?`
export const YEAR_SELECTION_PATTERN = `^${YEAR_ITEM}(,${YEAR_ITEM})*$`
export const YEAR_SELECTION_MAX_LENGTH = 200
export const BOOLEAN_PATTERN = '^(true|false)$'

export const COUNT_DEFAULT = 1
export const COUNT_MAX = 50

/** What each parameter of these endpoints must look like, for the 400 messages. */
export const FINDING_GRAMMAR: Record<string, string> = {
  q: 'text of at least 1 character',
  year: `a year (2020), a comma-separated list of years (2018,2020) or an inclusive range (2015-2020), at most ${YEAR_SELECTION_MAX_LENGTH} characters`,
  discipline: SLUG_GRAMMAR,
  language: SLUG_GRAMMAR,
  hasImages: 'true or false',
  annulled: 'true or false',
  limit: INTEGER_GRAMMAR,
  offset: INTEGER_GRAMMAR,
  count: INTEGER_GRAMMAR,
  seed: INTEGER_GRAMMAR
}

const integerParameter = (description: string, examples: string[]) =>
  Type.String({ pattern: INTEGER_PATTERN, maxLength: 11, description: `${description}. Grammar: ${INTEGER_GRAMMAR}.`, examples })
const slugParameter = (description: string, examples: string[]) =>
  Type.String({ pattern: SLUG_PATTERN, maxLength: SLUG_MAX_LENGTH, description: `${description}. Grammar: ${SLUG_GRAMMAR}.`, examples })
const booleanParameter = (description: string, examples: string[]) =>
  Type.String({ pattern: BOOLEAN_PATTERN, description: `${description}. Grammar: \`true\` or \`false\`.`, examples })

/** The filters the three endpoints share (the export takes `year` only). */
const filterParameters = {
  q: Type.Optional(Type.String({
    minLength: 1,
    description: `Full-text search, 1 to ${SEARCH_TEXT_MAX_LENGTH} characters. A question matches when every word occurs in its text ` +
      '(context without image addresses, alternatives introduction, alternatives), ignoring case and accents; a word also matches ' +
      'its plural and verb forms. `"quoted words"` must occur as consecutive words. Best match first.',
    examples: ['fotossíntese', '"efeito estufa"']
  })),
  year: Type.Optional(Type.String({
    pattern: YEAR_SELECTION_PATTERN,
    maxLength: YEAR_SELECTION_MAX_LENGTH,
    description: 'Exams to include: a year, a list (`2018,2020`) or an inclusive range (`2015-2020`). A listed year the service does not hold, or a range whose start is after its end, is 422.',
    examples: ['2020', '2018,2020', '2015-2020']
  })),
  discipline: Type.Optional(slugParameter('Only questions of this discipline (one some exam offers)', ['matematica'])),
  language: Type.Optional(slugParameter('Each exam contributes its language view for this language (its null-language questions plus those in it; an exam without it, its null-language questions). Default: each exam\'s first language', ['ingles'])),
  hasImages: Type.Optional(booleanParameter('Whether the question shows any image (in `files`, an alternative\'s `file`, or inside `context`)', ['false'])),
  annulled: Type.Optional(booleanParameter('Whether INEP annulled the question (a question without official data counts as not annulled)', ['false']))
}

export const FindQuestionsQuerySchema = Type.Object({
  ...filterParameters,
  limit: Type.Optional(integerParameter(`Most questions to return, 1 to ${LIMIT_MAX}; default ${LIMIT_DEFAULT}`, ['10'])),
  offset: Type.Optional(integerParameter('Matching questions to skip (a position in the list), at least 0; default 0', ['0']))
})

export const RandomQuestionsQuerySchema = Type.Object({
  ...filterParameters,
  count: Type.Optional(integerParameter(`How many distinct questions to draw, 1 to ${COUNT_MAX}; default ${COUNT_DEFAULT} (fewer when fewer match)`, ['5'])),
  seed: Type.Optional(integerParameter(`Seed of the draw, 0 to ${SEED_MAX}: the same seed, filters and dataset give the same questions in the same order. Default: one picked by the server, returned in \`seed\``, ['42']))
})

export const ExportQuerySchema = Type.Object({
  year: filterParameters.year
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
