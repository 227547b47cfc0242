/**
 * A short soak of the built server under abuse, on loopback only, for anyone who wants to see it
 * hold: builds it, starts `node dist/server.js` on a free port, then runs, one after the other,
 *   1. wrk alone (the baseline),
 *   2. slowhttptest's slow-read attack, with a wrk probe measuring a normal client meanwhile,
 *   3. slowhttptest's slow-headers attack (slowloris), with the same probe,
 *   4. the costliest finding requests, each a first request, from 4 connections, while a normal
 *      client (1 connection) measures its p50/p99, alone and meanwhile (bench/soak-costly.ts),
 *   5. one address holding every connection it can, polling /healthz, while another address's
 *      requests are counted, answered or failed (bench/soak-slot-holder.ts),
 *   6. wrk with SIGTERM sent midway (the drain on shutdown: wrk counts the resets),
 * and prints each phase's figures and the server's memory and open descriptors after it. The
 * probes of phases 2 and 3 reach the server from 127.0.0.4 (through a forwarder): coming from the
 * attacker's address, they would meet its connection cap (MAX_CONNECTIONS_PER_CLIENT), not the
 * server's answer to another client.
 * Needs wrk and slowhttptest (Debian packages of those names). About two minutes.
 *
 *   npm run soak
 *   ENEM_DATA_DIR=../shared/enem-data npm run soak     # on the full dataset
 *   SOAK_SECONDS=5 npm run soak                        # shorter phases
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { runToEnd } from './run-to-end.ts'
import { costlyPhase } from './soak-costly.ts'
import { forwardFrom, slotHolderPhase } from './soak-slot-holder.ts'
import { loadConfig } from '../src/config.ts'
import { startCommand } from './start-command.ts'

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))
const SECONDS = Number(process.env.SOAK_SECONDS ?? 15)
const TARGET = '/v1/exams/2020'

for (const tool of ['wrk', 'slowhttptest']) {
  if (spawnSync('which', [tool]).status !== 0) {
    console.error(`${tool} is not installed (apt-get install ${tool}); the soak needs it`)
    process.exit(1)
  }
}

function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')))
    })
  })
}

/** wrk's figures that matter here, one line. */
function wrkSummary (output: string): string {
  const pick = (pattern: RegExp) => pattern.exec(output)?.[1]?.trim()
  const parts = [
    `${pick(/Requests\/sec:\s+([\d.]+)/) ?? '?'} req/s`,
    `latency avg ${pick(/Latency\s+(\S+)/) ?? '?'}, p99 ${pick(/\s99%\s+(\S+)/) ?? '?'}`,
    `${pick(/(\d+) requests in/) ?? '?'} requests`
  ]
  const errors = pick(/Socket errors: (.*)/)
  parts.push(errors === undefined ? 'no socket errors' : `socket errors: ${errors}`)
  const non2xx = pick(/Non-2xx or 3xx responses: (\d+)/)
  if (non2xx !== undefined) parts.push(`${non2xx} non-2xx`)
  return parts.join('; ')
}

const wrk = (port: number, connections: number, seconds: number) =>
  runToEnd('wrk', ['-t2', `-c${connections}`, `-d${seconds}s`, '--latency', '-H', 'Accept-Encoding: identity', `http://127.0.0.1:${port}${TARGET}`])

/** slowhttptest's last statistics row: connections closed, pending, connected, and whether the service stayed available. */
async function slowhttptest (mode: '-X' | '-H', port: number, seconds: number, workDir: string): Promise<string> {
  const prefix = path.join(workDir, mode === '-X' ? 'slow-read' : 'slow-headers')
  const common = ['-c', '1000', '-r', '200', '-l', String(seconds), '-g', '-o', prefix, '-p', '3', '-u', `http://127.0.0.1:${port}${TARGET}`]
  const args = mode === '-X'
    ? ['-X', ...common, '-k', '10', '-n', '5', '-w', '1', '-y', '16', '-z', '8']
    : ['-H', ...common, '-i', '5', '-x', '16']
  const output = await runToEnd('slowhttptest', args)
  const csv = await readFile(`${prefix}.csv`, 'utf8').catch(() => undefined)
  if (csv === undefined) return `slowhttptest failed: ${output.trim().split('\n').slice(-3).join(' ')}`
  const rows = csv.trim().split('\n')
  const header = rows[0]!.toLowerCase().split(',')
  const maxConnected = Math.max(...rows.slice(1).map((row) => Number(row.split(',')[header.indexOf('connected')] ?? 0)))
  const last = rows.at(-1)!.split(',')
  const field = (name: string) => last[header.indexOf(name)] ?? '?'
  const unavailable = rows.slice(1).filter((row) => Number(row.split(',')[header.indexOf('service available')]) === 0).length
  return `after ${field('seconds')} s: ${field('closed')} closed by the server, ${field('pending')} pending, ${field('connected')} still connected ` +
    `(at most ${maxConnected} at once); seconds its probe found the service unavailable: ${unavailable}`
}

