import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { recordFigures } from '../../src/data/record-figures.ts'
import type { Question } from '../../src/data/record-schemas.ts'
import { OnlyInLanguagesError } from '../../src/http/answers/exam-answers.ts'
import { callTool } from '../../src/mcp/mcp-server.ts'
import { TOOLS } from '../../src/mcp/tools.ts'
import { FIGURE_BYTES_PER_CALL, FIGURES_PER_CALL } from '../../src/mcp/question-figures.ts'
import { questionUri, RESOURCES_PER_PAGE } from '../../src/mcp/question-resources.ts'
import { build, FULL_DATA_DIR, loadTestDataset, TEST_PUBLIC_URL } from '../helper.ts'
import { loadConfig } from '../../src/config.ts'
import { STDIO_SERVER } from './agent-calls.ts'

/*
 * Issue 60 through the official SDK client, over POST /mcp (both protocol eras) and stdio: a
 * question's figures reach the client as image blocks whose bytes are /files's, in the order the
 * text names them (Figura 1 …), capped per call with the rest named; the questions as resources
 * (templates, a paged list, a read with the figures as blobs); the tutor and simulado prompts; and
 * the context a model pays for (tools/list under 24 KB, list_skills one area at a time). The
 * figure-bearing records are found in the data (the sample's, or the full dataset's with ENEM_DATA_DIR).
 */

const env = { PUBLIC_URL: TEST_PUBLIC_URL, ...(FULL_DATA_DIR === undefined ? {} : { ENEM_DATA_DIR: FULL_DATA_DIR }) }
const server = await build({ after }, env)
const port = await server.listen()
const dataset = await loadTestDataset(loadConfig(env))
const exams = dataset.catalog!.listExams()
const records = exams.flatMap((exam) => [...exam.questions])

/** The figure-bearing records, most figures first (a record whose figures all fit the cap, and one past it when the data has one). */
const figured = records.filter((question) => recordFigures(question).length > 0).sort((a, b) => recordFigures(b).length - recordFigures(a).length)
const withFigures = figured.find((question) => recordFigures(question).length >= 2) ?? figured[0]!

/** A record's tool arguments. */
function argsOf (question: Question): Record<string, unknown> {
  return { year: question.year, index: question.index, ...(question.application === 'regular' ? {} : { application: question.application }), ...(question.language === null ? {} : { language: question.language }) }
}

/** /files's answer to a figure address: its bytes and type. */
async function filesAnswer (address: string): Promise<{ bytes: Buffer, type: string }> {
  const answer = await server.request(new URL(address).pathname)
  assert.equal(answer.statusCode, 200, address)
  return { bytes: answer.rawPayload, type: String(answer.headers['content-type']) }
}

interface Block { type: string, text?: string, data?: string, mimeType?: string }

/** A result's image blocks are the record's figures, in order, byte for byte as /files serves them. */
async function assertFiguresAsImages (content: Block[], questions: Question[]): Promise<void> {
  const figures = questions.flatMap((question) => recordFigures(question))
  const images = content.filter((block) => block.type === 'image')
  const carried = Math.min(figures.length, FIGURES_PER_CALL)
  assert.ok(images.length <= carried, `${images.length} images of ${figures.length} figures`)
  let bytes = 0
  for (const [at, image] of images.entries()) {
    const served = await filesAnswer(figures[at]!.address)
    assert.ok(Buffer.from(image.data!, 'base64').equals(served.bytes), `image ${at + 1} is /files's bytes of ${figures[at]!.address}`)
    assert.equal(image.mimeType, served.type)
    bytes += served.bytes.length
  }
  assert.ok(bytes <= FIGURE_BYTES_PER_CALL)
  // Every figure left out is named with its address; every one carried is listed before the images.
  const index = content.find((block) => block.type === 'text' && block.text!.startsWith('Figuras '))
  assert.ok(index !== undefined, 'a text names the figures')
  for (const figure of figures.slice(images.length)) assert.ok(index.text!.includes(figure.address), `${figure.address} left out is named`)
  // The images come after every text.
  const firstImage = content.findIndex((block) => block.type === 'image')
  if (firstImage !== -1) assert.ok(content.slice(firstImage).every((block) => block.type === 'image'))
}

