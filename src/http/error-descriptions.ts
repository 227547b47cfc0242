import { endpointUrl, type Endpoint } from './endpoints.ts'
import type { ErrorCode } from './error-codes.ts'
import { grammarOf, rangeOfParameter } from './schemas/parameters.ts'
import { SERVER_TIMEOUTS } from './http-server-options.ts'

/** Where a 429 sends a client that reads everything: bulk clients that page until refused turn 429s into holes in their data. */
export const BULK_READS = `To read every question, download ${endpointUrl('exportQuestions')} (one request) instead of paging.`

/**
 * What each error code means, for the reference page's "Errors" section and each operation's
 * error responses. The 400 and the 422 are written from the endpoint table: which parameters
 * follow which grammar (a break is 400), and what a value of its grammar must also be (else 422).
 */
export function errorDescriptions (endpoints: readonly Endpoint[]): Record<ErrorCode, string> {
  const posts = endpoints.filter((endpoint) => endpoint.method === 'POST')
  const postList = posts.map((endpoint) => `POST ${endpoint.path.replace(/^\/v1/, '')}`).join(', ')
  const bodyLimits = posts.map((endpoint) => `${Math.round((endpoint.body?.limit ?? 0) / 1024)} KiB`).join(', ')
  return {
    bad_request: `The request breaks the grammar: ${grammarList(endpoints)}; or a parameter is given twice, or the path is malformed.`,
    forbidden: 'A `POST /mcp` whose `Origin` or `Host` names neither this server\'s public address nor loopback (the Model Context Protocol\'s DNS-rebinding protection).',
    not_found: 'Valid values that name nothing: an unknown year, question index or path.',
    method_not_allowed: posts.length === 0 ? 'Only GET, HEAD and OPTIONS are served.' : `Only GET, HEAD and OPTIONS are served; ${postList} answer${posts.length === 1 ? 's' : ''} POST and OPTIONS only.`,
    payload_too_large: posts.length === 0 ? 'The API takes no request body.' : `The API takes no request body but ${postList}, whose JSON body is at most ${bodyLimits}.`,
    unsupported_media_type: posts.length === 0 ? 'The API takes no request body.' : `${postList} take${posts.length === 1 ? 's' : ''} a body of Content-Type application/json only, in UTF-8 (no other charset), uncompressed (no Content-Encoding).`,
    request_timeout: `The request, its headers or its body, did not arrive within ${SERVER_TIMEOUTS.requestMs / 1000} s; the connection is closed.`,
    uri_too_long: 'The request line is too long.',
    unprocessable_entity: `Well-formed, but out of range or naming nothing the service holds: ${rangeList(endpoints)}` +
      (posts.length === 0 ? '.' : `; for ${postList}, a body whose values parse but name nothing (see the operation).`),
    rate_limit_exceeded: 'Too many requests from this client in the current window; wait the number of seconds in Retry-After. To read every question, download the export (`/v1/export/questions.jsonl`, one request) instead of paging.',
    request_header_fields_too_large: 'The request headers are too large.',
    internal_server_error: 'The server met a situation it cannot handle. Nothing about it is shown in the body; it is logged.',
    service_unavailable: 'The server is starting or shutting down.'
  }
}

/** Every parameter of the table with the schema it has; a path parameter is written `{name}`. */
function parametersOf (endpoints: readonly Endpoint[]): Array<{ label: string, schema: unknown }> {
  return endpoints.flatMap((endpoint) => [
    ...Object.entries(endpoint.params.properties).map(([name, schema]) => ({ label: `\`{${name}}\``, schema })),
    ...Object.entries(endpoint.querystring.properties).map(([name, schema]) => ({ label: `\`${name}\``, schema }))
  ])
}

/** `words`: the labels of the parameters that have them, each label once, in the table's order. */
function grouped (endpoints: readonly Endpoint[], wordsOf: (schema: unknown) => string | undefined): Map<string, string[]> {
  const labelsByWords = new Map<string, string[]>()
  for (const { label, schema } of parametersOf(endpoints)) {
    const words = wordsOf(schema)
    if (words === undefined) continue
    const labels = labelsByWords.get(words) ?? []
    if (!labels.includes(label)) labels.push(label)
    labelsByWords.set(words, labels)
  }
  return labelsByWords
}

function grammarList (endpoints: readonly Endpoint[]): string {
  return [...grouped(endpoints, grammarOf)].map(([grammar, labels]) => `${labels.join(', ')} must be ${grammar}`).join('; ')
}

function rangeList (endpoints: readonly Endpoint[]): string {
  // The same parameter may mean something else on another endpoint (`language` of one exam, of any exam).
  const byLabel = new Map<string, string[]>()
  for (const [range, labels] of grouped(endpoints, rangeOfParameter)) {
    for (const label of labels) byLabel.set(label, [...(byLabel.get(label) ?? []), range])
  }
  return [...byLabel].map(([label, ranges]) => `${label} must be ${ranges.join(', or ')}`).join('; ')
}
