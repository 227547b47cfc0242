import type { IncomingHttpHeaders } from 'node:http'
import { classifyInboundRequest, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server'
import type { FastifyBaseLogger } from 'fastify'
import { LRUCache } from 'lru-cache'
import type { Question } from '../data/record-schemas.ts'
import { ownedConcat, ownedText } from '../data/dataset/owned-bytes.ts'
import { deflatePart, deflatePartFollowedBy, LARGE_PART_LEVEL, pushListed, storedPart, type DeflatedPart } from '../http/answers/deflated-parts.ts'
import { COMMA, COMMA_PART, PreparedBody } from '../http/answers/prepared-body.ts'
import { RecentKeys } from '../http/answers/recent-keys.ts'
import type { EndpointAnswers } from '../http/endpoints.ts'
import type { ToolArguments } from './argument-kinds.ts'
import { callTool, SERVER_INFO } from './mcp-server.ts'
import { NO_QUESTIONS, QUESTION_SEPARATOR, questionText, type Labels } from './question-text.ts'
import { callToolResult, figuredQuestions, type ToolAnswer } from './tool-answer.ts'
import { carriedFigures, figureContent, figuresOf, type CallFigures } from './question-figures.ts'
import type { ServedFiles } from '../http/answers/served-files.ts'
import { withoutKey } from './tool-output.ts'
import { labels, TOOLS, type Tool } from './tools.ts'

/*
 * The answers of POST /mcp to a `tools/call`, written from prepared bytes as the endpoints' are:
 * each question's JSON (its key withheld unless asked) and its text for people are made once and
 * kept with their deflated forms, a call's result is those parts one after another, and a result
 * asked again is kept whole. The SDK would build a server per request, run the tool, parse
 * and re-serialize the whole result and send it uncompressed: 20–50 times the REST answer of the
 * same questions (issue 45). Here a call costs the tool's own work and a copy.
 *
 * Only the calls whose answer the SDK would give as a plain 200 JSON result are answered here: a
 * well-formed JSON-RPC request for a tool of the table, with an arguments object, in either
 * protocol era with exactly the headers that era requires. Anything else (another method, odd
 * headers, a missing `arguments`, a `_meta` beyond the 2026 envelope) is the SDK's to answer, or to
 * refuse. The bytes are the SDK's own: the same result object serialized as the SDK serializes it
 * (test/mcp/prepared-results.test.ts sends the same calls both ways and compares every byte).
 */

/** The one modern revision served (the SDK's SUPPORTED_MODERN_PROTOCOL_VERSIONS, which it does not export). */
const MODERN_REVISION = '2026-07-28'
/** The 2026 envelope's keys a prepared call may carry in `params._meta`; any other is the SDK's. */
const ENVELOPE_KEYS = new Set(['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientInfo', 'io.modelcontextprotocol/clientCapabilities'])
/** The longest string id answered here; a longer one is the SDK's to echo. */
const MAX_STRING_ID_LENGTH = 256

/**
 * Per-question parts kept, for each of the two ways a question is written (with and without its
 * key): JSON and text, counted with their deflated forms. Enough for every record of every exam
 * (about 4 KB each with both deflated: 19 MB for the 4,500 records of 23 exams): making a
 * question's parts again costs 35 µs, deflating them 200 µs, and a draw of 50 from every exam
 * touches records no other call has.
 */
const QUESTION_PARTS_BYTES = 32 * 1024 * 1024
/** A part's deflated form, as a share of its bytes (what the cache counts it for before it is made). */
const DEFLATED_SHARE = 0.5
/** Questions whose parts the background preparation makes per turn of the event loop (about 35 µs each). */
const BACKGROUND_SLICE = 20
/** Whole results of calls asked twice (a search repeated, a question asked again). */
const RESULT_CACHE_BYTES = 16 * 1024 * 1024
/** What an entry costs beyond its bytes (key, object, LRU slot). */
const ENTRY_OVERHEAD_BYTES = 256
/** Ids whose closing bytes are kept (most clients count from 1, or send one id throughout). */
const ID_CLOSES_KEPT = 1024
/** Classifications kept, counted by their keys' length: a client sends the same headers and envelope with every call. */
const ERA_KEYS_LENGTH = 256 * 1024

type Era = 'legacy' | 'modern'

/** What the JSON-RPC answer holds around a result: `{"result":` before, the id after, and the modern era's own members at the result's end. */
const RESULT_OPEN = Buffer.from('{"result":')
const RESULT_CLOSE: Readonly<Record<Era, Buffer>> = {
  legacy: Buffer.from('}'),
  modern: Buffer.from(`,"resultType":"complete","_meta":${JSON.stringify({ 'io.modelcontextprotocol/serverInfo': SERVER_INFO })}}`)
}
const RESULT_OPEN_PART = storedPart(RESULT_OPEN)
const RESULT_CLOSE_PART: Readonly<Record<Era, DeflatedPart>> = { legacy: storedPart(RESULT_CLOSE.legacy), modern: storedPart(RESULT_CLOSE.modern) }
/** The bytes of a text result up to its text, and between its text and its structured content. */
const TEXT_OPEN = Buffer.from('{"content":[{"type":"text","text":"')
const TEXT_CLOSE = Buffer.from('"}],"structuredContent":')
/** Between a text block and the next block; after the last block. */
const BLOCK_NEXT = Buffer.from('"},')
const CONTENT_CLOSE = Buffer.from('],"structuredContent":')
const LIST_CLOSE = Buffer.from(']}')
const SEPARATOR = ownedText(jsonStringContent(QUESTION_SEPARATOR))
const NONE = ownedText(jsonStringContent(NO_QUESTIONS))
const TEXT_OPEN_PART = storedPart(TEXT_OPEN)
const TEXT_CLOSE_PART = storedPart(TEXT_CLOSE)
const BLOCK_NEXT_PART = storedPart(BLOCK_NEXT)
const CONTENT_CLOSE_PART = storedPart(CONTENT_CLOSE)
/** Image blocks kept as bytes (base64 and all): a figure asked again costs a copy, as /files's answer does. */
const FIGURE_BLOCK_BYTES = 16 * 1024 * 1024
const LIST_CLOSE_PART = storedPart(LIST_CLOSE)
const SEPARATOR_PART = storedPart(SEPARATOR)
const NONE_PART = storedPart(NONE)
/** The tag of an MCP answer's body: never sent (an answer to a POST is not revalidated), but a body of parts must have one. */
export const UNSENT_ETAG = '"mcp"'

/** What JSON.stringify writes between the quotes of a string. */
function jsonStringContent (text: string): string {
  return JSON.stringify(text).slice(1, -1)
}

/**
 * Bytes and, made on first use and kept, their deflated form; with a separator, also that form
 * followed by it, in the same buffer (a list writes one buffer per item, not two: deflatePartFollowedBy).
 */
class Part {
  #deflated: DeflatedPart | undefined
  #followed: DeflatedPart | undefined
  constructor (readonly raw: Buffer, readonly separator?: DeflatedPart) {}
  get deflated (): DeflatedPart {
    this.makeDeflated()
    return this.#deflated!
  }

  /** The deflated form followed by the separator (a part made without one has none). */
  get followed (): DeflatedPart {
    this.makeDeflated()
    if (this.#followed === undefined) throw new Error('a part made without a separator has no followed form')
    return this.#followed
  }

  get deflatedMade (): boolean {
    return this.#deflated !== undefined
  }

  /** Makes the deflated form now, if it is not made. */
  makeDeflated (): void {
    if (this.#deflated !== undefined) return
    if (this.separator === undefined) {
      this.#deflated = deflatePart(this.raw)
      return
    }
    const { part, followed } = deflatePartFollowedBy(this.raw, this.separator)
    this.#deflated = part
    this.#followed = followed
  }
}

/** A question's parts as a tool writes it: its JSON (the key withheld unless revealed) and its text (the JSON string's content). */
class QuestionParts {
  constructor (readonly json: Part, readonly text: Part) {}
  get bytes (): number {
    return this.json.raw.length + this.text.raw.length
  }

  get deflatedMade (): boolean {
    return this.json.deflatedMade && this.text.deflatedMade
  }

  /** Makes both deflated forms now. */
  deflate (): void {
    this.json.makeDeflated()
    this.text.makeDeflated()
  }
}

/** A result's bytes in parts, without its closing brace (the era adds its own members there). */
interface ResultParts {
  readonly raw: readonly Buffer[]
  readonly deflated: () => DeflatedPart[]
}

/** A tools/call this path answers: the tool, its arguments, and what the answer must echo. */
interface PreparedCall {
  readonly era: Era
  readonly id: string | number
  readonly tool: Tool
  readonly args: ToolArguments
}

/**
 * A call begun (PreparedResults.begin): the tool has run, or its result was kept whole; what is
 * left is writing its bytes (finish), after its questions' parts are made (pieces).
 */
export interface BegunCall {
  readonly call: PreparedCall
  /** The key its result is kept under. */
  readonly key: string
  /** Its result kept whole, when the same call came before. */
  readonly kept: Part | undefined
  /** The tool's answer, when its result is not kept. */
  readonly answer: ToolAnswer | undefined
  /** The figures it carries, once read (withFigures). */
  readonly figures?: CallFigures | undefined
}

export interface PreparedResultsOptions {
  answers: EndpointAnswers
  /** The dataset's files, whose figures the tools carry as images (none without it: a test's server). */
  files?: ServedFiles | undefined
  log: FastifyBaseLogger
  tools?: readonly Tool[]
}

export class PreparedResults {
  readonly #answers: EndpointAnswers
  readonly #files: ServedFiles | undefined
  /** Each figure's image block, by file: its JSON bytes with a stored deflated form (its base64 of a compressed image deflates little). */
  readonly #figureBlocks = new LRUCache<string, { raw: Buffer, part: DeflatedPart }>({
    maxSize: FIGURE_BLOCK_BYTES,
    sizeCalculation: (block, key) => block.raw.length * 2 + key.length + ENTRY_OVERHEAD_BYTES
  })

  readonly #log: FastifyBaseLogger
  readonly #tools: ReadonlyMap<string, Tool>
  readonly #questions: Record<'key' | 'noKey', LRUCache<Question, QuestionParts>>
  readonly #results = new LRUCache<string, Part>({
    maxSize: RESULT_CACHE_BYTES,
    sizeCalculation: (part, key) => part.raw.length * 2 + key.length + ENTRY_OVERHEAD_BYTES
  })

  /** Calls asked lately: a result is kept from its second call on (most searches come once). */
  readonly #repeats = new RecentKeys()
  /** The bytes after a result, per id: `,"jsonrpc":"2.0","id":…}` and its stored part. */
  readonly #idCloses = new LRUCache<string | number, { raw: Buffer, part: DeflatedPart }>({ max: ID_CLOSES_KEPT })
  /**
   * eraOf's verdicts by what it reads (below): the SDK's classification parses the message three
   * times with zod, a tenth of a prepared call's cost, and gives the same verdict for every call
   * a client makes with the same headers and envelope.
   */
  readonly #eras = new LRUCache<string, Era | 'none'>({ maxSize: ERA_KEYS_LENGTH, sizeCalculation: (_era, key) => key.length + ENTRY_OVERHEAD_BYTES })

  constructor ({ answers, files, log, tools = TOOLS }: PreparedResultsOptions) {
    this.#answers = answers
    this.#files = files
    this.#log = log
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]))
    const parts = () => new LRUCache<Question, QuestionParts>({ maxSize: QUESTION_PARTS_BYTES, sizeCalculation: (entry) => Math.ceil(entry.bytes * (1 + DEFLATED_SHARE)) + ENTRY_OVERHEAD_BYTES })
    this.#questions = { key: parts(), noKey: parts() }
  }

  /** Set by stopBackground: the background preparation stops at its next slice. */
  #stopped = false

  /**
   * Makes every question's JSON and text without its key (what a call writes unless it reveals),
   * a slice at a time between other work, once the server listens: as REST's record bytes are made
   * once (src/http/answers/prepared-catalog.ts), so that an unseeded draw among every exam, each a
   * mix of records no call has touched, costs a copy and not 50 records made (issue 60: 4.9× REST
   * on a fresh server). About 3 KB each, 20 MB for every exam, within QUESTION_PARTS_BYTES.
   */
  async prepareInBackground (questions: readonly Question[]): Promise<void> {
    const labelled = labels(this.#answers)
    for (let from = 0; from < questions.length && !this.#stopped; from += BACKGROUND_SLICE) {
      for (const question of questions.slice(from, from + BACKGROUND_SLICE)) this.#questionParts(question, false, labelled)
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  stopBackground (): void {
    this.#stopped = true
  }

  /**
   * The JSON-RPC answer (status 200, `application/json`) the SDK would give this request (once its
   * figures are read, when it carries some), or undefined when the request is not a plain tools/call of one of the tools (the SDK answers it).
   */
  answer (headers: IncomingHttpHeaders, message: unknown): PreparedBody | Promise<PreparedBody> | undefined {
    const begun = this.begin(headers, message)
    if (begun === undefined) return undefined
    const reading = this.withFigures(begun)
    return reading === undefined ? this.finish(begun) : reading.then((read) => this.finish(read))
  }

  /**
   * The first step of `answer`: the call, and the tool's own work (a search, a draw), or its result
   * kept whole; undefined when the request is not a plain tools/call of one of the tools.
   */
  begin (headers: IncomingHttpHeaders, message: unknown): BegunCall | undefined {
    const call = this.#preparedCall(headers, message)
    if (call === undefined) return undefined
    const key = `${call.tool.name}|${JSON.stringify(call.args)}`
    const kept = this.#results.get(key)
    return { call, key, kept, answer: kept === undefined ? callTool(call.tool, call.args, this.#answers, this.#log) : undefined }
  }

  /**
   * The begun call with its figures read (through the files' shared cache), or undefined when it
   * carries none: reading a file is the one step of a call that waits.
   */
  withFigures (begun: BegunCall): Promise<BegunCall> | undefined {
    const files = this.#files
    const questions = begun.answer === undefined || files === undefined ? [] : figuredQuestions(begun.answer)
    if (questions.length === 0) return undefined
    return carriedFigures(figuresOf(questions, files!), files!).then((figures) => ({ ...begun, figures }))
  }

  /**
   * The parts of the begun call's questions not made yet, one piece of work per question: its JSON
   * and text and, when `deflated`, their deflated forms. A question's parts cost 35 µs to make and
   * 200 µs to deflate, so a draw of 50 questions no call has touched is milliseconds in one piece;
   * run each in its own turn (FairTurns), then `finish` writes the answer from what they made.
   * Doing them or not changes no byte of the answer, only when the work is done.
   */
  pieces ({ answer }: BegunCall, deflated: boolean): Array<() => void> {
    if (answer === undefined || (answer.kind !== 'question' && answer.kind !== 'list')) return []
    const questions = answer.kind === 'question' ? [answer.question] : answer.listing.items
    const cache = this.#questions[answer.reveal ? 'key' : 'noKey']
    const pieces: Array<() => void> = []
    for (const question of questions) {
      const parts = cache.peek(question)
      if (parts !== undefined && (!deflated || parts.deflatedMade)) continue
      pieces.push(() => {
        const made = this.#questionParts(question, answer.reveal, labels(this.#answers))
        if (deflated) made.deflate()
      })
    }
    return pieces
  }

  /** The last step of `answer`: the begun call's JSON-RPC answer, written from its questions' parts (made here if no piece made them). */
  finish ({ call, key, kept, answer, figures }: BegunCall): PreparedBody {
    const result = kept === undefined ? this.#resultOf(key, answer!, figures) : { raw: [kept.raw], deflated: () => [kept.deflated] }
    const close = RESULT_CLOSE[call.era]
    const idClose = this.#idClose(call.id)
    return new PreparedBody([RESULT_OPEN, ...result.raw, close, idClose.raw], {
      etag: UNSENT_ETAG,
      effort: 'parts',
      gzipParts: () => [RESULT_OPEN_PART, ...result.deflated(), RESULT_CLOSE_PART[call.era], idClose.part]
    })
  }

  /** What follows a result for this id, made once while the id is used. */
  #idClose (id: string | number): { raw: Buffer, part: DeflatedPart } {
    let close = this.#idCloses.get(id)
    if (close === undefined) {
      const raw = ownedText(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`)
      close = { raw, part: storedPart(raw) }
      this.#idCloses.set(id, close)
    }
    return close
  }

  /** A call's result parts: kept whole when the same call comes again and its answer never changes (and carries no figure: those are kept as blocks). */
  #resultOf (key: string, answer: ToolAnswer, figures: CallFigures | undefined): ResultParts {
    const parts = this.#resultParts(answer, labels(this.#answers), figures)
    if (!answer.reusable || figures !== undefined || !this.#repeats.seenBefore(key)) return parts
    const whole = new Part(ownedConcat(parts.raw))
    this.#results.set(key, whole)
    return { raw: [whole.raw], deflated: () => [whole.deflated] }
  }

  /** An answer's result as bytes, without its closing brace: what JSON.stringify writes of callToolResult's object. */
  #resultParts (answer: ToolAnswer, labels: Labels, figures: CallFigures | undefined): ResultParts {
    switch (answer.kind) {
      case 'refusal':
      case 'data': {
        // The SDK writes a result's members in its schema's order: content, structuredContent, isError.
        const { content, structuredContent, isError } = callToolResult(answer, labels)
        const text = JSON.stringify({ content, structuredContent, isError })
        const raw = ownedText(text.slice(0, -1))
        let deflated: DeflatedPart | undefined
        return { raw: [raw], deflated: () => [(deflated ??= deflatePart(raw, LARGE_PART_LEVEL))] }
      }
      case 'question': {
        const parts = this.#questionParts(answer.question, answer.reveal, labels)
        const after = this.#afterText(figures)
        return {
          raw: [TEXT_OPEN, parts.text.raw, ...after.raw, parts.json.raw],
          deflated: () => [TEXT_OPEN_PART, parts.text.deflated, ...after.deflated, parts.json.deflated]
        }
      }
      case 'list': {
        const { listing: { head, items }, heading, reveal } = answer
        const headingBytes = ownedText(jsonStringContent(heading))
        const headBytes = ownedText(head)
        const parts = items.map((question) => this.#questionParts(question, reveal, labels))
        const after = this.#afterText(figures)
        const raw: Buffer[] = [TEXT_OPEN, headingBytes]
        if (parts.length === 0) raw.push(NONE)
        for (const part of parts) raw.push(SEPARATOR, part.text.raw)
        raw.push(...after.raw, headBytes)
        for (let at = 0; at < parts.length; at++) {
          if (at > 0) raw.push(COMMA)
          raw.push(parts[at]!.json.raw)
        }
        raw.push(LIST_CLOSE)
        const deflated = (): DeflatedPart[] => {
          const list = [TEXT_OPEN_PART, storedPart(headingBytes)]
          if (parts.length === 0) list.push(NONE_PART)
          // A separator before each text is one before the first and one after each but the last.
          if (parts.length > 0) list.push(SEPARATOR_PART)
          pushListed(list, parts, (part) => part.text.followed, (part) => part.text.deflated)
          list.push(...after.deflated, storedPart(headBytes))
          pushListed(list, parts, (part) => part.json.followed, (part) => part.json.deflated)
          list.push(LIST_CLOSE_PART)
          return list
        }
        return { raw, deflated }
      }
    }
  }

  /**
   * What follows a result's text up to its structured content: the end of the content list, or,
   * with figures, their index and their image blocks first (figureContent's blocks, as JSON).
   */
  #afterText (figures: CallFigures | undefined): { raw: Buffer[], deflated: DeflatedPart[] } {
    const blocks = figureContent(figures)
    if (blocks.length === 0) return { raw: [TEXT_CLOSE], deflated: [TEXT_CLOSE_PART] }
    const index = ownedText(JSON.stringify(blocks[0]))
    const raw = [BLOCK_NEXT, index]
    const deflated = [BLOCK_NEXT_PART, storedPart(index)]
    for (const { figure, body } of figures!.carried) {
      const block = this.#figureBlock(figure.relative!, body)
      raw.push(COMMA, block.raw)
      deflated.push(COMMA_PART, block.part)
    }
    raw.push(CONTENT_CLOSE)
    deflated.push(CONTENT_CLOSE_PART)
    return { raw, deflated }
  }

  /** A figure's image block as JSON (what JSON.stringify writes of figureContent's), made once per file while kept. */
  #figureBlock (relative: string, body: PreparedBody): { raw: Buffer, part: DeflatedPart } {
    let block = this.#figureBlocks.get(relative)
    if (block === undefined) {
      const raw = ownedText(JSON.stringify({ type: 'image', data: body.raw.toString('base64'), mimeType: body.contentType }))
      block = { raw, part: storedPart(raw) }
      this.#figureBlocks.set(relative, block)
    }
    return block
  }

  /** A question's JSON and text as a tool writes them (the key only when revealed), made once and kept. */
  #questionParts (question: Question, reveal: boolean, labels: Labels): QuestionParts {
    const cache = this.#questions[reveal ? 'key' : 'noKey']
    let parts = cache.get(question)
    if (parts === undefined) {
      parts = new QuestionParts(
        new Part(ownedText(JSON.stringify(reveal ? question : withoutKey(question))), COMMA_PART),
        new Part(ownedText(jsonStringContent(questionText(question, labels, reveal))), SEPARATOR_PART)
      )
      cache.set(question, parts)
    }
    return parts
  }

  /** The call when the SDK would answer it with a plain JSON result; undefined otherwise. */
  #preparedCall (headers: IncomingHttpHeaders, message: unknown): PreparedCall | undefined {
    if (!isPlainObject(message) || message.jsonrpc !== '2.0' || message.method !== 'tools/call') return undefined
    for (const name in message) if (name !== 'jsonrpc' && name !== 'id' && name !== 'method' && name !== 'params') return undefined
    const { id, params } = message
    if (!(typeof id === 'string' ? id.length <= MAX_STRING_ID_LENGTH : Number.isSafeInteger(id))) return undefined
    if (!isPlainObject(params) || typeof params.name !== 'string' || !isPlainObject(params.arguments)) return undefined
    for (const name in params) if (name !== 'name' && name !== 'arguments' && name !== '_meta') return undefined
    const tool = this.#tools.get(params.name)
    if (tool === undefined) return undefined
    const era = this.#eraOf(headers, message, params)
    return era === undefined ? undefined : { era, id: id as string | number, tool, args: params.arguments }
  }

  /**
   * eraOf's verdict, kept by all it depends on once #preparedCall has checked the message's shape:
   * the headers it reads, the tool's name, the id's type and the envelope. The arguments are a
   * plain object, which the SDK's JSON-RPC schemas take whatever it holds.
   */
  #eraOf (headers: IncomingHttpHeaders, message: Record<string, unknown>, params: Record<string, unknown>): Era | undefined {
    const { accept, 'mcp-protocol-version': version, 'mcp-method': method, 'mcp-name': name } = headers
    const key = JSON.stringify([accept, version, method, name, params.name, typeof message.id, params._meta])
    let era = this.#eras.get(key)
    if (era === undefined) {
      era = eraOf(headers, message, params) ?? 'none'
      this.#eras.set(key, era)
    }
    return era === 'none' ? undefined : era
  }
}

/**
 * The era whose plain answer the SDK gives this tools/call, or undefined when it would refuse it or
 * answer otherwise: classified by the SDK's own classifyInboundRequest, then held to the headers
 * each era's transport requires, spelled exactly (an odd spelling is the SDK's to judge).
 */
function eraOf (headers: IncomingHttpHeaders, message: Record<string, unknown>, params: Record<string, unknown>): Era | undefined {
  const { accept, 'mcp-protocol-version': version, 'mcp-method': method, 'mcp-name': name } = headers
  // Both transports answer JSON only to a client that accepts it and event streams (else 406).
  if (typeof accept !== 'string' || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined
  if (Array.isArray(version) || Array.isArray(method) || Array.isArray(name)) return undefined
  const route = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: version, mcpMethodHeader: method, mcpNameHeader: name, body: message })
  if (route.kind === 'legacy') {
    if (route.reason !== 'no-claim' || params._meta !== undefined || method !== undefined || name !== undefined) return undefined
    return version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version) ? 'legacy' : undefined
  }
  if (route.kind !== 'modern' || route.classification.revision !== MODERN_REVISION) return undefined
  if (version !== MODERN_REVISION || method !== 'tools/call' || name === undefined || name !== params.name || name.startsWith('=?')) return undefined
  const meta = params._meta
  if (!isPlainObject(meta)) return undefined
  for (const key in meta) if (!ENVELOPE_KEYS.has(key)) return undefined
  return 'modern'
}

function isPlainObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
