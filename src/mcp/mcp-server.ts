import { McpServer, type McpServerFactory, type StandardSchemaWithJSON } from '@modelcontextprotocol/server'
import type { FastifyBaseLogger } from 'fastify'
import type { TObject } from 'typebox'
import type { EndpointAnswers } from '../http/endpoints.ts'
import { ApiError, describeValue, internalError } from '../http/errors.ts'
import type { ToolArguments } from './argument-kinds.ts'
import { validationOnly } from './compact-schema.ts'
import { callToolResult, figuredQuestions, type ToolAnswer } from './tool-answer.ts'
import { carriedFigures, figuresOf } from './question-figures.ts'
import type { ServedFiles } from '../http/answers/served-files.ts'
import type { Catalog } from '../data/catalog.ts'
import { registerQuestionResources } from './question-resources.ts'
import { registerStudyPrompts } from './study-prompts.ts'
import { labels, TOOLS, type Tool } from './tools.ts'

/** What the server tells an assistant at the handshake. */
const INSTRUCTIONS = 'ENEM (Exame Nacional do Ensino Médio) questions with INEP\'s official answer keys, and scores computed the way INEP computes them. ' +
  'list_exams says which exams exist; search_questions, random_questions and practice_questions find questions and get_question reads one, ' +
  'each with the answer key withheld unless reveal_answer is true, so that a student can answer first; check_answer checks a letter; score_answers computes a score. ' +
  'get_question gives a question\'s figures as images. Each question is also a resource (enem://{year}/{index}), and the prompts tutor and simulado guide a student. Texts are in Portuguese.'

/** Who this server says it is: at the handshake, and in every 2026-07-28 result's `_meta`. */
export const SERVER_INFO = { name: 'enem-api', title: 'ENEM API', version: '1.0.0' } as const

export interface McpServerOptions {
  answers: EndpointAnswers
  /** The dataset's files (as /files serves them): the figures the tools carry as images (none without it: a test's server). */
  files?: ServedFiles | undefined
  /** The exams: with `files`, the questions as resources and the study prompts (./question-resources.ts, ./study-prompts.ts). */
  catalog?: Catalog | undefined
  /** Where a fault of a tool (a bug, never a bad argument) is logged. */
  log: FastifyBaseLogger
  /** The tools; TOOLS unless a test gives its own. */
  tools?: readonly Tool[]
}

/**
 * The MCP server the SDK asks for per HTTP request (stateless: nothing is kept between requests)
 * and per stdio connection: every tool of the table, each answering from the endpoints' own
 * answers, each declaring its input and output schemas. A bad argument is a tool error (`isError`)
 * whose text is the message naming it (or the endpoint's 404 or 422 message), with no structured
 * content: clients check a result's `structuredContent` against the tool's output schema, some of
 * them an error's too (the SDK's v1 client, under LangChain's adapters). A fault is logged and
 * answered as the API's 500 is, without its details.
 *
 * The tools never change while a server runs, and this one keeps no session to tell a change to:
 * it does not advertise `tools.listChanged` (the SDK's default is to), so no client subscribes.
 */
export function mcpServerFactory ({ answers, files, catalog, log, tools = TOOLS }: McpServerOptions): McpServerFactory {
  // Once, not per server: a server is made for each request.
  const outputSchemas = new Map(tools.map((tool) => [tool, validationOnly(tool.outputSchema) as TObject]))
  return () => {
    const capabilities = catalog === undefined || files === undefined
      ? { tools: { listChanged: false } }
      : { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } }
    const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, capabilities })
    for (const tool of tools) {
      server.registerTool(tool.name, {
        title: tool.title,
        description: tool.description,
        inputSchema: sdkSchema(tool.inputSchema, isObject),
        outputSchema: sdkSchema(outputSchemas.get(tool)!, () => true),
        annotations: { readOnlyHint: true, openWorldHint: false }
      }, async (args) => {
        const answer = callTool(tool, args, answers, log)
        const questions = figuredQuestions(answer)
        const figures = questions.length === 0 || files === undefined ? undefined : await carriedFigures(figuresOf(questions, files), files)
        return callToolResult(answer, labels(answers), figures)
      })
    }
    if (catalog !== undefined && files !== undefined) {
      registerQuestionResources(server, answers, catalog, files)
      registerStudyPrompts(server, answers, files)
    }
    return server
  }
}

/**
 * What a call of a tool answers, the SDK's handler and the prepared answers (./prepared-results.ts)
 * alike: the tool's answer, or its refusal (a fault logged, and answered as the API's 500 is).
 */
export function callTool (tool: Tool, args: ToolArguments, answers: EndpointAnswers, log: FastifyBaseLogger): ToolAnswer {
  try {
    refuseUnknownArguments(tool, args)
    return tool.run(answers, args)
  } catch (error) {
    const refusal = error instanceof ApiError ? error : internalError()
    if (refusal.statusCode >= 500) log.error({ err: error, tool: tool.name }, 'tool failed')
    return { kind: 'refusal', message: refusal.message, reusable: false }
  }
}

/** The 400 of an argument the tool's input schema (a closed object) does not name: a misspelt filter is not silently ignored. */
function refuseUnknownArguments (tool: Tool, args: ToolArguments): void {
  const known = Object.keys(tool.inputSchema.properties)
  const unknown = Object.keys(args).find((name) => !Object.hasOwn(tool.inputSchema.properties, name))
  if (unknown === undefined) return
  const takes = known.length === 0 ? 'it takes no argument' : `it takes ${known.join(', ')}`
  throw new ApiError(400, `${describeValue(unknown)} is not an argument of ${tool.name}: ${takes}`)
}

const isObject = (value: unknown): value is ToolArguments => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A TypeBox schema in the form the SDK takes (a Standard Schema with its JSON Schema), whose check
 * is `accepts`. Inputs: any object, since the tool reads its own arguments so that a bad one gets
 * the tool's message (the SDK would prefix its own words to it). Outputs: every result, as the
 * endpoints send their answers unchecked; the tests validate every tool's result against its
 * schema through the official client, which validates it.
 */
function sdkSchema (schema: TObject, accepts: (value: unknown) => boolean): StandardSchemaWithJSON<ToolArguments> {
  const json: Record<string, unknown> = { ...schema }
  return {
    '~standard': {
      version: 1,
      vendor: 'enem-api',
      validate: (value) => accepts(value)
        ? { value: value as ToolArguments }
        : { issues: [{ message: `arguments must be a JSON object, got ${describeValue(value)}` }] },
      jsonSchema: { input: () => json, output: () => json }
    }
  }
}
