/*
 * The SDK answers some malformed requests (an `initialize` whose `protocolVersion` is a number)
 * with -32603, an internal error, whose message is its schema library's list of issues as indented
 * JSON: the client's mistake called the server's, in a dump. Such an answer is the protocol's
 * -32602 (invalid params) here, its message one short line naming the first issue's field.
 */

/** JSON-RPC's invalid params. */
const INVALID_PARAMS = -32602
const INTERNAL_ERROR = -32603
/** An answer longer than this is no such dump (a dump of one issue is a few hundred bytes). */
const MAX_DUMP_ANSWER_BYTES = 64 * 1024
/** Longest field path and issue message written back. */
const MAX_PART_LENGTH = 120

interface ErrorAnswer {
  jsonrpc: string
  id: unknown
  error: { code: number, message: string }
}

/** One issue of a dump: where, and what. */
interface Issue {
  path: unknown[]
  message: string
}

/**
 * The SDK's answer with such a dump said as -32602 in one line, or undefined for every other answer.
 * @example protocolError(Buffer.from('{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"[{\\"path\\":[\\"params\\",\\"protocolVersion\\"],\\"message\\":\\"Invalid input: expected string, received number\\"}]"}}'))
 *   gives '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: params.protocolVersion: Invalid input: expected string, received number"}}'
 */
export function protocolError (answer: Buffer): Buffer | undefined {
  if (answer.length > MAX_DUMP_ANSWER_BYTES || !answer.includes(`"code":${INTERNAL_ERROR}`)) return undefined
  const parsed = parsedJson(answer.toString('utf8'))
  if (!isErrorAnswer(parsed) || parsed.error.code !== INTERNAL_ERROR) return undefined
  const issues = parsedJson(parsed.error.message)
  if (!Array.isArray(issues) || !isIssue(issues[0])) return undefined
  const { path, message } = issues[0]
  const field = cut(path.map(String).join('.'))
  const said = { jsonrpc: parsed.jsonrpc, id: parsed.id, error: { code: INVALID_PARAMS, message: `Invalid params: ${field === '' ? '' : `${field}: `}${cut(message)}` } }
  return Buffer.from(JSON.stringify(said))
}

function cut (text: string): string {
  return text.length > MAX_PART_LENGTH ? `${text.slice(0, MAX_PART_LENGTH)}…` : text
}

function parsedJson (text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isErrorAnswer (value: unknown): value is ErrorAnswer {
  if (typeof value !== 'object' || value === null) return false
  const error = (value as { error?: unknown }).error
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'number' && typeof (error as { message?: unknown }).message === 'string'
}

function isIssue (value: unknown): value is Issue {
  return typeof value === 'object' && value !== null && Array.isArray((value as { path?: unknown }).path) && typeof (value as { message?: unknown }).message === 'string'
}
