import { McpServer, type CallToolResult, type McpServerFactory } from '@modelcontextprotocol/server'
import type { FastifyBaseLogger } from 'fastify'
import type { EndpointAnswers } from '../http/endpoints.ts'
import { ApiError, errorBody, internalError } from '../http/errors.ts'
import { sdkInputSchema } from './tool-input.ts'
import { TOOLS, type Tool } from './tools.ts'

/** What the server tells an assistant at the handshake. */
const INSTRUCTIONS = 'ENEM (Exame Nacional do Ensino Médio) questions with INEP\'s official answer keys, and scores computed the way INEP computes them. ' +
  'list_exams says which exams exist; search_questions and random_questions find questions; get_question reads one with its key withheld, ' +
  'so that a student can answer first; check_answer checks a letter; score_answers computes a score. Texts are in Portuguese.'

export interface McpServerOptions {
  answers: EndpointAnswers
  /** Base of the docUrl of a tool error's body. */
  publicUrl: string
  /** Where a fault of a tool (a bug, never a bad argument) is logged. */
  log: FastifyBaseLogger
  /** The tools; TOOLS unless a test gives its own. */
  tools?: readonly Tool[]
}

/**
 * The MCP server the SDK asks for per HTTP request (stateless: nothing is kept between requests)
 * and per stdio connection: every tool of the table, each answering from the endpoints' own answer
 * answers. A bad argument is a tool error (`isError`) whose text is the endpoint's message and
 * whose structured content is the endpoint's error body; a fault is logged and answered as the
 * API's 500 is, without its details.
 */
export function mcpServerFactory ({ answers, publicUrl, log, tools = TOOLS }: McpServerOptions): McpServerFactory {
  const call = (tool: Tool, args: Readonly<Record<string, unknown>>): CallToolResult => {
    try {
      const { structured, text } = tool.run(answers, args)
      return { content: [{ type: 'text', text }], structuredContent: structured }
    } catch (error) {
      const refusal = error instanceof ApiError ? error : internalError()
      if (refusal.statusCode >= 500) log.error({ err: error, tool: tool.name }, 'tool failed')
      return { isError: true, content: [{ type: 'text', text: refusal.message }], structuredContent: { ...errorBody(publicUrl, refusal.statusCode, refusal.message) } }
    }
  }
  return () => {
    const server = new McpServer({ name: 'enem-api', title: 'ENEM API', version: '1.0.0' }, { instructions: INSTRUCTIONS })
    for (const tool of tools) {
      server.registerTool(tool.name, {
        title: tool.title,
        description: tool.description,
        inputSchema: sdkInputSchema(tool.inputSchema),
        annotations: { title: tool.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false }
      }, (args) => call(tool, args))
    }
    return server
  }
}
