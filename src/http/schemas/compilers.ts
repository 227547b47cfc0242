import type { FastifySchemaCompiler, FastifySchemaValidationError, FastifySerializerCompiler } from 'fastify'
import type { TSchema } from 'typebox'
import { compiledValidator, firstError } from './first-error.ts'

/*
 * How Fastify checks requests and writes objects, set for the whole app. The schemas are TypeBox's,
 * and the data layer already compiles records with TypeBox's compiler; using it for the routes too
 * spares start-up Fastify's default Ajv (its instance, meta-schemas and code generation, a large
 * part of start-up in a --cpu-prof profile).
 */

/**
 * Validates params, querystrings and bodies with TypeBox's compiled checks; a failure carries its
 * first error only, in Ajv's shape, for the error handler (which names one), found without listing
 * every error of the value (src/http/schemas/first-error.ts).
 */
export const typeBoxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema }) => {
  // Compiled now, at start-up, rather than on the first request.
  compiledValidator(schema)
  return (value: unknown) => {
    const error: FastifySchemaValidationError | undefined = firstError(schema, value)
    return error === undefined ? { value } : { error: [error] }
  }
}

/**
 * Objects Fastify serializes are error bodies and small documents, already in the shape their
 * schema describes; successful data answers are prepared bytes and never pass through here. The
 * response schemas stay for the OpenAPI document, without fast-json-stringify compiling each one.
 */
export const jsonSerializerCompiler: FastifySerializerCompiler<unknown> = () => (data: unknown) => JSON.stringify(data)
