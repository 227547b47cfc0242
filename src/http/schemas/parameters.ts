import Type from 'typebox'
import { APPLICATIONS, DEFAULT_APPLICATION } from '../../data/exam-key.ts'
import { describeValue } from '../errors.ts'

/*
 * The parameter grammar of the contract. Values are validated as strings against these patterns
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

/**
 * Where a parameter schema keeps the words of its grammar, for the 400's message
 * ("limit must be <grammar>, got ..."). An OpenAPI extension keyword, so the document may carry it.
 */
const GRAMMAR_KEYWORD = 'x-grammar'
/**
 * Where a parameter schema keeps the words of what a value of its grammar must also be (a range,
 * something the service holds): a value past them is 422 (or 404), and the 422's entry in the
 * reference says so (src/http/error-descriptions.ts). Absent when every value of the grammar is fine.
 */
const RANGE_KEYWORD = 'x-range'

export interface StringParameterOptions {
  pattern: string
  maxLength?: number
  /** What the pattern means, in words: the 400's message says the value must be this. */
  grammar: string
  /** What a value of the grammar must also be, in words (see RANGE_KEYWORD). */
  range?: string
  description: string
  /** Values to show and to test with (test/http/endpoint-cases.test.ts): each must be answered 200. */
  examples: string[]
}

/** A string parameter with a pattern (a value that breaks it is 400) and the words that explain it. */
export const stringParameter = (options: StringParameterOptions) =>
  Type.String({
    pattern: options.pattern,
    ...(options.maxLength === undefined ? {} : { maxLength: options.maxLength }),
    description: `${options.description}. Grammar: ${options.grammar}.`,
    examples: options.examples,
    [GRAMMAR_KEYWORD]: options.grammar,
    ...(options.range === undefined ? {} : { [RANGE_KEYWORD]: options.range })
  })

/** A decimal-integer parameter. */
export const integerParameter = (description: string, range: string, examples: string[]) =>
  stringParameter({ pattern: INTEGER_PATTERN, maxLength: 11, grammar: INTEGER_GRAMMAR, range, description, examples })

/** A lower-case slug parameter. */
export const slugParameter = (description: string, range: string, examples: string[]) =>
  stringParameter({ pattern: SLUG_PATTERN, maxLength: SLUG_MAX_LENGTH, grammar: SLUG_GRAMMAR, range, description, examples })

/** The range words of a parameter schema, if it has them. */
export function rangeOfParameter (schema: unknown): string | undefined {
  const range = (schema as Record<string, unknown> | undefined)?.[RANGE_KEYWORD]
  return typeof range === 'string' ? range : undefined
}

/** The grammar words of a parameter schema, if it has them. */
export function grammarOf (schema: unknown): string | undefined {
  const grammar = (schema as Record<string, unknown> | undefined)?.[GRAMMAR_KEYWORD]
  return typeof grammar === 'string' ? grammar : undefined
}

/** The grammar words of parameter `name` in an object schema of parameters, if it has them. */
export function grammarOfParameter (schema: unknown, name: string): string | undefined {
  const properties = (schema as { properties?: Record<string, Record<string, unknown>> } | undefined)?.properties
  const grammar = properties !== undefined && Object.hasOwn(properties, name) ? properties[name]?.[GRAMMAR_KEYWORD] : undefined
  return typeof grammar === 'string' ? grammar : undefined
}

export const YearParamsSchema = Type.Object({
  year: integerParameter('Year the exam was applied; at least 1', 'at least 1, an exam the service holds (else 404)', ['2020'])
})

export const QuestionParamsSchema = Type.Object({
  year: integerParameter('Year the exam was applied; at least 1', 'at least 1, an exam the service holds (else 404)', ['2020']),
  index: integerParameter('Number of the question in the exam; at least 1', 'at least 1, a question of the exam (else 404)', ['1'])
})

/** One application: `regular` or `ppl`. */
export const APPLICATION_PATTERN = `^(${APPLICATIONS.join('|')})$`
export const APPLICATION_GRAMMAR = APPLICATIONS.join(' or ')

/** Which exam of the year an exam endpoint answers about. */
const applicationQuery = stringParameter({
  pattern: APPLICATION_PATTERN,
  maxLength: Math.max(...APPLICATIONS.map((application) => application.length)),
  grammar: APPLICATION_GRAMMAR,
  range: 'an application the year has an exam of (else 422)',
  description: `Which exam of the year: \`regular\` or \`ppl\` (the second application, reaplicação/PPL). Default: ${DEFAULT_APPLICATION}; a year without an exam of that application is 422`,
  examples: ['regular', 'ppl']
})

export const ExamQuerySchema = Type.Object({
  application: Type.Optional(applicationQuery)
})

const languageQuery = slugParameter('Language view: null-language questions plus those in this language. Default: the first of the exam\'s `languages`; must be one the exam offers', 'a language the exam offers', ['ingles', 'espanhol'])

export const QuestionListQuerySchema = Type.Object({
  limit: Type.Optional(integerParameter(`Most questions to return, 1 to ${LIMIT_MAX}; default ${LIMIT_DEFAULT}`, `1 to ${LIMIT_MAX}`, ['10', '50'])),
  offset: Type.Optional(integerParameter('Questions of the view to skip (a position, not a question number), at least 0; default 0', 'at least 0', ['0', '10'])),
  language: Type.Optional(languageQuery),
  discipline: Type.Optional(slugParameter('Narrows the view to one discipline the exam offers', 'a discipline the exam offers', ['matematica'])),
  // Last: the reference page's "try it" fills in the first parameter's example, the language (as before there was an application).
  application: Type.Optional(applicationQuery)
})

export const QuestionQuerySchema = Type.Object({
  language: Type.Optional(languageQuery),
  application: Type.Optional(applicationQuery)
})

export type ExamQuery = Type.Static<typeof ExamQuerySchema>
export type QuestionListQuery = Type.Static<typeof QuestionListQuerySchema>
export type QuestionQuery = Type.Static<typeof QuestionQuerySchema>

/**
 * The 400's message for a parameter value off its grammar, naming the parameter, what it must be
 * and the value. Every caller that checks parameters against the table's schemas words it so (the
 * routes' error handler, the MCP tools).
 * @example grammarProblem('query', 'limit', 'abc', QuestionListQuerySchema) // 'query parameter limit must be a decimal integer …, got "abc"'
 */
export function grammarProblem (context: 'path' | 'query', name: string, value: unknown, parameters: unknown, detail?: string): string {
  const grammar = grammarOfParameter(parameters, name)
  const what = grammar === undefined ? (detail ?? 'is invalid') : `must be ${grammar}`
  return `${context} parameter ${name} ${what}, got ${describeValue(value)}`
}

/**
 * The 400's message for required parameters left out, from a schema check's first error (TypeBox's
 * and Fastify's both name them in `params.requiredProperties`); undefined for another error.
 */
export function missingProblem (context: 'path' | 'query', error: { keyword?: string, params?: unknown } | undefined): string | undefined {
  const missing = (error?.params as { requiredProperties?: unknown } | undefined)?.requiredProperties
  return error?.keyword === 'required' && Array.isArray(missing) ? `${context} parameter ${missing.join(', ')} is required` : undefined
}
