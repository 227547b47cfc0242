import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import type { Validator } from 'typebox/compile'

/*
 * The first reason a value fails its schema, found at the cost of reaching it. TypeBox's Errors()
 * lists every error of the value (and of each branch of a union): on a refused body of ~1,900 bad
 * answers it cost a hundred questions' CPU, for a message that names one. Here an object is walked
 * field by field with each field's own compiled check, and only the failing leaf goes through
 * Errors(), whose messages stay TypeBox's.
 */

/** One failure, shaped as Fastify's validation errors are (Ajv's shape), the path as a JSON pointer. */
export interface FirstError {
  keyword: string
  instancePath: string
  schemaPath: string
  params: Record<string, unknown>
  message: string
}

interface ObjectSchemaParts {
  properties?: Record<string, TSchema>
  patternProperties?: Record<string, TSchema>
  required?: string[]
  additionalProperties?: boolean | TSchema
  minProperties?: number
  maxProperties?: number
  anyOf?: TSchema[]
}

const validators = new WeakMap<TSchema, Validator>()
const patterns = new WeakMap<Record<string, TSchema>, Array<[RegExp, TSchema]>>()

/** TypeBox's compiled check of a schema, compiled once per schema object. */
export function compiledValidator (schema: TSchema): Validator {
  let validator = validators.get(schema)
  if (validator === undefined) {
    validator = Compile(schema)
    validators.set(schema, validator)
  }
  return validator
}

/** The first error of `value` against `schema`, or undefined when it passes. */
export function firstError (schema: TSchema, value: unknown): FirstError | undefined {
  return errorOf(schema, value, '', '#')
}

/**
 * Keywords of an object schema that errorOf checks itself; an object schema with any other
 * validation keyword is checked whole after its fields. Annotations do not validate.
 */
const WALKED_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties', 'title', 'description', 'examples', '~kind'])
const walkedWhole = new WeakMap<TSchema, boolean>()

/** Whether errorOf's walk of an object's fields checks all that its schema asks. */
function walkCoversSchema (schema: TSchema): boolean {
  let covers = walkedWhole.get(schema)
  if (covers === undefined) {
    covers = Object.keys(schema).every((keyword) => WALKED_KEYWORDS.has(keyword))
    walkedWhole.set(schema, covers)
  }
  return covers
}

/**
 * The first error of a value, counts before contents: an object's own count (minProperties,
 * maxProperties) and required fields first, then its fields in the order they came, each by its
 * own schema; a map (patternProperties) is checked whole by its compiled check, its entries walked
 * only when that fails. A union passes when one branch does.
 */
function errorOf (schema: TSchema, value: unknown, instancePath: string, schemaPath: string): FirstError | undefined {
  const parts = schema as ObjectSchemaParts
  const error = (keyword: string, message: string, params: Record<string, unknown> = {}): FirstError => ({ keyword, instancePath, schemaPath: `${schemaPath}/${keyword}`, params, message })
  if (parts.anyOf !== undefined) {
    // Which branch was meant is the caller's to say (src/http/schemas/scores.ts's bodyProblem does):
    // listing every branch's errors is what cost most.
    for (const [at, branch] of parts.anyOf.entries()) {
      if (errorOf(branch, value, instancePath, `${schemaPath}/anyOf/${at}`) === undefined) return undefined
    }
    return error('anyOf', 'must match a schema in anyOf')
  }
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value)
  if (!isObject || (parts.properties === undefined && parts.patternProperties === undefined)) {
    return compiledValidator(schema).Check(value) ? undefined : leafError(schema, value, instancePath, schemaPath)
  }
  const fields = value as Record<string, unknown>
  const names = Object.keys(fields)
  if (parts.maxProperties !== undefined && names.length > parts.maxProperties) {
    return error('maxProperties', `must not have more than ${parts.maxProperties} properties`, { limit: parts.maxProperties })
  }
  if (parts.minProperties !== undefined && names.length < parts.minProperties) {
    return error('minProperties', `must have at least ${parts.minProperties} properties`, { limit: parts.minProperties })
  }
  for (const name of parts.required ?? []) {
    if (!Object.hasOwn(fields, name)) return error('required', `must have required property '${name}'`, { requiredProperties: [name] })
  }
  if (parts.properties === undefined) {
    return compiledValidator(schema).Check(value) ? undefined : entryError(parts, fields, names, instancePath, schemaPath)
  }
  for (const name of names) {
    const property = parts.properties[name]
    if (property !== undefined) {
      const found = errorOf(property, fields[name], pointer(instancePath, name), `${schemaPath}/properties/${name}`)
      if (found !== undefined) return found
    } else if (parts.patternProperties !== undefined || parts.additionalProperties !== false) {
      // Not a plain struct: its compiled check says the rest.
      return compiledValidator(schema).Check(value) ? undefined : entryError(parts, fields, names, instancePath, schemaPath)
    } else {
      return error('additionalProperties', 'must not have additional properties', { additionalProperties: [name] })
    }
  }
  return walkCoversSchema(schema) || compiledValidator(schema).Check(value) ? undefined : leafError(schema, value, instancePath, schemaPath)
}

