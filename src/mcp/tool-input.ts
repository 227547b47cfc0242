import type { TObject, TSchema } from 'typebox'
import Type from 'typebox'
import { APPLICATIONS } from '../data/exam-key.ts'
import { AREAS, DISCIPLINE_OF_AREA } from '../data/record-schemas.ts'
import { SEARCH_TEXT_MAX_LENGTH } from '../data/finding/question-search.ts'
import { SEED_MAX } from '../data/finding/random-draw.ts'
import { PRACTICE_COUNT_MAX, SCORE_MAX, SCORE_MIN } from '../data/scores/practice-draw.ts'
import type { Endpoint, ParameterValues } from '../http/endpoints.ts'
import { ApiError } from '../http/errors.ts'
import { firstError } from '../http/schemas/first-error.ts'
import { COUNT_MAX } from '../http/schemas/finding.ts'
import { APPLICATION_SELECTION_PATTERN, YEAR_SELECTION_MAX_LENGTH } from '../http/schemas/finding-filters.ts'
import { grammarProblem, LIMIT_MAX, missingProblem, SLUG_GRAMMAR, SLUG_MAX_LENGTH, SLUG_PATTERN } from '../http/schemas/parameters.ts'
import {
  booleanKind, choiceKind, descriptionOf, integerKind, listKind, missingArgument, readArgument, scaleNumberKind, textKind,
  type Annotations, type ArgumentKind, type ToolArguments
} from './argument-kinds.ts'

/*
 * The input of a tool that asks an endpoint of the table (src/http/endpoints.ts): each of the
 * endpoint's parameters taken as tool arguments typed for what it means (./argument-kinds.ts), and
 * the arguments read back into the parameter values the endpoint's routes would have (a list of
 * years as `2018,2020`, two ends as `600-700`), which the endpoint then checks and answers as it
 * answers a request. Where a parameter's description speaks of the query string's grammar, the
 * argument has its own words.
 */

/** The schema of a parameter of the table: a string with its pattern. */
interface ParameterSchema {
  readonly pattern?: string
}

/** How an endpoint parameter is taken as tool arguments (one, or two for a range). */
interface ParameterArguments {
  /** The arguments' schemas, by name, given the parameter's name and schema. */
  readonly properties: (name: string, parameter: ParameterSchema) => Record<string, TSchema>
  /** The parameter's value in its query-string grammar, from the arguments; undefined when none is given. */
  readonly read: (args: ToolArguments, name: string) => string | undefined
}

/** The grammar sentence stringParameter appends to a description: the argument's JSON type says it. */
const GRAMMAR_SENTENCE = / Grammar: [^]*$/

/** A parameter's description as its argument's, without the query string's grammar. */
function describedAs (parameter: ParameterSchema): string {
  return descriptionOf(parameter).replace(GRAMMAR_SENTENCE, '')
}

/**
 * A parameter taken as one argument of the same name: of `kind`, described as the parameter is
 * (or by `annotations`, where the parameter's words are the query string's), its value written
 * back by `toText`.
 */
function oneArgument<T> (kind: ArgumentKind<T>, toText: (value: T) => string, annotations?: (parameter: ParameterSchema) => Annotations): ParameterArguments {
  return {
    properties: (name, parameter) => ({ [name]: kind.schema(annotations?.(parameter) ?? { description: describedAs(parameter) }) }),
    read: (args, name) => {
      const value = readArgument(args, name, kind)
      return value === undefined ? undefined : toText(value)
    }
  }
}

/** An integer parameter, with the bounds the endpoint checks. */
function integerArgument (bounds: { minimum?: number, maximum?: number }): ParameterArguments {
  return oneArgument(integerKind(bounds), String)
}

/** The disciplines of INEP's four areas: the ones the service serves (each record's is its area's). */
export const DISCIPLINES = AREAS.map((area) => DISCIPLINE_OF_AREA[area])

export const APPLICATION_KIND = choiceKind(APPLICATIONS)
export const LANGUAGE_KIND = textKind({ minLength: 1, maxLength: SLUG_MAX_LENGTH, pattern: SLUG_PATTERN, grammar: SLUG_GRAMMAR })