/** Resident memory and open descriptors of the server process. */
async function serverState (pid: number): Promise<string> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const rss = /VmRSS:\s+(\d+) kB/.exec(status)?.[1]
  const descriptors = (await readdir(`/proc/${pid}/fd`)).length
  return `server: rss ${rss === undefined ? '?' : `${(Number(rss) / 1024).toFixed(0)} MB`}, ${descriptors} open descriptors`
}

console.log('building (npm run build)')
if (spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' }).status !== 0) process.exit(1)
const port = await freePort()
const workDir = await mkdtemp(path.join(tmpdir(), 'enem-soak-'))
const server = spawn(process.execPath, startCommand(REPO_ROOT).slice(1), {
  cwd: REPO_ROOT,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { RATE_LIMIT_MAX: '0', ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WEB_CONCURRENCY: '1' }
})
const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)))
try {
  for (let ready = false; !ready;) {
    await sleep(200)
    ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((response) => response.ok, () => false)
  }
  console.log(`server on 127.0.0.1:${port}, pid ${server.pid}; ${SECONDS} s per phase; target ${TARGET}`)

  console.log(`\n1. wrk, 64 connections: ${wrkSummary(await wrk(port, 64, SECONDS))}`)
  console.log(`   ${await serverState(server.pid!)}`)

  for (const [mode, name] of [['-X', 'slow read'], ['-H', 'slow headers (slowloris)']] as const) {
    // What the server holds, sampled each second: the attacker's own count cannot see a connection the
    // server closed until it has read what the kernel still had for it.
    const held: number[] = []
    const sampler = setInterval(() => { readdir(`/proc/${server.pid}/fd`).then((fds) => held.push(fds.length), () => {}) }, 1_000)
    const probeForwarder = await forwardFrom('127.0.0.4', port)
    const [attack, probe] = await Promise.all([slowhttptest(mode, port, SECONDS + 5, workDir), sleep(3_000).then(() => wrk(probeForwarder.port, 8, SECONDS))])
    probeForwarder.close()
    clearInterval(sampler)
    console.log(`\n${mode === '-X' ? 2 : 3}. slowhttptest ${name}, 1,000 connections: ${attack}`)
    console.log(`   server's open descriptors each second: ${held.join(' ')}`)
    console.log(`   meanwhile wrk, 8 connections from another address: ${wrkSummary(probe)}`)
    await sleep(1_000)
    console.log(`   ${await serverState(server.pid!)}`)
  }

  console.log('\n4. costly requests from a few connections, a normal client measured meanwhile:')
  for (const line of await costlyPhase(port, SECONDS, workDir, '/v1/exams/2020/questions/1')) console.log(`   ${line}`)
  console.log(`   ${await serverState(server.pid!)}`)

  const { max: maxConnections, maxPerClient } = loadConfig(process.env).connections
  console.log(`\n5. one address holding every connection it can (MAX_CONNECTIONS ${maxConnections}, per client ${maxPerClient}), another address meanwhile:`)
  for (const line of await slotHolderPhase(port, SECONDS, maxConnections, TARGET)) console.log(`   ${line}`)
  await sleep(1_000)
  console.log(`   ${await serverState(server.pid!)}`)

  // Long enough to span the drain delay (SHUTDOWN_DRAIN_DELAY, 5 s by default) and the close after it.
  const load = wrk(port, 64, SECONDS + 10)
  await sleep(SECONDS * 1000 / 3)
  const signalledAt = Date.now()
  server.kill('SIGTERM')
  const code = await exited
  const exitMs = Date.now() - signalledAt
  console.log(`\n6. SIGTERM under wrk (64 connections): exit code ${code} after ${exitMs} ms`)
  console.log(`   wrk: ${wrkSummary(await load)}`)
  console.log('   (wrk ignores /readyz: once the listener has closed, its refused reconnections count as write errors, and a' +
    ' connection the kernel had queued but the server never accepted is reset: read errors)')
} finally {
  if (server.exitCode === null) server.kill('SIGKILL')
  await rm(workDir, { recursive: true, force: true })
}