/** The first entry of an object (known to fail) that its pattern or additional properties refuse; the object's own error if none does. */
function entryError (parts: ObjectSchemaParts, fields: Record<string, unknown>, names: string[], instancePath: string, schemaPath: string): FirstError {
  const patterned = parts.patternProperties === undefined ? [] : patternsOf(parts.patternProperties)
  for (const name of names) {
    if (parts.properties?.[name] !== undefined) continue
    let schema: TSchema | undefined
    let at = ''
    for (const [pattern, patternSchema] of patterned) {
      if (pattern.test(name)) {
        schema = patternSchema
        at = `${schemaPath}/patternProperties/${pattern.source}`
        break
      }
    }
    if (schema === undefined && parts.additionalProperties === false) {
      return { keyword: 'additionalProperties', instancePath, schemaPath: `${schemaPath}/additionalProperties`, params: { additionalProperties: [name] }, message: 'must not have additional properties' }
    }
    if (schema === undefined && typeof parts.additionalProperties === 'object') {
      schema = parts.additionalProperties
      at = `${schemaPath}/additionalProperties`
    }
    if (schema !== undefined && !compiledValidator(schema).Check(fields[name])) {
      return errorOf(schema, fields[name], pointer(instancePath, name), at) ?? leafError(schema, fields[name], pointer(instancePath, name), at)
    }
  }
  return leafError(parts as TSchema, fields, instancePath, schemaPath)
}

/** A JSON pointer one name further. */
function pointer (instancePath: string, name: string): string {
  return `${instancePath}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`
}

/**
 * TypeBox's own first error of a value against a schema without fields to walk. Its cost is the
 * value's only when the schema describes its insides (no schema of a request here has arrays).
 */
function leafError (schema: TSchema, value: unknown, instancePath: string, schemaPath: string): FirstError {
  const [first] = compiledValidator(schema).Errors(value)
  if (first === undefined) return { keyword: 'schema', instancePath, schemaPath, params: {}, message: 'must match the schema' }
  return {
    keyword: first.keyword,
    instancePath: `${instancePath}${first.instancePath}`,
    schemaPath: `${schemaPath}${first.schemaPath.slice(1)}`,
    params: first.params as Record<string, unknown>,
    message: first.message
  }
}

function patternsOf (patternProperties: Record<string, TSchema>): Array<[RegExp, TSchema]> {
  let compiled = patterns.get(patternProperties)
  if (compiled === undefined) {
    compiled = Object.entries(patternProperties).map(([source, schema]) => [new RegExp(source, 'u'), schema])
    patterns.set(patternProperties, compiled)
  }
  return compiled
}