/** A year as a list item: 4 digits at most, so that every list of at most YEARS_MAX fits the query's length. */
const YEARS_MAX = Math.floor((YEAR_SELECTION_MAX_LENGTH + 1) / 5)
const SKILL_CODES_MAX = AREAS.length * 30
const SKILL_CODE_PATTERN = `^(${AREAS.join('|')})-H([1-9]|[12][0-9]|30)$`

/**
 * A range of the score scale as two arguments, `<name>_min` and `<name>_max`, either of them
 * optional: the parameter's `MIN-MAX`. A minimum above the maximum is the endpoint's 422, in the
 * arguments' words.
 */
function scaleRangeArguments (what: string): ParameterArguments {
  const end = scaleNumberKind(SCORE_MIN, SCORE_MAX)
  return {
    properties: (name) => ({
      [`${name}_min`]: end.schema({ description: `Only questions whose ${what} is at least this` }),
      [`${name}_max`]: end.schema({ description: `Only questions whose ${what} is at most this` })
    }),
    read: (args, name) => {
      const minimum = readArgument(args, `${name}_min`, end)
      const maximum = readArgument(args, `${name}_max`, end)
      if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
        throw new ApiError(422, `${name}_min ${minimum} is above ${name}_max ${maximum}`)
      }
      return minimum === undefined && maximum === undefined ? undefined : `${minimum ?? ''}-${maximum ?? ''}`
    }
  }
}

/** The tool arguments of the endpoints' path parameters, by parameter name. */
const PATH_ARGUMENTS: Readonly<Record<string, ParameterArguments>> = {
  year: integerArgument({ minimum: 1 }),
  index: integerArgument({ minimum: 1 })
}

/** The tool arguments of the endpoints' query parameters, by parameter name. */
const QUERY_ARGUMENTS: Readonly<Record<string, ParameterArguments>> = {
  q: oneArgument(textKind({ minLength: 1, maxLength: SEARCH_TEXT_MAX_LENGTH, grammar: `a text of 1 to ${SEARCH_TEXT_MAX_LENGTH} characters` }), String, () => ({
    description: 'Words every matching question holds (any case, accents, plurals and verb forms); `"quoted words"` consecutive. Best match first'
  })),
  year: oneArgument(listKind(integerKind({ minimum: 1, maximum: 9999 }), { maxItems: YEARS_MAX, items: 'years', itemSchema: {} }),
    (years) => years.join(','),
    () => ({ description: 'Only the exams of these years (`[2018, 2020]`; list_exams lists them). Default: every exam' })),
  application: oneArgument(APPLICATION_KIND, String, (parameter) => parameter.pattern === APPLICATION_SELECTION_PATTERN
    ? { description: 'Only the exams of this application: `regular`, or `ppl` (the second application, reaplicação/PPL). Default: both' }
    : { description: 'Which exam of the year: `regular` (the default) or `ppl` (the second application, reaplicação/PPL), one the year has' }),
  discipline: oneArgument(choiceKind(DISCIPLINES), String, () => ({ description: 'The area, by its discipline' })),
  language: oneArgument(LANGUAGE_KIND, String, () => ({ description: 'Foreign language (`ingles`, `espanhol`): the exam\'s questions in it with the common ones. Default: the exam\'s first' })),
  hasImages: oneArgument(booleanKind, String),
  annulled: oneArgument(booleanKind, String),
  skill: oneArgument(listKind(textKind({ minLength: 1, maxLength: 6, pattern: SKILL_CODE_PATTERN, grammar: 'a skill code of INEP\'s Matriz (LC-H1 … MT-H30)' }), { maxItems: SKILL_CODES_MAX, items: 'skill codes', itemSchema: {} }),
    (codes) => codes.join(','),
    () => ({ description: 'Only questions of these habilidades of INEP\'s Matriz (`["MT-H21", "CN-H17"]`; list_skills lists them)' })),
  difficulty: scaleRangeArguments(`\`inep.difficulty\` (on the ${SCORE_MIN}–${SCORE_MAX} score scale)`),
  limit: integerArgument({ minimum: 1, maximum: LIMIT_MAX }),
  offset: integerArgument({ minimum: 0 }),
  // One bound for /random's count and /practice's (both 50): the smaller, should they ever differ.
  count: integerArgument({ minimum: 1, maximum: Math.min(COUNT_MAX, PRACTICE_COUNT_MAX) }),
  seed: oneArgument(integerKind({ minimum: 0, maximum: SEED_MAX }), String, () => ({ description: 'The same seed and arguments give the same draw. Default: a new one, given in the result' })),
  score: oneArgument(scaleNumberKind(SCORE_MIN, SCORE_MAX), String, () => ({
    description: `The candidate's score in that area, on INEP's scale (${SCORE_MIN}–${SCORE_MAX}), as score_answers gives it. Required`
  }))
}

