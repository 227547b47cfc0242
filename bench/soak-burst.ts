import { Agent, request } from 'node:http'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { runToEnd } from './run-to-end.ts'

/*
 * Fair under a burst (issue 45): one address spends its whole quota (the default limit, 600 a
 * minute) as fast as 32 connections can send the costliest calls there are, MCP and REST, while
 * another address asks for a single question every 10 ms. What the other address waited is the
 * figure: at most 100 ms, however costly the first address's calls. Each flood meets a fresh
 * server, so that each spends a whole quota of its own.
 */

/** The burst's connections: the external battery's flood. */
const FLOOD_CONNECTIONS = 32
const FLOOD_SECONDS = 5
/** The other address's probe: one request every this many ms, within its own quota over the flood. */
const PROBE_EVERY_MS = 10
/** Where the probe comes from: another address than the flood's (127.0.0.1). */
const PROBE_ADDRESS = '127.0.0.2'

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Accept-Encoding': 'gzip, deflate, br' }

/** A flood: its name, and the wrk script sending it (one request function; `n` counts the requests sent). */
interface Flood { name: string, lua: string }

const luaTable = (values: Record<string, string>) => `{${Object.entries(values).map(([name, value]) => `["${name}"] = "${value}"`).join(', ')}}`
const mcpCall = (tool: string, argsLua: string) =>
  `wrk.format("POST", "/mcp", ${luaTable(MCP_HEADERS)}, '{"jsonrpc":"2.0","id":' .. n .. ',"method":"tools/call","params":{"name":"${tool}","arguments":' .. ${argsLua} .. '}}')`

/** Words most questions hold: each flood request a first search no cache has seen. */
const COMMON_WORDS = ['de', 'que', 'para', 'com', 'uma', 'por', 'texto', 'como', 'mais', 'entre', 'sobre', 'partir', 'pela', 'seu', 'sua']

export const FLOODS: readonly Flood[] = [
  { name: 'MCP practice_questions, count 50 (the battery\'s flood)', lua: `return ${mcpCall('practice_questions', '\'{"discipline":"matematica","score":\' .. (500 + n % 300) .. \',"count":50}\'')}` },
  {
    name: 'MCP search_questions, limit 50, every one a first search of three common words',
    lua: `local a, b, c = words[n % #words + 1], words[math.floor(n / #words) % #words + 1], words[math.floor(n / #words / #words) % #words + 1]
  return ${mcpCall('search_questions', '\'{"q":"\' .. a .. \' \' .. b .. \' \' .. c .. \'","limit":50}\'')}`
  },
  { name: 'MCP random_questions, count 50', lua: `return ${mcpCall('random_questions', '\'{"count":50}\'')}` },
  {
    name: 'REST multi-year exports, gzip, every one a new set of years',
    lua: `local years, k = {}, (n * 7919 + 12345) % 65536
  for y = 2009, 2024 do if math.floor(k / 2 ^ (y - 2009)) % 2 == 1 then table.insert(years, tostring(y)) end end
  if #years == 0 then years = {"2020"} end
  return wrk.format("GET", "/v1/export/questions.jsonl?year=" .. table.concat(years, ",") .. "&n=" .. n, {["Accept-Encoding"] = "gzip"})`
  },
  {
    name: 'REST refused scores bodies: 900 {"constructor":1}',
    lua: 'return wrk.format("POST", "/v1/scores", {["Content-Type"] = "application/json"}, \'[\' .. string.rep(\'{"constructor":1},\', 899) .. \'{"constructor":1}]\')'
  }
]

function floodScript (flood: Flood): string {
  return `local words = {${COMMON_WORDS.map((word) => `"${word}"`).join(', ')}}
local n = 0
local statuses = {}
request = function()
  n = n + 1
  ${flood.lua}
end
response = function(status) statuses[status] = (statuses[status] or 0) + 1 end
done = function() end
`
}

/** The probe's latencies, in ms, one request every PROBE_EVERY_MS on a kept connection from PROBE_ADDRESS, until `stop`. */
async function probe (port: number, target: string, stop: () => boolean): Promise<{ latencies: number[], statuses: Map<number, number> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: PROBE_ADDRESS })
  const latencies: number[] = []
  const statuses = new Map<number, number>()
  const pending: Array<Promise<void>> = []
  while (!stop()) {
    const sentAt = performance.now()
    pending.push(new Promise<void>((resolve) => {
      const outgoing = request({ host: '127.0.0.1', port, path: target, agent }, (response) => {
        response.resume()
        response.on('end', () => {
          latencies.push(performance.now() - sentAt)
          statuses.set(response.statusCode ?? 0, (statuses.get(response.statusCode ?? 0) ?? 0) + 1)
          resolve()
        })
      })
      outgoing.on('error', () => { statuses.set(0, (statuses.get(0) ?? 0) + 1); resolve() })
      outgoing.end()
    }))
    await sleep(PROBE_EVERY_MS)
  }
  await Promise.all(pending)
  agent.destroy()
  return { latencies, statuses }
}

const percentile = (values: number[], share: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))] ?? 0
const describeStatuses = (statuses: Map<number, number>) => [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status}`).join(', ')

/**
 * Each flood against a fresh server (`start` gives its port and a function that stops it), the
 * probe alone first, then meanwhile: one line per flood.
 */
export async function burstPhase (start: () => Promise<{ port: number, stop: () => Promise<void> }>, workDir: string, target: string): Promise<string[]> {
  const lines: string[] = []
  for (const [at, flood] of FLOODS.entries()) {
    const server = await start()
    try {
      const alone = await probe(server.port, target, (() => { const until = performance.now() + 1_000; return () => performance.now() > until })())
      const script = path.join(workDir, `burst-${at}.lua`)
      await writeFile(script, floodScript(flood))
      let flooding = true
      const output = runToEnd('wrk', ['-t1', `-c${FLOOD_CONNECTIONS}`, `-d${FLOOD_SECONDS}s`, '--timeout', '10s', '-s', script, `http://127.0.0.1:${server.port}`]).finally(() => { flooding = false })
      const meanwhile = await probe(server.port, target, () => !flooding)
      const wrk = await output
      const sent = /(\d+) requests in/.exec(wrk)?.[1] ?? '?'
      const refused = /Non-2xx or 3xx responses: (\d+)/.exec(wrk)?.[1] ?? '0'
      lines.push(`${flood.name}: ${sent} sent from 32 connections (${refused} refused, most by the rate limit); the other address's single question, every ${PROBE_EVERY_MS} ms: ` +
        `alone p99 ${percentile(alone.latencies, 0.99).toFixed(1)} ms; meanwhile p50 ${percentile(meanwhile.latencies, 0.5).toFixed(1)}, p99 ${percentile(meanwhile.latencies, 0.99).toFixed(1)}, ` +
        `max ${Math.max(...meanwhile.latencies).toFixed(1)} ms (${describeStatuses(meanwhile.statuses)})`)
    } finally {
      await server.stop()
    }
  }
  return lines
}
