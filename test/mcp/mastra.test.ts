import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { getMcpCallToolContent, MCPClient } from '@mastra/mcp'
import { build, TEST_PUBLIC_URL } from '../helper.ts'
import { figureQuestion, ORDINARY_CALLS, REPO_ROOT, STDIO_SERVER } from './agent-calls.ts'

/*
 * The tools, resources and prompts as a Mastra agent loads them (@mastra/mcp's MCPClient), over HTTP
 * and stdio: a tool with an output schema gives Mastra its structured result, with the MCP content
 * blocks kept beside it (getMcpCallToolContent): a figure's image block reaches Mastra as an image,
 * the bytes /files serves. (Mastra's model output of such a tool is its text blocks alone: its own
 * choice, not the server's.) A question's resource reads as its text and its figures as blobs; the
 * prompts assemble with their figures as image messages.
 */

const server = await build({ after }, { PUBLIC_URL: TEST_PUBLIC_URL })
const port = await server.listen()

const SERVERS = [
  ['Streamable HTTP', { url: new URL(`http://127.0.0.1:${port}/mcp`) }],
  ['stdio (npm run mcp)', { command: STDIO_SERVER.command, args: STDIO_SERVER.args, cwd: REPO_ROOT, env: STDIO_SERVER.env }]
] as const

/** /files's bytes and type of an address. */
async function served (address: string): Promise<{ bytes: Buffer, type: string }> {
  const answer = await server.request(new URL(address).pathname)
  assert.equal(answer.statusCode, 200)
  return { bytes: answer.rawPayload, type: String(answer.headers['content-type']) }
}

for (const [name, definition] of SERVERS) {
  describe(`Mastra's MCPClient over ${name}`, { timeout: 180_000 }, async () => {
    const mcp = new MCPClient({ id: `enem-${name}`, servers: { enem: definition } })
    after(() => mcp.disconnect())
    const tools = await mcp.listTools()
    const { args, addresses } = await figureQuestion(server.request)

    test('it loads every tool', () => {
      assert.deepEqual(Object.keys(tools).sort(), [...new Set(ORDINARY_CALLS.map(([tool]) => `enem_${tool}`))].sort())
    })

    test('get_question\'s figures reach Mastra as image blocks, the bytes /files serves, in the text\'s order', async () => {
      const output = await tools.enem_get_question!.execute!(args as never, {} as never)
      const content = getMcpCallToolContent(output) as Array<{ type: string, data?: string, mimeType?: string }>
      const images = content.filter((block) => block.type === 'image')
      assert.equal(images.length, addresses.length)
      for (const [at, image] of images.entries()) {
        const file = await served(addresses[at]!)
        assert.ok(Buffer.from(image.data!, 'base64').equals(file.bytes))
        assert.equal(image.mimeType, file.type)
      }
    })

    test('a question\'s resource reads as its text and its figures as blobs', async () => {
      const language = typeof args.language === 'string' ? `?language=${args.language}` : ''
      const read = await mcp.resources.read('enem', `enem://${String(args.year)}/${String(args.index)}${args.application === undefined ? language : `?application=${String(args.application)}${language.replace('?', '&')}`}`)
      const [text, ...blobs] = read.contents as Array<{ text?: string, blob?: string, mimeType: string }>
      assert.equal(text!.mimeType, 'text/markdown')
      assert.equal(blobs.length, addresses.length)
      for (const [at, blob] of blobs.entries()) assert.ok(Buffer.from(blob.blob!, 'base64').equals((await served(addresses[at]!)).bytes))
    })

    test('both prompts assemble; tutor with the figures as image messages', async () => {
      const prompts = await mcp.prompts.list()
      assert.deepEqual(prompts.enem!.map((prompt) => prompt.name).sort(), ['simulado', 'tutor'])
      const tutor = await mcp.prompts.get({ serverName: 'enem', name: 'tutor', args: Object.fromEntries(Object.entries(args).map(([key, value]) => [key, String(value)])) })
      const images = tutor.messages.map((message) => message.content as { type: string, data?: string }).filter((content) => content.type === 'image')
      assert.equal(images.length, addresses.length)
      for (const [at, image] of images.entries()) assert.ok(Buffer.from(image.data!, 'base64').equals((await served(addresses[at]!)).bytes))
      const simulado = await mcp.prompts.get({ serverName: 'enem', name: 'simulado', args: { year: String(args.year), discipline: 'matematica' } })
      assert.match((simulado.messages[0]!.content as { text: string }).text, /score_answers/)
    })
  })
}
