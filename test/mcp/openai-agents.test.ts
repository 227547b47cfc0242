import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { Agent, getAllMcpTools, MCPServerStreamableHttp, RunContext, type FunctionTool } from '@openai/agents'
import { build, TEST_PUBLIC_URL, type ErrorResponseBody } from '../helper.ts'
import { figureQuestion, keyShownIn, ORDINARY_CALLS, TELLS_THE_KEY } from './agent-calls.ts'

/*
 * The tools as the OpenAI Agents SDK (@openai/agents) takes them in strict mode: every input schema
 * converted to OpenAI's strict form (closed objects, every property required, optional ones
 * nullable), which refuses open objects, `patternProperties` and `anyOf` branches it cannot tell
 * apart, and falls back to a non-strict tool when it cannot convert. Every tool must convert, and
 * answer what a strict-mode model sends: every argument, null for those it does not set. With
 * `useStructuredContent` the model is shown the structured result: no answer key it did not ask for.
 */

const server = await build({ after }, { PUBLIC_URL: TEST_PUBLIC_URL })
const port = await server.listen()

describe('the OpenAI Agents SDK in strict mode', { timeout: 120_000 }, async () => {
  const mcp = new MCPServerStreamableHttp({ url: `http://127.0.0.1:${port}/mcp`, name: 'enem', useStructuredContent: true })
  await mcp.connect()
  after(() => mcp.close())
  const tools = await getAllMcpTools({ mcpServers: [mcp], convertSchemasToStrict: true, runContext: new RunContext(), agent: new Agent({ name: 'tutor' }) }) as FunctionTool[]
  const toolNamed = (name: string) => {
    const tool = tools.find((candidate) => candidate.name === name)
    assert.ok(tool !== undefined, `the SDK took ${name}`)
    return tool
  }

  /** What a strict-mode model sends: every property of the converted schema, null for those not set. */
  const strictInput = (tool: FunctionTool, args: Record<string, unknown>) =>
    JSON.stringify(Object.fromEntries(Object.keys((tool.parameters as { properties: object }).properties).map((name) => [name, args[name] ?? null])))

  test('every tool\'s schema converts to strict mode', () => {
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [...new Set(ORDINARY_CALLS.map(([tool]) => tool))].sort())
    for (const tool of tools) {
      assert.equal(tool.type, 'function')
      assert.equal(tool.strict, true, `${tool.name} is strict (the SDK falls back to a non-strict tool when it cannot convert)`)
      const parameters = tool.parameters as { type: string, additionalProperties: unknown, properties: object, required: string[] }
      assert.equal(parameters.type, 'object')
      assert.equal(parameters.additionalProperties, false)
      assert.deepEqual([...parameters.required].sort(), Object.keys(parameters.properties).sort())
    }
  })

  for (const [toolName, args] of ORDINARY_CALLS) {
    test(`${toolName} ${JSON.stringify(args)} answers a strict-mode call${TELLS_THE_KEY.has(toolName) ? '' : ', the model shown no answer key'}`, async () => {
      const tool = toolNamed(toolName)
      const output = await tool.invoke(new RunContext(), strictInput(tool, args))
      assert.equal(typeof output, 'string', 'with useStructuredContent the model is shown the structured result as JSON')
      const shown = JSON.parse(output as string) as Record<string, unknown>
      assert.equal(typeof shown, 'object')
      assert.equal('error' in shown, false, output as string)
      if (!TELLS_THE_KEY.has(toolName)) assert.deepEqual(keyShownIn(shown), [])
    })
  }

  test('without useStructuredContent, get_question\'s figures reach the agent as image items, the bytes /files serves, in the text\'s order', async () => {
    const plain = new MCPServerStreamableHttp({ url: `http://127.0.0.1:${port}/mcp`, name: 'enem-content' })
    await plain.connect()
    after(() => plain.close())
    const [getQuestion] = (await getAllMcpTools({ mcpServers: [plain], convertSchemasToStrict: true, runContext: new RunContext(), agent: new Agent({ name: 'tutor' }) }) as FunctionTool[]).filter((tool) => tool.name === 'get_question')
    const { args, addresses } = await figureQuestion(server.request)
    const output = await getQuestion!.invoke(new RunContext(), strictInput(getQuestion!, args)) as Array<{ type: string, data?: string, mimeType?: string }>
    const images = output.filter((item) => item.type === 'image')
    assert.equal(images.length, addresses.length)
    for (const [at, image] of images.entries()) {
      const served = await server.request(new URL(addresses[at]!).pathname)
      assert.ok(Buffer.from(image.data!, 'base64').equals(served.rawPayload))
      assert.equal(image.mimeType, served.headers['content-type'])
    }
  })

  test('a refusal reaches the model as the tool\'s message', async () => {
    const endpoint = await server.request('/v1/questions/practice?discipline=matematica&score=650&year=1999')
    const { message } = endpoint.json<ErrorResponseBody>().error
    const tool = toolNamed('practice_questions')
    const output = await tool.invoke(new RunContext(), strictInput(tool, { discipline: 'matematica', score: 650, year: [1999] }))
    assert.match(JSON.stringify(output), new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
  })
})
