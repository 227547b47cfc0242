import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { ToolMessage } from '@langchain/core/messages'
import type { StructuredToolInterface } from '@langchain/core/tools'
import { MultiServerMCPClient, type Connection } from '@langchain/mcp-adapters'
import { build, TEST_PUBLIC_URL, type ErrorResponseBody } from '../helper.ts'
import { figureQuestion, keyShownIn, ORDINARY_CALLS, STDIO_SERVER, TELLS_THE_KEY } from './agent-calls.ts'

/*
 * The tools as a LangGraph agent loads them: LangChain's MCP adapters (@langchain/mcp-adapters),
 * which rewrite each input schema for the model and check every call against it before sending it,
 * check each result against the tool's output schema (the SDK's v1 client, under them), and put the
 * structured result into what the model reads. Over HTTP and over stdio, every tool is called with
 * ordinary arguments (a numeric score, a 45-letter sheet); the model must see no answer key it did
 * not ask for, and a refusal must reach it as the tool's message.
 */

const server = await build({ after }, { PUBLIC_URL: TEST_PUBLIC_URL })
const port = await server.listen()

const CONNECTIONS: Array<[name: string, connection: Connection]> = [
  ['Streamable HTTP', { transport: 'http', url: `http://127.0.0.1:${port}/mcp` }],
  ['stdio (npm run mcp)', { transport: 'stdio', ...STDIO_SERVER, stderr: 'ignore' }]
]

let callId = 0

/** A tool called as an agent's model calls it: the message the model is shown next. */
async function invoke (tool: StructuredToolInterface, args: Record<string, unknown>): Promise<ToolMessage> {
  const message: unknown = await tool.invoke({ type: 'tool_call', id: `call-${++callId}`, name: tool.name, args })
  assert.ok(ToolMessage.isInstance(message), 'a tool call gives the model a ToolMessage')
  return message
}

for (const [name, connection] of CONNECTIONS) {
  describe(`LangChain's MCP adapters over ${name}`, { timeout: 180_000 }, async () => {
    const client = new MultiServerMCPClient({ mcpServers: { enem: connection } })
    after(() => client.close())
    const tools = await client.getTools()
    const toolNamed = (toolName: string) => {
      const tool = tools.find((candidate) => candidate.name === toolName)
      assert.ok(tool !== undefined, `LangChain loaded ${toolName}`)
      return tool
    }

    test('it loads every tool', () => {
      assert.deepEqual(tools.map((tool) => tool.name).sort(), [...new Set(ORDINARY_CALLS.map(([tool]) => tool))].sort())
    })

    for (const [toolName, args] of ORDINARY_CALLS) {
      test(`${toolName} ${JSON.stringify(args)} passes LangChain's check and answers${TELLS_THE_KEY.has(toolName) ? '' : ', the model shown no answer key'}`, async () => {
        const message = await invoke(toolNamed(toolName), args)
        assert.notEqual(message.status, 'error', String(message.content))
        const shown = message.content
        assert.ok(String(JSON.stringify(shown)).length > 100, 'the model is shown the result')
        if (!TELLS_THE_KEY.has(toolName)) assert.deepEqual(keyShownIn(shown), [])
        const structured = (message.artifact as Array<{ type: string, data: unknown }>).find((artifact) => artifact.type === 'mcp_structured_content')
        assert.ok(structured !== undefined, 'the structured result, validated against the output schema, is kept')
      })
    }

    test('with reveal_answer the model is shown the keys: the check above would see them', async () => {
      for (const [toolName, args] of [['search_questions', { q: 'energia', limit: 3 }], ['practice_questions', { discipline: 'matematica', score: 650, count: 3 }]] as const) {
        const message = await invoke(toolNamed(toolName), { ...args, reveal_answer: true })
        assert.notDeepEqual(keyShownIn(message.content), [], toolName)
      }
    })

    test('get_question\'s figures reach the model as images (data URLs of the bytes /files serves), in the order the text names them', async () => {
      const { args, addresses } = await figureQuestion(server.request)
      const message = await invoke(toolNamed('get_question'), args)
      const images = (message.content as Array<{ type: string, image_url?: { url: string } }>).filter((block) => block.type === 'image_url')
      assert.equal(images.length, addresses.length)
      for (const [at, image] of images.entries()) {
        const served = await server.request(new URL(addresses[at]!).pathname)
        assert.equal(image.image_url!.url, `data:${String(served.headers['content-type'])};base64,${served.rawPayload.toString('base64')}`)
      }
    })

    test('a refusal reaches the agent as the tool\'s message', async () => {
      const endpoint = await server.request('/v1/questions/practice?discipline=matematica&score=650&year=1999')
      const { message } = endpoint.json<ErrorResponseBody>().error
      await assert.rejects(invoke(toolNamed('practice_questions'), { discipline: 'matematica', score: 650, year: [1999] }), (error: Error) => {
        assert.equal(error.name, 'ToolException')
        assert.ok(error.message.endsWith(`returned an error: ${message}`), error.message)
        return true
      })
    })
  })
}
