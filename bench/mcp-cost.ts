import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'

/*
 * `npx tsx bench/mcp-cost.ts` (after `npm run build`): what the MCP server costs a desktop
 * assistant and a client of POST /mcp, from the production build. The stdio server's start (spawn to
 * the end of the initialize handshake) on the sample and, with ENEM_DATA_DIR, on that dataset; then
 * the median and p95 of tool calls over stdio and over HTTP (one fresh MCP server per HTTP request:
 * the price of statelessness). Prints the figures; bench/results.md keeps them.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const MCP = fileURLToPath(new URL('../dist/mcp.js', import.meta.url))
const SERVER = fileURLToPath(new URL('../dist/server.js', import.meta.url))
const STARTS = 5
const CALLS = 200
const CALL_ARGS: Array<[tool: string, args: Record<string, unknown>]> = [
  ['get_question', { year: 2020, index: 1 }],
  ['search_questions', { q: 'energia', limit: 10 }],
  ['check_answer', { year: 2020, index: 1, answer: 'A' }]
]

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)]!
const ms = (value: number) => `${value.toFixed(1)} ms`

function stdioClient (dataDir: string): { client: Client, transport: StdioClientTransport } {
  return {
    client: new Client({ name: 'bench', version: '1.0.0' }),
    transport: new StdioClientTransport({ command: process.execPath, args: [MCP], cwd: ROOT, env: { PATH: process.env.PATH ?? '', ENEM_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, stderr: 'ignore' })
  }
}

async function callTimes (client: Client): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = {}
  for (const [tool, args] of CALL_ARGS) {
    times[tool] = []
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now()
      const result = await client.callTool({ name: tool, arguments: args })
      times[tool].push(performance.now() - started)
      if (result.isError === true) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`)
    }
  }
  return times
}

function report (label: string, times: Record<string, number[]>): void {
  for (const [tool, values] of Object.entries(times)) console.log(`${label} ${tool}: median ${ms(median(values))}, p95 ${ms(p95(values))} (${values.length} calls)`)
}

const datasets: Array<[name: string, dir: string]> = [['sample', '']]
if (process.env.ENEM_DATA_DIR !== undefined && process.env.ENEM_DATA_DIR !== '') datasets.push(['ENEM_DATA_DIR', process.env.ENEM_DATA_DIR])

for (const [name, dir] of datasets) {
  const starts: number[] = []
  const firstAnswers: number[] = []
  for (let i = 0; i < STARTS; i++) {
    const { client, transport } = stdioClient(dir)
    const started = performance.now()
    await client.connect(transport)
    starts.push(performance.now() - started)
    // The first tool call waits for the dataset, which loads while the handshake is answered.
    await client.callTool({ name: 'get_question', arguments: { year: 2020, index: 1 } })
    firstAnswers.push(performance.now() - started)
    if (i === STARTS - 1) report(`stdio (${name})`, await callTimes(client))
    await client.close()
  }
  console.log(`stdio (${name}) start to initialized: median ${ms(median(starts))} of ${STARTS} (${starts.map((value) => Math.round(value)).join(', ')} ms)`)
  console.log(`stdio (${name}) start to the first tool answer: median ${ms(median(firstAnswers))} of ${STARTS} (${firstAnswers.map((value) => Math.round(value)).join(', ')} ms)`)
}

// POST /mcp on the production server, rate limit off, on the sample.
const server = spawn(process.execPath, [SERVER], { cwd: ROOT, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ENEM_DATA_DIR: '', RATE_LIMIT_MAX: '0', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] })
try {
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: server.stdout }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg: string, port?: number }
        if (entry.msg === 'ready') resolve(entry.port!)
      } catch {}
    })
    server.once('exit', () => reject(new Error('the server exited before it was ready')))
  })
  for (const [era, options] of [['2025-11-25', {}], ['2026-07-28', { versionNegotiation: { mode: 'auto' as const } }]] as const) {
    const client = new Client({ name: 'bench', version: '1.0.0' }, options)
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))
    report(`HTTP (sample, ${era})`, await callTimes(client))
    await client.close()
  }
} finally {
  server.kill('SIGKILL')
}
