import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { BROWSER_ACCEPT_ENCODING, costlyRequests } from './costly-requests.ts'
import { runToEnd } from './run-to-end.ts'

/*
 * The soak's cost phase (issue 26, item 3): a few connections send the costliest finding requests,
 * each one a first request (distinct common-word searches, stop-word phrases, multi-year exports,
 * unseeded draws of 50), as browsers ask them, while a normal client (one connection asking for
 * one question) measures its latency; the same client alone first, as the baseline. Loopback only,
 * bounded by time: `seconds` per run.
 */

/** Connections of the costly client: a few, as one abusive address would hold. */
const COSTLY_CONNECTIONS = 4
/** Distinct requests of each kind: more than a run can send, so none is answered from a cache. */
const DISTINCT = 20_000

/** wrk --latency's figures: requests/s, p50, p99, requests, errors. */
function latencySummary (output: string): string {
  const pick = (pattern: RegExp) => pattern.exec(output)?.[1]?.trim() ?? '?'
  const errors = /Socket errors: (.*)/.exec(output)?.[1]?.trim()
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1]
  return `${pick(/Requests\/sec:\s+([\d.]+)/)} req/s, p50 ${pick(/\s50%\s+(\S+)/)}, p99 ${pick(/\s99%\s+(\S+)/)}, ${pick(/(\d+) requests in/)} requests` +
    `${errors === undefined ? '' : `; socket errors: ${errors}`}${non2xx === undefined ? '' : `; ${non2xx} non-2xx`}`
}

/** The phase's lines of report. `normalPath`: what the normal client asks for. */
export async function costlyPhase (port: number, seconds: number, workDir: string, normalPath: string): Promise<string[]> {
  const base = `http://127.0.0.1:${port}`
  const exported = await fetch(`${base}/v1/export/questions.jsonl`).then((response) => response.text())
  const exams = await fetch(`${base}/v1/exams`).then((response) => response.json()) as Array<{ year: number }>
  const costly = costlyRequests(exported, exams.map((exam) => exam.year), DISTINCT)
  // The kinds taken in turn, each path once.
  const paths: string[] = []
  const kinds = [costly.commonWordSearches, costly.stopWordPhrases, costly.multiYearExports]
  for (let i = 0; i < DISTINCT; i++) {
    for (const kind of kinds) if (i < kind.length) paths.push(kind[i]!)
    paths.push('/v1/questions/random?count=50')
  }
  const script = path.join(workDir, 'costly.lua')
  await writeFile(script, `
local paths = {${paths.map((one) => `"${one}"`).join(',')}}
local requests = {}
local sent = 0
init = function(args)
  for i, one in ipairs(paths) do requests[i] = wrk.format(nil, one) end
end
request = function()
  sent = sent % #requests + 1
  return requests[sent]
end
`)
  const normal = () => runToEnd('wrk', ['-t1', '-c1', `-d${seconds}s`, '--latency', `${base}${normalPath}`])
  const alone = await normal()
  const [attack, during] = await Promise.all([
    runToEnd('wrk', ['-t1', `-c${COSTLY_CONNECTIONS}`, `-d${seconds + 2}s`, '--latency', '--timeout', '10s', '-s', script, '-H', `Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}`, base]),
    sleep(1_000).then(normal)
  ])
  return [
    `normal client alone (1 connection, ${normalPath}): ${latencySummary(alone)}`,
    `costly client, ${COSTLY_CONNECTIONS} connections (distinct common-word searches, stop-word phrases, multi-year exports and unseeded draws of 50, in turn): ${latencySummary(attack)}`,
    `normal client meanwhile: ${latencySummary(during)}`
  ]
}
