import type { FastifyInstance, FastifySchemaCompiler } from 'fastify'
import { ENDPOINTS, answerOfBody, type EndpointAnswers, type Endpoint, type ParameterValues } from '../endpoints.ts'
import { errorDescriptions } from '../error-descriptions.ts'
import { joinedPayload, preparedAnswer, sendPrepared } from '../answers/prepared-body.ts'
import { JSON_CACHE_CONTROL } from '../response-headers.ts'
import { errorResponses } from '../schemas/openapi-responses.ts'

export interface ApiRoutesOptions {
  answers: EndpointAnswers
  /** The table, unless a test gives its own. */
  endpoints?: readonly Endpoint[] | undefined
}

/** A route's validator that lets the value through: its handler checks it. */
const acceptAsParsed: FastifySchemaCompiler<unknown> = () => (value: unknown) => ({ value })

/**
 * Every endpoint of the table (src/http/endpoints.ts) as a Fastify route: the schemas check the
 * grammar (400) and document the operation; the table's answer does the rest. Most successful
 * answers never come here: the fast path (src/http/server/fast-path.ts) answers them from the same table.
 */
export async function apiRoutes (app: FastifyInstance, { answers, endpoints = ENDPOINTS }: ApiRoutesOptions): Promise<void> {
  const descriptions = errorDescriptions(endpoints)
  for (const endpoint of endpoints) {
    const hasParams = Object.keys(endpoint.params.properties).length > 0
    const hasQuery = Object.keys(endpoint.querystring.properties).length > 0
    const schema = {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      description: endpoint.description,
      tags: [...endpoint.tags],
      ...(hasParams ? { params: endpoint.params } : {}),
      ...(hasQuery ? { querystring: endpoint.querystring } : {}),
      ...(endpoint.body === undefined ? {} : { body: endpoint.body.schema }),
      response: { 200: endpoint.response, ...errorResponses(descriptions, endpoint.errors) }
    }
    if (endpoint.method === 'POST') {
      // The body is checked once, by the endpoint's own check against its schema, which stops at the
      // first error and names it (which field, what was wrong); the schema stays for the document.
      app.post(endpoint.path, { schema, bodyLimit: endpoint.body?.limit, validatorCompiler: acceptAsParsed }, (request, reply) => {
        const body = answerOfBody(endpoint, answers, request.body)
        // A POST's answer is not a representation to revalidate: no 304, whatever If-None-Match says.
        const answer = preparedAnswer(body, undefined, request.headers['accept-encoding'])
        reply.code(200).headers(answer.headers).header('cache-control', body.cacheControl ?? JSON_CACHE_CONTROL).send(joinedPayload(answer.payload))
      })
      continue
    }
    app.get(endpoint.path, { schema }, (request, reply) => {
      // Returns nothing: a returned reply is a thenable that Fastify awaits with an end-of-stream
      // listener on every response.
      const body = endpoint.answer(answers, request.params as ParameterValues, request.query as ParameterValues, undefined)
      sendPrepared(request, reply.header('cache-control', body.cacheControl ?? JSON_CACHE_CONTROL), body)
    })
  }
}