/** The arguments of an endpoint's parameter: throws at start-up for a parameter no entry takes. */
function argumentsOf (table: Readonly<Record<string, ParameterArguments>>, name: string, endpoint: Endpoint): ParameterArguments {
  const entry = table[name]
  if (entry === undefined) throw new Error(`parameter ${name} of ${endpoint.operationId} has no tool argument (src/mcp/tool-input.ts)`)
  return entry
}

/** The parameters of an endpoint, path ones first, each with its arguments and whether it is required. */
function parametersOf (endpoint: Endpoint): Array<{ name: string, context: 'path' | 'query', parameter: ParameterSchema, taken: ParameterArguments, required: boolean }> {
  const queryRequired = new Set(endpoint.querystring.required ?? [])
  return [
    ...Object.entries(endpoint.params.properties).map(([name, parameter]) => ({ name, context: 'path' as const, parameter: parameter as ParameterSchema, taken: argumentsOf(PATH_ARGUMENTS, name, endpoint), required: true })),
    ...Object.entries(endpoint.querystring.properties).map(([name, parameter]) => ({ name, context: 'query' as const, parameter: parameter as ParameterSchema, taken: argumentsOf(QUERY_ARGUMENTS, name, endpoint), required: queryRequired.has(name) }))
  ]
}

/** An object of arguments (a tool's input, an item of a list): closed (no property but these), its required ones declared. */
export function closedObject (properties: Record<string, TSchema>, required: readonly string[], annotations: Partial<Annotations> = {}): TObject {
  const optional = Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, required.includes(name) ? schema : Type.Optional(schema)]))
  return Type.Object(optional, { ...annotations, additionalProperties: false })
}

/**
 * The input schema of a tool that asks an endpoint: the arguments of its path parameters and its
 * query parameters (the required ones required), plus the tool's own `extra` ones.
 */
export function endpointToolInput (endpoint: Endpoint, extra: Record<string, TSchema> = {}, extraRequired: readonly string[] = []): TObject {
  const properties: Record<string, TSchema> = {}
  const required: string[] = []
  for (const { name, parameter, taken, required: isRequired } of parametersOf(endpoint)) {
    Object.assign(properties, taken.properties(name, parameter))
    if (isRequired) required.push(name)
  }
  return closedObject({ ...properties, ...extra }, [...required, ...extraRequired])
}

/** The path and query parameter values of an endpoint, as its routes would have them. */
export interface EndpointValues {
  params: ParameterValues
  query: ParameterValues
}

/**
 * The endpoint's parameter values from a tool's arguments (checked by their kinds, with messages
 * that name the argument), then checked by the endpoint's own schemas as its routes check them.
 * That second check finds nothing in what the kinds let through; were it to, its message is the endpoint's.
 */
export function readEndpointValues (endpoint: Endpoint, args: ToolArguments): EndpointValues {
  const values: { path: Record<string, string>, query: Record<string, string> } = { path: {}, query: {} }
  for (const { name, context, taken, required } of parametersOf(endpoint)) {
    const text = taken.read(args, name)
    if (text !== undefined) values[context][name] = text
    else if (required) throw missingArgument(name)
  }
  checkedByEndpoint(endpoint.params, values.path, 'path')
  checkedByEndpoint(endpoint.querystring, values.query, 'query')
  return { params: values.path, query: values.query }
}

/** The routes' own check of parameter values (src/http/schemas/compilers.ts): its first error, in its words. */
function checkedByEndpoint (schema: TObject, values: Record<string, string>, context: 'path' | 'query'): void {
  const first = firstError(schema, values)
  if (first === undefined) return
  const name = first.instancePath.split('/')[1] ?? ''
  throw new ApiError(400, missingProblem(context, first) ?? grammarProblem(context, name, values[name], schema, first.message))
}
