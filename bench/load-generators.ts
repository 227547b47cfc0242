import type { ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { LoadJob, LoadResult } from './load.ts'
import { LOADER_CORE, spawnPinned, stopProcess } from './processes.ts'

// ---------------------------------------------------------------------------------------------
// Load generators

export interface LoadGenerator {
  run (job: LoadJob, pinned: boolean): Promise<LoadResult>
  close (): Promise<void>
}

/** wrk reports through this script: one JSON line, latencies in microseconds. */
const WRK_REPORT_SCRIPT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"durationUs":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"status":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d,"bytes":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency.max, summary.bytes))
end
`

interface WrkReport {
  requests: number
  durationUs: number
  connect: number
  read: number
  write: number
  timeout: number
  status: number
  p50Us: number
  p99Us: number
  maxUs: number
  bytes: number
}

/**
 * A wrk script that sends `paths` in turn, one per request (so a cache of one URL cannot help),
 * starting after the path its first argument names (so that runs can go on where the last one
 * stopped), plus the report. Paths are percent-encoded ASCII: safe inside Lua's double quotes.
 *
 * Every request is formatted in `init`, before wrk starts its clock. Formatting each one as it was
 * sent made wrk itself stall over the unrepeated search's many paths, and every connection waiting
 * on wrk's one thread counted the stall as the server's latency: a bare node:http server answering
 * every path alike showed a p99 several times higher than with the requests formatted beforehand
 * (bench/results.md has the figures). Cycling only the first 1,000 of the same paths did not stall,
 * so the cost is in making ever-new request strings (most likely LuaJIT's string table growing).
 */
function wrkPathsScript (paths: string[]): string {
  return `
local paths = {${paths.map((one) => `"${one}"`).join(',')}}
local requests = {}
local sent = 0
init = function(args)
  for i, one in ipairs(paths) do requests[i] = wrk.format(nil, one) end
  sent = tonumber(args[1] or "0") % #requests
end
request = function()
  sent = sent % #requests + 1
  return requests[sent]
end
${WRK_REPORT_SCRIPT}`
}

/** A wrk script that POSTs one body with every request, plus the report. */
function wrkBodyScript (body: string): string {
  if (body.includes(']==]')) throw new Error('a bench body cannot hold ]==]')
  return `
wrk.method = "POST"
wrk.body = [==[${body}]==]
${WRK_REPORT_SCRIPT}`
}

/** The file of the wrk script `write` makes of a value: written on first use, then reused for the same value. */
function scriptFiles<T> (name: string, write: (value: T) => string): (value: T) => string {
  const files = new Map<T, string>()
  return (value) => {
    let file = files.get(value)
    if (file === undefined) {
      file = path.join(os.tmpdir(), `enem-bench-${name}-${process.pid}-${files.size}.lua`)
      writeFileSync(file, write(value))
      files.set(value, file)
    }
    return file
  }
}

export function wrkGenerator (): LoadGenerator {
  const scriptPath = path.join(os.tmpdir(), `enem-bench-report-${process.pid}.lua`)
  writeFileSync(scriptPath, WRK_REPORT_SCRIPT)
  // One script per list of paths (the unrepeated search list is a few megabytes) and per body, written once.
  const pathsScriptFor = scriptFiles('paths', wrkPathsScript)
  const bodyScriptFor = scriptFiles('body', wrkBodyScript)
  return {
    run (job, pinned) {
      if (job.body !== undefined && job.paths !== undefined) throw new Error('a bench scenario sends either a body or paths')
      const script = job.body !== undefined ? bodyScriptFor(job.body) : job.paths === undefined ? scriptPath : pathsScriptFor(job.paths)
      const headerArgs = Object.entries(job.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`])
      const args = ['-t1', `-c${job.connections}`, `-d${job.durationSeconds}s`, '--timeout', '2s', '-s', script, ...headerArgs, job.url, '--', String(job.startAt ?? 0)]
      const child = spawnPinned(pinned ? LOADER_CORE : [], 'wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] })
      let output = ''
      child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString() })
      child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString() })
      return new Promise((resolve, reject) => {
        child.once('exit', (code) => {
          const line = output.split('\n').reverse().find((text) => text.startsWith('{'))
          if (code !== 0 || line === undefined) {
            reject(new Error(`wrk failed (${code}): ${output.trim()}`))
            return
          }
          const report = JSON.parse(line) as WrkReport
          const durationSeconds = report.durationUs / 1e6
          resolve({
            requests: report.requests,
            durationSeconds,
            requestsPerSecond: report.requests / durationSeconds,
            p50Ms: report.p50Us / 1000,
            p99Ms: report.p99Us / 1000,
            maxMs: report.maxUs / 1000,
            errors: report.connect + report.read + report.write + report.timeout,
            // wrk counts a status of 400 or more; nothing here answers 1xx or 3xx.
            non2xx: report.status,
            bytesRead: report.bytes
          })
        })
      })
    },
    async close () {}
  }
}

/** bench/load.ts in a child process; `root` is the repository's, where it runs. */
export function autocannonGenerator (root: string): LoadGenerator {
  const workers = new Map<boolean, ChildProcess>()
  const workerFor = (pinned: boolean): ChildProcess => {
    let child = workers.get(pinned)
    if (child === undefined) {
      child = spawnPinned(pinned ? LOADER_CORE : [], process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'load.ts')], {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc']
      })
      workers.set(pinned, child)
    }
    return child
  }
  return {
    run (job, pinned) {
      const child = workerFor(pinned)
      return new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`autocannon child exited (${code})`))
        child.once('exit', onExit)
        child.once('message', (message: unknown) => {
          child.off('exit', onExit)
          resolve(message as LoadResult)
        })
        child.send(job)
      })
    },
    async close () {
      for (const child of workers.values()) await stopProcess(child)
    }
  }
}
