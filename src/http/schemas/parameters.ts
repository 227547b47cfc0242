import Type from 'typebox'

/*
 * The parameter grammar of API.md. Values are validated as strings against these patterns
 * (a break is 400 bad_request); only then are they converted and range-checked (422), so that
 * `01`, `1e2` or `+1` are refused rather than silently coerced.
 */

export const INTEGER_PATTERN = '^-?(0|[1-9][0-9]{0,9})$'
export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$'
export const SLUG_MAX_LENGTH = 40

export const INTEGER_GRAMMAR = 'a decimal integer of at most 10 digits, without sign prefix, spaces or leading zeros'
export const SLUG_GRAMMAR = `a lower-case slug (letters a-z, digits and inner hyphens, at most ${SLUG_MAX_LENGTH} characters)`

export const LIMIT_DEFAULT = 10
export const LIMIT_MAX = 50

const integerParameter = (description: string, examples: string[]) =>
  Type.String({ pattern: INTEGER_PATTERN, maxLength: 11, description: `${description}. Grammar: ${INTEGER_GRAMMAR}.`, examples })

const slugParameter = (description: string, examples: string[]) =>
  Type.String({ pattern: SLUG_PATTERN, maxLength: SLUG_MAX_LENGTH, description: `${description}. Grammar: ${SLUG_GRAMMAR}.`, examples })

/** Which grammar each parameter follows, for error messages. */
export const PARAMETER_GRAMMAR: Record<string, string> = {
  year: INTEGER_GRAMMAR,
  index: INTEGER_GRAMMAR,
  limit: INTEGER_GRAMMAR,
  offset: INTEGER_GRAMMAR,
  language: SLUG_GRAMMAR,
  discipline: SLUG_GRAMMAR
}

export const YearParamsSchema = Type.Object({
  year: integerParameter('Year the exam was applied; at least 1', ['2020'])
})

export const QuestionParamsSchema = Type.Object({
  year: integerParameter('Year the exam was applied; at least 1', ['2020']),
  index: integerParameter('Number of the question in the exam; at least 1', ['1'])
})

const languageQuery = slugParameter('Language view: null-language questions plus those in this language. Default: the first of the exam\'s `languages`; must be one the exam offers', ['ingles'])

export const QuestionListQuerySchema = Type.Object({
  limit: Type.Optional(integerParameter(`Most questions to return, 1 to ${LIMIT_MAX}; default ${LIMIT_DEFAULT}`, ['10'])),
  offset: Type.Optional(integerParameter('Questions of the view to skip (a position, not a question number), at least 0; default 0', ['0'])),
  language: Type.Optional(languageQuery),
  discipline: Type.Optional(slugParameter('Narrows the view to one discipline the exam offers', ['matematica']))
})

export const QuestionQuerySchema = Type.Object({
  language: Type.Optional(languageQuery)
})

export type YearParams = Type.Static<typeof YearParamsSchema>
export type QuestionParams = Type.Static<typeof QuestionParamsSchema>
export type QuestionListQuery = Type.Static<typeof QuestionListQuerySchema>
export type QuestionQuery = Type.Static<typeof QuestionQuerySchema>
