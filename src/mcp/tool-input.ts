import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server'
import type { TObject } from 'typebox'
import type { Endpoint, ParameterValues } from '../http/endpoints.ts'
import { ApiError, describeValue } from '../http/errors.ts'
import { firstError } from '../http/schemas/first-error.ts'
import { grammarProblem, missingProblem } from '../http/schemas/parameters.ts'
import { BOOLEAN_PATTERN } from '../http/schemas/finding-filters.ts'
import { INTEGER_PATTERN } from '../http/schemas/parameters.ts'

/*
 * What a tool takes, from the endpoint table's own schemas (src/http/endpoints.ts): its JSON
 * Schema for `tools/list`, and its arguments read back into the endpoint's parameter values,
 * checked by the endpoint's compiled schemas with the endpoint's 400 messages. An assistant sends
 * JSON, so a parameter whose grammar is a decimal integer (or true/false) is advertised as a JSON
 * integer (boolean), and either form is accepted.
 */

export type JsonSchema = Record<string, unknown>
export type ToolArguments = Readonly<Record<string, unknown>>

/** Keys of our parameter schemas that only the HTTP side reads (the 400/422 wording): not shown to assistants. */
const HTTP_ONLY_KEYWORD = /^x-/

/** The grammar sentence stringParameter appends to a description: said by the JSON type once the value is a JSON integer or boolean. */
const GRAMMAR_SENTENCE = / Grammar: [^]*$/

/** One parameter's schema as a tool shows it. */
function toolParameter (schema: JsonSchema): JsonSchema {
  const shown = Object.fromEntries(Object.entries(schema).filter(([key]) => !HTTP_ONLY_KEYWORD.test(key)))
  const examples = Array.isArray(schema.examples) ? schema.examples as string[] : []
  const description = typeof schema.description === 'string' ? schema.description.replace(GRAMMAR_SENTENCE, '') : undefined
  if (schema.pattern === INTEGER_PATTERN) return { type: 'integer', description, examples: examples.map(Number) }
  if (schema.pattern === BOOLEAN_PATTERN) return { type: 'boolean', description, examples: examples.map((example) => example === 'true') }
  return shown
}

/**
 * The input schema of a tool that asks an endpoint: the endpoint's path parameters (required) and
 * query parameters (optional), each from its own schema, plus the tool's own `extra` properties.
 */
export function endpointToolInput (endpoint: Endpoint, extra: Record<string, JsonSchema> = {}, extraRequired: readonly string[] = []): JsonSchema {
  const properties: Record<string, JsonSchema> = {}
  for (const [name, schema] of [...Object.entries(endpoint.params.properties), ...Object.entries(endpoint.querystring.properties)]) {
    properties[name] = toolParameter(schema as JsonSchema)
  }
  return {
    type: 'object',
    properties: { ...properties, ...extra },
    required: [...Object.keys(endpoint.params.properties), ...extraRequired]
  }
}

/** The path and query parameter values of an endpoint, as its routes would have them. */
export interface EndpointValues {
  params: ParameterValues
  query: ParameterValues
}

/** A JSON argument as the text a query string would carry (`2020` as `"2020"`, `true` as `"true"`); undefined for what has no such form (an object, an array). */
function asParameterText (value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

/** The values of `schema`'s parameters among the arguments, checked against it: the endpoint's 400 where one breaks its grammar. */
function readValues (schema: TObject, args: ToolArguments, context: 'path' | 'query'): ParameterValues {
  const values: Record<string, string> = {}
  for (const name of Object.keys(schema.properties)) {
    const value = args[name]
    if (value === undefined || value === null) {
      if (context === 'path') throw new ApiError(400, `${name} is required`)
      continue
    }
    const text = asParameterText(value)
    if (text === undefined) throw new ApiError(400, grammarProblem(context, name, value, schema))
    values[name] = text
  }
  // The routes' own check (src/http/schemas/compilers.ts): the same first error, so the same message.
  const first = firstError(schema, values)
  if (first !== undefined) {
    const missing = missingProblem(context, first)
    if (missing !== undefined) throw new ApiError(400, missing)
    const name = first.instancePath.split('/')[1] ?? ''
    throw new ApiError(400, grammarProblem(context, name, values[name], schema, first.message))
  }
  return values
}

/**
 * The endpoint's parameter values from a tool's arguments; throws the endpoint's ApiError 400 where
 * a value breaks its grammar. Arguments the endpoint does not take are left to the tool (or ignored,
 * as the endpoints ignore unknown query parameters).
 */
export function readEndpointValues (endpoint: Endpoint, args: ToolArguments): EndpointValues {
  return { params: readValues(endpoint.params, args, 'path'), query: readValues(endpoint.querystring, args, 'query') }
}

/** A boolean argument of the tool's own (not an endpoint's): absent is `fallback`. */
export function readBoolean (args: ToolArguments, name: string, fallback: boolean): boolean {
  const value = args[name]
  if (value === undefined || value === null) return fallback
  if (typeof value === 'boolean') return value
  if (value === 'true' || value === 'false') return value === 'true'
  throw new ApiError(400, `${name} must be true or false, got ${describeValue(value)}`)
}

/**
 * A tool's input schema in the form the SDK takes (a Standard Schema with its JSON Schema). Its
 * check lets every object through: the tool checks its own arguments with the endpoint's schemas,
 * so that a bad one gets the endpoint's own message (the SDK would prefix its own words to it).
 */
export function sdkInputSchema (schema: JsonSchema): StandardSchemaWithJSON<ToolArguments> {
  return {
    '~standard': {
      version: 1,
      vendor: 'enem-api',
      validate: (value) => typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as ToolArguments }
        : { issues: [{ message: `arguments must be a JSON object, got ${describeValue(value)}` }] },
      jsonSchema: { input: () => schema, output: () => schema }
    }
  }
}