const TRANSPORTS: Array<[name: string, connect: () => Promise<Client>]> = [
  ['Streamable HTTP, protocol 2025-11-25', () => connected(new Client({ name: 'enem-test', version: '1.0.0' }), new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))],
  ['Streamable HTTP, protocol 2026-07-28', () => connected(new Client({ name: 'enem-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } }), new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))],
  ['stdio (npm run mcp)', () => connected(new Client({ name: 'enem-test', version: '1.0.0' }), new StdioClientTransport({ ...STDIO_SERVER, env: { ...STDIO_SERVER.env, ENEM_DATA_DIR: FULL_DATA_DIR ?? '' }, stderr: 'pipe' }))]
]

async function connected (client: Client, transport: Transport): Promise<Client> {
  await client.connect(transport)
  return client
}

test('tools/list is under 24 KB, as a client receives it', async () => {
  const answer = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })
  })
  const bytes = Buffer.byteLength(await answer.text())
  assert.ok(bytes < 24 * 1024, `tools/list is ${bytes} bytes`)
})

for (const [name, connect] of TRANSPORTS) {
  describe(`reading and seeing over ${name}`, { timeout: 180_000 }, async () => {
    const client = await connect()
    after(() => client.close())

    test('get_question gives each figure as an image block after its text, the bytes /files serves; the text numbers them', async () => {
      const result = await client.callTool({ name: 'get_question', arguments: argsOf(withFigures) }) as { content: Block[] }
      assert.equal(result.content[0]!.type, 'text')
      for (const at of recordFigures(withFigures).keys()) assert.ok(result.content[0]!.text!.includes(`Figura ${at + 1}`), `the text names Figura ${at + 1}`)
      await assertFiguresAsImages(result.content, [withFigures])
      assert.ok(result.content.some((block) => block.type === 'image'))
      const without = await client.callTool({ name: 'get_question', arguments: { ...argsOf(withFigures), figures: false } }) as { content: Block[] }
      assert.deepEqual(without.content.map((block) => block.type), ['text'])
    })

    test('the lists carry figures when asked (figures: true), within the cap, the rest named with their addresses', async () => {
      const plain = await client.callTool({ name: 'search_questions', arguments: { hasImages: true, limit: 50 } }) as { content: Block[], structuredContent: { questions: Question[] } }
      assert.deepEqual(plain.content.map((block) => block.type), ['text'])
      const asked = await client.callTool({ name: 'search_questions', arguments: { hasImages: true, limit: 50, figures: true } }) as { content: Block[], structuredContent: { questions: Question[] } }
      const listed = asked.structuredContent.questions.map((shown) => records.find((record) => record.year === shown.year && record.application === shown.application && record.index === shown.index && record.language === shown.language)!)
      await assertFiguresAsImages(asked.content, listed)
      const drawn = await client.callTool({ name: 'random_questions', arguments: { count: 5, seed: 4, hasImages: true, figures: true } }) as { content: Block[] }
      assert.ok(drawn.content.some((block) => block.type === 'image'))
    })

    test('list_skills answers one area: the catalog\'s area, its text naming only that area\'s codes', async () => {
      const all = server.request('/v1/skills')
      const catalog = (await all).json<{ areas: Array<{ area: string, discipline: string, skills: Array<{ code: string }> }> }>()
      for (const area of catalog.areas) {
        const result = await client.callTool({ name: 'list_skills', arguments: { discipline: area.discipline } }) as { content: Block[], structuredContent: { areas: unknown[] } }
        assert.deepEqual(result.structuredContent.areas, [area])
        const codes = [...result.content[0]!.text!.matchAll(/\*\*([A-Z]{2}-H\d+)\*\*/g)].map((match) => match[1])
        assert.deepEqual(codes, area.skills.map((skill) => skill.code))
      }
    })

    test('a question is a resource: templates, a paged list of every exam and record, a read with its text and its figures as blobs', async () => {
      const { resourceTemplates } = await client.listResourceTemplates()
      assert.deepEqual(resourceTemplates.map((template) => template.uriTemplate).sort(), ['enem://figure/{+path}', 'enem://{year}/{index}{?application,language}', 'enem://{year}{?application}'])
      // The client follows the cursors itself (the SDK's listResources gathers every page); the pages, as sent, are checked over HTTP.
      const uris = (await client.listResources()).resources.map((resource) => resource.uri)
      assert.equal(uris.length, exams.length + records.length)
      const paged: string[] = []
      let cursor: string | undefined
      do {
        const answer = await fetch(`http://127.0.0.1:${port}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: cursor === undefined ? {} : { cursor } })
        })
        const { result } = await answer.json() as { result: { resources: Array<{ uri: string }>, nextCursor?: string } }
        assert.ok(result.resources.length <= RESOURCES_PER_PAGE)
        paged.push(...result.resources.map((resource) => resource.uri))
        cursor = result.nextCursor
      } while (cursor !== undefined)
      assert.deepEqual(paged, uris)
      assert.equal(new Set(uris).size, uris.length, 'each resource once')
      const uri = questionUri(withFigures)
      assert.ok(uris.includes(uri), `${uri} is listed`)
      const read = await client.readResource({ uri })
      const [text, ...blobs] = read.contents as Array<{ uri: string, mimeType: string, text?: string, blob?: string }>
      assert.equal(text!.mimeType, 'text/markdown')
      assert.ok(text!.text!.includes(withFigures.title))
      assert.ok(!/Gabarito/.test(text!.text!), 'no key')
      const figures = recordFigures(withFigures)
      assert.equal(blobs.length, Math.min(figures.length, FIGURES_PER_CALL))
      for (const [at, blob] of blobs.entries()) {
        const served = await filesAnswer(figures[at]!.address)
        assert.ok(Buffer.from(blob.blob!, 'base64').equals(served.bytes))
        assert.equal(blob.mimeType, served.type)
        // A figure's own address reads the same bytes.
        const alone = await client.readResource({ uri: blob.uri })
        assert.equal((alone.contents[0] as { blob: string }).blob, blob.blob)
      }
      const exam = await client.readResource({ uri: `enem://${withFigures.year}${withFigures.application === 'regular' ? '' : '?application=ppl'}` })
      assert.ok((exam.contents[0] as { text: string }).text.includes(uri))
      await assert.rejects(client.readResource({ uri: `enem://${withFigures.year}/999` }), /has no question 999/)
      await assert.rejects(client.readResource({ uri: `enem://${withFigures.year}/1?lang=ingles` }), /lang is not a part/)
    })

    test('the tutor prompt assembles one question, without its key, with its figures as images', async () => {
      const { prompts } = await client.listPrompts()
      assert.deepEqual(prompts.map((prompt) => prompt.name).sort(), ['simulado', 'tutor'])
      const args = Object.fromEntries(Object.entries(argsOf(withFigures)).map(([key, value]) => [key, String(value)]))
      const prompt = await client.getPrompt({ name: 'tutor', arguments: args })
      const content = prompt.messages.map((message) => message.content as Block)
      assert.ok(content[0]!.text!.includes(withFigures.title))
      assert.ok(content[0]!.text!.includes('check_answer'))
      assert.ok(!content.some((block) => /Gabarito/.test(block.text ?? '')), 'no key')
      await assertFiguresAsImages(content, [withFigures])
    })

    test('the simulado prompt assembles an area of one exam (the exam\'s own list of it) and asks for score_answers', async () => {
      const exam = exams.find((candidate) => candidate.summary.year === withFigures.year && candidate.summary.application === withFigures.application)!
      const discipline = withFigures.discipline!
      const page = (await server.request(`/v1/exams/${exam.summary.year}/questions?discipline=${discipline}&limit=50${exam.summary.application === 'regular' ? '' : '&application=ppl'}`)).json<{ questions: Question[] }>()
      const prompt = await client.getPrompt({ name: 'simulado', arguments: { year: String(exam.summary.year), discipline, ...(exam.summary.application === 'regular' ? {} : { application: 'ppl' }) } })
      const text = (prompt.messages[0]!.content as Block).text!
      for (const question of page.questions) assert.ok(text.includes(`### ${question.title}`), question.title)
      assert.ok(text.includes('score_answers'))
      // A record without its statement (no context, no figure) is in no Simulado; the prompt says how many it left out.
      const whole = (question: Question) => (question.context ?? '').trim() !== '' || question.files.length > 0
      const incomplete = exams.flatMap((candidate) => candidate.questions).find((question) => !whole(question) && question.discipline !== null)
      assert.ok(incomplete !== undefined, 'the dataset holds a record without its statement')
      const area = (await server.request(`/v1/exams/${incomplete.year}/questions?discipline=${incomplete.discipline}&limit=50${incomplete.application === 'regular' ? '' : '&application=ppl'}${incomplete.language === null ? '' : `&language=${incomplete.language}`}`)).json<{ questions: Question[] }>()
      const simulado = await client.getPrompt({ name: 'simulado', arguments: { year: String(incomplete.year), discipline: incomplete.discipline!, ...(incomplete.application === 'regular' ? {} : { application: 'ppl' }), ...(incomplete.language === null ? {} : { language: incomplete.language }) } })
      const asked = (simulado.messages[0]!.content as Block).text!
      for (const question of area.questions) assert.equal(asked.includes(`### ${question.title}\n`), whole(question), question.title)
      assert.match(asked, /incompleta/)
      assert.ok(!/Gabarito/.test(text))
      await assert.rejects(client.getPrompt({ name: 'simulado', arguments: { year: String(exam.summary.year), discipline: 'astronomia' } }), /discipline must be one of/)
    })
  })
}

/** Positions printed only in some of their exam's languages (none common to all): the data's, found here. */
const printedInSome = exams.flatMap((exam) => {
  const byIndex = new Map<number, Set<string | null>>()
  for (const question of exam.questions) byIndex.set(question.index, (byIndex.get(question.index) ?? new Set()).add(question.language))
  return [...byIndex].flatMap(([index, languages]) => exam.languageSlugs.filter((language) => !languages.has(null) && !languages.has(language))
    .map((missing) => ({ exam, index, missing, printed: [...languages] as string[] })))
})

test(`get_question on a position printed only in other languages names the language argument, never a query string (${printedInSome.length} such positions in this dataset)`, async () => {
  const client = await connected(new Client({ name: 'enem-test', version: '1.0.0' }), new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))
  after(() => client.close())
  for (const { exam, index, missing, printed } of printedInSome) {
    const result = await client.callTool({ name: 'get_question', arguments: { year: exam.summary.year, index, language: missing, ...(exam.summary.application === 'regular' ? {} : { application: exam.summary.application }) } }) as { isError: boolean, content: Block[] }
    assert.equal(result.isError, true)
    const message = result.content[0]!.text!
    assert.doesNotMatch(message, /\?language=|query/)
    for (const language of printed) assert.ok(message.includes(`\`language: "${language}"\``), message)
  }
  // The tool's own rewording, on the endpoint's refusal as it is thrown (the sample holds no such position).
  const answers = { exams: { record: () => { throw new OnlyInLanguagesError('question 5 of ENEM 2019 exists only in espanhol; ask with ?language=', ['espanhol']) } } }
  const answer = callTool(TOOLS.find((tool) => tool.name === 'get_question')!, { year: 2019, index: 5, language: 'ingles' }, answers as never, server.app.log)
  assert.deepEqual(answer, { kind: 'refusal', message: 'question 5 of ENEM 2019 exists only in espanhol: ask again with `language: "espanhol"`', reusable: false })
})
