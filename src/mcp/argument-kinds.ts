import type { TSchema } from 'typebox'
import Type from 'typebox'
import { ApiError, describeValue } from '../http/errors.ts'

/*
 * The kinds of a tool argument, each typed for what it means (an integer, a number on a scale, a
 * choice, a list), never for how a query string would carry it: its JSON Schema as `tools/list`
 * shows it, and its reading, which checks everything the schema declares (type, bounds, choices)
 * and refuses the rest with a message naming the argument ("limit must be an integer from 1 to 50,
 * got 0"). What only the data can say (a year the service does not hold) the endpoint says.
 *
 * Agent frameworks rewrite these schemas (LangChain's adapters into Zod, the OpenAI Agents SDK into
 * strict mode), so a kind is one plain JSON type: no `anyOf`, no pattern-keyed maps, objects closed.
 */

/** A tool's arguments as they arrive: one JSON object. */
export type ToolArguments = Readonly<Record<string, unknown>>

/**
 * What a schema says to people (and models). No `examples`: the descriptions show the forms, and
 * strict modes take few keywords beyond the types.
 */
// A type, not an interface: TypeBox's options take it only with its implicit index signature.
export type Annotations = { description?: string }

/** The description of a TypeBox schema (its types do not carry the keyword). */
export function descriptionOf (schema: unknown): string {
  const description = (schema as { description?: unknown }).description
  return typeof description === 'string' ? description : ''
}

/** One kind of argument: its schema, and the value read from an argument (a bad one throws, naming it). */
export interface ArgumentKind<T> {
  readonly schema: (annotations: Annotations) => TSchema
  /** The value of argument `name`; throws ApiError 400 naming it when the value is not of this kind. */
  readonly read: (name: string, value: unknown) => T
}

/** The 400 of an argument whose value is not what its schema says. */
export function argumentError (name: string, expected: string, value: unknown): ApiError {
  return new ApiError(400, `${name} must be ${expected}, got ${describeValue(value)}`)
}

/** The 400 of a required argument left out. */
export function missingArgument (name: string): ApiError {
  return new ApiError(400, `${name} is required`)
}

/**
 * The value of argument `name`, or undefined when it is absent; `label` names it in a message (a
 * field of an item of a list: `answers[2].index`). `null` counts as absent: a model in OpenAI's
 * strict mode gives every argument, null for those it does not mean to set.
 */
export function readArgument<T> (args: ToolArguments, name: string, kind: ArgumentKind<T>, required = false, label = name): T | undefined {
  const value = args[name]
  if (value === undefined || value === null) {
    if (required) throw missingArgument(label)
    return undefined
  }
  return kind.read(label, value)
}

/**
 * The longest integer a query string's grammar takes (10 digits): an integer argument that stands
 * for a parameter is never larger, said in its message rather than by a bound in its schema.
 */
const LARGEST_INTEGER = 9_999_999_999

/** What an integer of these bounds is, in words: "an integer from 1 to 50", "an integer of at least 0". */
function integerWords (minimum: number | undefined, maximum: number | undefined): string {
  if (minimum !== undefined && maximum !== undefined) return `an integer from ${minimum} to ${maximum}`
  if (minimum !== undefined) return `an integer of at least ${minimum}`
  if (maximum !== undefined) return `an integer of at most ${maximum}`
  return 'an integer'
}

/** An integer, within bounds where it has them. */
export function integerKind (bounds: { minimum?: number, maximum?: number } = {}): ArgumentKind<number> {
  const { minimum, maximum } = bounds
  return {
    schema: (annotations) => Type.Integer({ ...bounds, ...annotations }),
    read: (name, value) => {
      const within = Number.isInteger(value) && Math.abs(value as number) <= LARGEST_INTEGER &&
        (minimum === undefined || (value as number) >= minimum) && (maximum === undefined || (value as number) <= maximum)
      if (!within) throw argumentError(name, integerWords(minimum, maximum ?? (Number.isInteger(value) ? LARGEST_INTEGER : undefined)), value)
      return value as number
    }
  }
}

/**
 * A number from `minimum` to `maximum` (a point of the score scale), read to 2 decimals: what the
 * scale's parameters take, and finer than any score INEP gives (one decimal).
 */
export function scaleNumberKind (minimum: number, maximum: number): ArgumentKind<number> {
  return {
    schema: (annotations) => Type.Number({ minimum, maximum, ...annotations }),
    read: (name, value) => {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < minimum || value > maximum) {
        throw argumentError(name, `a number from ${minimum} to ${maximum}`, value)
      }
      return Math.round(value * 100) / 100
    }
  }
}

export const booleanKind: ArgumentKind<boolean> = {
  schema: (annotations) => Type.Boolean(annotations),
  read: (name, value) => {
    if (typeof value !== 'boolean') throw argumentError(name, 'true or false', value)
    return value
  }
}

/** One of a few strings. */
export function choiceKind<const V extends string> (values: readonly V[]): ArgumentKind<V> {
  return {
    schema: (annotations) => Type.Enum(values, { type: 'string', ...annotations }),
    read: (name, value) => {
      if (!(values as readonly unknown[]).includes(value)) throw argumentError(name, `one of ${values.join(', ')}`, value)
      return value as V
    }
  }
}

/** A string of `minLength` to `maxLength` characters, matching `pattern` when there is one; `grammar` says all that in words. */
export function textKind (options: { minLength: number, maxLength?: number, pattern?: string, grammar: string }): ArgumentKind<string> {
  const { grammar, ...constraints } = options
  const pattern = options.pattern === undefined ? undefined : new RegExp(options.pattern, 'u')
  return {
    schema: (annotations) => Type.String({ ...constraints, ...annotations }),
    read: (name, value) => {
      if (typeof value !== 'string') throw argumentError(name, grammar, value)
      // Characters, as JSON Schema's lengths count them.
      const length = [...value].length
      if (length < options.minLength || (options.maxLength !== undefined && length > options.maxLength) || (pattern !== undefined && !pattern.test(value))) {
        throw argumentError(name, grammar, value)
      }
      return value
    }
  }
}

/** A list of one kind of item, at least one and at most `maxItems`; `items` says what an item is, for the message. */
export function listKind<T> (item: ArgumentKind<T>, options: { maxItems: number, items: string, itemSchema: Annotations }): ArgumentKind<T[]> {
  const expected = `an array of 1 to ${options.maxItems} ${options.items}`
  return {
    schema: (annotations) => Type.Array(item.schema(options.itemSchema), { minItems: 1, maxItems: options.maxItems, ...annotations }),
    read: (name, value) => {
      if (!Array.isArray(value) || value.length < 1 || value.length > options.maxItems) throw argumentError(name, expected, value)
      return value.map((entry, at) => item.read(`${name}[${at}]`, entry))
    }
  }
}
