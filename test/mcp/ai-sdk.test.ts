import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { createMCPClient } from '@ai-sdk/mcp'
import { build, TEST_PUBLIC_URL, type ErrorResponseBody } from '../helper.ts'
import { keyShownIn, ORDINARY_CALLS, TELLS_THE_KEY } from './agent-calls.ts'

/*
 * The tools as the Vercel AI SDK's MCP client (@ai-sdk/mcp) takes them: every tool loaded with its
 * schema, called with ordinary arguments, its result turned into what the model reads
 * (`toModelOutput`): no answer key the call did not ask for, and a refusal as the tool's message.
 */

const server = await build({ after }, { PUBLIC_URL: TEST_PUBLIC_URL })
const port = await server.listen()

interface CallResult { isError?: boolean, content: Array<{ type: string, text?: string }> }

describe('the AI SDK\'s MCP client', { timeout: 120_000 }, async () => {
  const client = await createMCPClient({ transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } })
  after(() => client.close())
  const tools = await client.tools()
  const options = { toolCallId: 'call', messages: [], context: {} }

  test('it loads every tool', () => {
    assert.deepEqual(Object.keys(tools).sort(), [...new Set(ORDINARY_CALLS.map(([tool]) => tool))].sort())
  })

  for (const [toolName, args] of ORDINARY_CALLS) {
    test(`${toolName} ${JSON.stringify(args)} answers${TELLS_THE_KEY.has(toolName) ? '' : ', the model shown no answer key'}`, async () => {
      const tool = tools[toolName]!
      const output = await tool.execute!(args, options)
      const result = output as CallResult
      assert.notEqual(result.isError, true, JSON.stringify(result.content))
      // execute's type allows a stream, which an MCP tool never gives.
      const shown = await tool.toModelOutput!({ toolCallId: 'call', input: args, output: output as Parameters<NonNullable<typeof tool.toModelOutput>>[0]['output'] })
      assert.ok(JSON.stringify(shown).length > 100, 'the model is shown the result')
      if (!TELLS_THE_KEY.has(toolName)) assert.deepEqual(keyShownIn(shown), [])
    })
  }

  test('a refusal reaches the model as the tool\'s message', async () => {
    const endpoint = await server.request('/v1/questions/practice?discipline=matematica&score=650&year=1999')
    const { message } = endpoint.json<ErrorResponseBody>().error
    const output = await tools.practice_questions!.execute!({ discipline: 'matematica', score: 650, year: [1999] }, options) as CallResult
    assert.equal(output.isError, true)
    assert.deepEqual(output.content.map((part) => part.text), [message])
  })
})
