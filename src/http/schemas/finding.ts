import Type from 'typebox'
import { QuestionSchema } from '../../data/record-schemas.ts'
import { SEED_MAX } from '../../data/finding/random-draw.ts'
import { PRACTICE_COUNT_DEFAULT, PRACTICE_COUNT_MAX, SCORE_MAX, SCORE_MIN } from '../../data/scores/practice-draw.ts'
import { FINDING_FILTERS, filterParameters } from './finding-filters.ts'
import { PaginationMetadataSchema } from './responses.ts'
import { integerParameter, LIMIT_DEFAULT, LIMIT_MAX, slugParameter, stringParameter } from './parameters.ts'

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

const seedParameter = integerParameter(`Seed of the draw, 0 to ${SEED_MAX}: the same seed, filters and dataset give the same questions in the same order. Default: one picked by the server, returned in \`seed\``, `0 to ${SEED_MAX}`, ['42'])

export const RandomQuestionsQuerySchema = Type.Object({
  ...filters,
  count: Type.Optional(integerParameter(`How many distinct questions to draw, 1 to ${COUNT_MAX}; default ${COUNT_DEFAULT} (fewer when fewer match)`, `1 to ${COUNT_MAX}`, ['5'])),
  seed: Type.Optional(seedParameter)
})

/** The export holds every record of the exams asked for: the filters that test records, not the views or the search. */
export const ExportQuerySchema = Type.Object({
  year: filters.year,
  application: filters.application,
  skill: filters.skill,
  difficulty: filters.difficulty
})

/** A score on the 0–1000 scale: up to 4 digits, up to 2 decimals (what POST /v1/scores gives has one). */
export const SCORE_PATTERN = '^(0|[1-9][0-9]{0,3})(\\.[0-9]{1,2})?$'

/** GET /v1/questions/practice: `discipline` and `score` required; the filters of /random but `q` (information ranks, not relevance), `hasImages` and `annulled` (never drawn). */
export const PracticeQuerySchema = Type.Object({
  discipline: slugParameter('The area to practise, by its discipline slug (`linguagens`, `ciencias-humanas`, `ciencias-natureza`, `matematica`). Required', 'the discipline of an INEP area', ['linguagens', 'matematica']),
  score: stringParameter({
    pattern: SCORE_PATTERN,
    maxLength: 7,
    grammar: 'a number with up to 4 digits and up to 2 decimals',
    range: `${SCORE_MIN} to ${SCORE_MAX}`,
    description: `The candidate's score in that area, on INEP's scale (${SCORE_MIN}–${SCORE_MAX}), as POST /v1/scores gives it: θ = (score − d)/k. Required`,
    examples: ['620', '612.3']
  }),
  count: Type.Optional(integerParameter(`How many questions, 1 to ${PRACTICE_COUNT_MAX}; default ${PRACTICE_COUNT_DEFAULT} (fewer when fewer are eligible)`, `1 to ${PRACTICE_COUNT_MAX}`, ['3', '10'])),
  year: filters.year,
  application: filters.application,
  language: filters.language,
  skill: filters.skill,
  seed: Type.Optional(seedParameter)
})

export type FindQuestionsQuery = Type.Static<typeof FindQuestionsQuerySchema>
export type RandomQuestionsQuery = Type.Static<typeof RandomQuestionsQuerySchema>
export type ExportQuery = Type.Static<typeof ExportQuerySchema>
export type PracticeQuery = Type.Static<typeof PracticeQuerySchema>

export const FoundQuestionPageSchema = Type.Object({
  metadata: PaginationMetadataSchema,
  questions: Type.Array(QuestionSchema)
}, { title: 'FoundQuestionPage', description: 'One page of the questions that match, every exam together' })

export const RandomDrawSchema = Type.Object({
  seed: Type.Integer({ minimum: 0, maximum: SEED_MAX, description: 'The seed of this draw: send it back to get the same questions again', examples: [42] }),
  questions: Type.Array(QuestionSchema, { description: 'Distinct questions, in draw order' })
}, { title: 'RandomDraw', description: 'Questions drawn at random from those that match' })

export const PracticeDrawSchema = Type.Object({
  seed: Type.Integer({ minimum: 0, maximum: SEED_MAX, description: 'The seed of this draw: send it back to get the same questions again', examples: [42] }),
  target: Type.Object({
    discipline: Type.String({ description: 'The area practised, by its discipline slug', examples: ['matematica'] }),
    score: Type.Number({ description: 'The score asked for', examples: [620] }),
    theta: Type.Number({ description: 'θ = (score − d)/k of the area, to 4 decimals', examples: [0.9252] })
  }, { description: 'The level the questions were chosen for' }),
  questions: Type.Array(QuestionSchema, { description: 'Distinct INEP items drawn from the most informative at θ, easiest (lowest `inep.difficulty`) first' })
}, { title: 'PracticeDraw', description: 'Questions that best measure a candidate of the score asked for' })
