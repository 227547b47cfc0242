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
 *   6. the walk the contract's memory bound names (every exam's pages, the export, eight searches,
 *      one sheet per booklet), then a long mix of every kind of request from a few connections
 *      (bench/soak-mix.ts; SOAK_MIX_SECONDS, 600 by default), the server's memory sampled as it runs:
 *      it must stay flat,
 *   7. a restart under that mix: a second server is started, the load moves to it as soon as its
 *      /readyz answers 200 (a search 1 ms after), and the first is sent SIGTERM,
 *   8. wrk with SIGTERM sent midway (the drain on shutdown: wrk counts the resets),
 *   9. fair under a burst: one address spending its whole quota (the default limit) on the costliest
 *      MCP and REST calls from 32 connections, each flood against a fresh server, while another
 *      address asks for a single question every 10 ms (bench/soak-burst.ts),
 *  10. the external battery's memory mix (../shared/soak/mixmem.lua with wrk, as it is; 8
 *      connections for SOAK_BATTERY_SECONDS, 1,200 by default) on a fresh server, its RSS every 5 s:
 *      at most 300 MB at the end, flat over the second half,
 * and prints each phase's figures, the largest event-loop delay the server saw during it
 * (bench/loop-delay-probe.mjs, loaded into the server) and its memory and open descriptors after it. The
 * probes of phases 2 and 3 reach the server from 127.0.0.4 (through a forwarder): coming from the
 * attacker's address, they would meet its connection cap (MAX_CONNECTIONS_PER_CLIENT), not the
 * server's answer to another client.
 * Needs wrk and slowhttptest (Debian packages of those names). About two minutes.
 *
 *   npm run soak
 *   ENEM_DATA_DIR=../shared/enem-data npm run soak     # on the full dataset
 *   SOAK_SECONDS=5 npm run soak                        # shorter phases
 *   SOAK_MIX_SECONDS=60 npm run soak                   # a shorter mix
 *   SOAK_PHASES=burst,battery npm run soak             # some phases: abuse (1 to 8), burst (9), battery (10)
 *   SOAK_BATTERY=../shared/soak SOAK_BATTERY_SECONDS=1200 # where the battery's mix is, and how long it runs
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
import { describeTally, mixSource, runMix, runWalk, send } from './soak-mix.ts'
import { burstPhase } from './soak-burst.ts'
import { batteryMixPhase, slope } from './soak-battery.ts'
import { Agent } from 'node:http'
import type { ChildProcess } from 'node:child_process'
import { loadConfig } from '../src/config.ts'
import { startCommand, startEnvironment } from './start-command.ts'

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))
const SECONDS = Number(process.env.SOAK_SECONDS ?? 15)
const MIX_SECONDS = Number(process.env.SOAK_MIX_SECONDS ?? 600)
/** Connections of the mix: a few busy clients. */
const MIX_CONNECTIONS = 8
/** How often the mix samples the server's memory. */
const MIX_SAMPLES = 20
const TARGET = '/v1/exams/2020'
const PHASES = new Set((process.env.SOAK_PHASES ?? 'abuse,burst,battery').split(',').map((name) => name.trim()))
const BATTERY_DIR = process.env.SOAK_BATTERY ?? path.join(fileURLToPath(new URL('..', import.meta.url)), '..', 'shared', 'soak')
const BATTERY_SECONDS = Number(process.env.SOAK_BATTERY_SECONDS ?? 1200)

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
const workDir = await mkdtemp(path.join(tmpdir(), 'enem-soak-'))

interface Server { child: ChildProcess, port: number, exited: Promise<number | null>, startedAt: number }

/** Starts the built server as `npm start` does, with the event-loop probe loaded and an IPC channel to ask it; `env` over the soak's own. */
async function startServer (env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort()
  const [, ...args] = startCommand(REPO_ROOT)
  args.splice(args.length - 1, 0, '--import', './bench/loop-delay-probe.mjs')
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { RATE_LIMIT_MAX: '0', ...process.env, ...startEnvironment(REPO_ROOT), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WEB_CONCURRENCY: '1', ...env }
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, port, exited, startedAt: performance.now() }
}

/** Polls /readyz every 5 ms until it answers 200; resolves with the milliseconds since the server was spawned. */
async function untilReady (server: Server): Promise<number> {
  for (;;) {
    if (await fetch(`http://127.0.0.1:${server.port}/readyz`).then((response) => response.ok, () => false)) return performance.now() - server.startedAt
    if (server.child.exitCode !== null) throw new Error(`the server exited (${server.child.exitCode}) before it was ready`)
    await sleep(5)
  }
}

/** The largest event-loop delay the server saw since the last time it was asked (the probe then starts again). */
function loopDelay (server: Server): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('event loop: no answer from the probe'), 5_000)
    server.child.once('message', (message: { histogramMaxMs: number, timerGapMs: number }) => {
      clearTimeout(timer)
      resolve(`largest event-loop delay: ${message.histogramMaxMs.toFixed(1)} ms (monitorEventLoopDelay max), ${message.timerGapMs.toFixed(1)} ms (a 10 ms timer's largest gap)`)
    })
    server.child.send('loop-delay')
  })
}

/** A fresh server for a phase of its own: its port, and how to stop it. */
async function freshServer (env: Record<string, string> = {}): Promise<{ server: Server, port: number, stop: () => Promise<void> }> {
  const fresh = await startServer(env)
  await untilReady(fresh)
  return {
    server: fresh,
    port: fresh.port,
    stop: async () => {
      fresh.child.kill('SIGTERM')
      await fresh.exited
    }
  }
}

// Phases 1 to 8 run on one server (and its successor after the restart); the others start their own.
let server!: Server
let port = 0
try {
  if (PHASES.has('abuse')) await abusePhases()
  if (PHASES.has('burst')) {
    console.log('\n9. fair under a burst: one address spends its quota (RATE_LIMIT_MAX 600 a minute, the default) from 32 connections, another asks meanwhile:')
    for (const line of await burstPhase(() => freshServer({ RATE_LIMIT_MAX: '600', RATE_LIMIT_WINDOW: '60s' }), workDir, '/v1/exams/2020/questions/1')) console.log(`   ${line}`)
  }
  if (PHASES.has('battery')) {
    console.log(`\n10. the external battery's memory mix (${BATTERY_DIR}), 8 connections for ${BATTERY_SECONDS} s, on a fresh server:`)
    for (const line of await batteryMixPhase(() => freshServer(), BATTERY_DIR, BATTERY_SECONDS)) console.log(`   ${line}`)
  }
} finally {
  if (server !== undefined && server.child.exitCode === null) server.child.kill('SIGKILL')
  await rm(workDir, { recursive: true, force: true })
}

/** Phases 1 to 8, on a server of their own (and its successor after the restart). */
async function abusePhases (): Promise<void> {
  server = await startServer()
  port = server.port
  const readyMs = await untilReady(server)
  await loopDelay(server)
  console.log(`server on 127.0.0.1:${port}, pid ${server.child.pid}, ready ${readyMs.toFixed(0)} ms after spawn; ${SECONDS} s per phase; target ${TARGET}`)

  console.log(`\n1. wrk, 64 connections: ${wrkSummary(await wrk(port, 64, SECONDS))}`)
  console.log(`   ${await loopDelay(server)}`)
  console.log(`   ${await serverState(server.child.pid!)}`)

  for (const [mode, name] of [['-X', 'slow read'], ['-H', 'slow headers (slowloris)']] as const) {
    // What the server holds, sampled each second: the attacker's own count cannot see a connection the
    // server closed until it has read what the kernel still had for it.
    const held: number[] = []
    const sampler = setInterval(() => { readdir(`/proc/${server.child.pid}/fd`).then((fds) => held.push(fds.length), () => {}) }, 1_000)
    const probeForwarder = await forwardFrom('127.0.0.4', port)
    const [attack, probe] = await Promise.all([slowhttptest(mode, port, SECONDS + 5, workDir), sleep(3_000).then(() => wrk(probeForwarder.port, 8, SECONDS))])
    probeForwarder.close()
    clearInterval(sampler)
    console.log(`\n${mode === '-X' ? 2 : 3}. slowhttptest ${name}, 1,000 connections: ${attack}`)
    console.log(`   server's open descriptors each second: ${held.join(' ')}`)
    console.log(`   meanwhile wrk, 8 connections from another address: ${wrkSummary(probe)}`)
    console.log(`   ${await loopDelay(server)}`)
    await sleep(1_000)
    console.log(`   ${await serverState(server.child.pid!)}`)
  }

  console.log('\n4. costly requests from a few connections, a normal client measured meanwhile:')
  for (const line of await costlyPhase(port, SECONDS, workDir, '/v1/exams/2020/questions/1')) console.log(`   ${line}`)
  console.log(`   ${await loopDelay(server)}`)
  console.log(`   ${await serverState(server.child.pid!)}`)

  const { max: maxConnections, maxPerClient } = loadConfig(process.env).connections
  console.log(`\n5. one address holding every connection it can (MAX_CONNECTIONS ${maxConnections}, per client ${maxPerClient}), another address meanwhile:`)
  for (const line of await slotHolderPhase(port, SECONDS, maxConnections, TARGET)) console.log(`   ${line}`)
  console.log(`   ${await loopDelay(server)}`)
  await sleep(1_000)
  console.log(`   ${await serverState(server.child.pid!)}`)

  const source = await mixSource(`http://127.0.0.1:${port}`)
  await loopDelay(server)
  console.log(`\n6. the walk (${source.exams.length} exams' pages of 50, the whole export, eight searches, one sheet per booklet: ${source.walk.length} requests): ${describeTally(await runWalk(port, source))}`)
  console.log(`   ${await serverState(server.child.pid!)} after the walk`)
  const samples: Array<{ minute: number, rss: number }> = []
  const mixStart = performance.now()
  const sampler = setInterval(() => {
    readFile(`/proc/${server.child.pid}/status`, 'utf8').then((status) => {
      samples.push({ minute: (performance.now() - mixStart) / 60_000, rss: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024 })
    }, () => {})
  }, MIX_SECONDS * 1000 / MIX_SAMPLES)
  const mixTally = await runMix(() => port, source, MIX_CONNECTIONS, () => performance.now() - mixStart > MIX_SECONDS * 1000)
  clearInterval(sampler)
  console.log(`   then the mix, ${MIX_CONNECTIONS} connections for ${MIX_SECONDS} s: ${describeTally(mixTally)}`)
  console.log(`   RSS every ${(MIX_SECONDS / MIX_SAMPLES).toFixed(0)} s: ${samples.map((sample) => sample.rss.toFixed(0)).join(' ')} MB`)
  const secondHalf = samples.filter((sample) => sample.minute >= MIX_SECONDS / 120)
  if (secondHalf.length >= 2) console.log(`   over the second half: ${slope(secondHalf).toFixed(2)} MB/min (least squares), largest ${Math.max(...secondHalf.map((sample) => sample.rss)).toFixed(0)} MB`)
  console.log(`   ${await loopDelay(server)}`)
  console.log(`   ${await serverState(server.child.pid!)}`)

  // A rolling restart: the load stays on the old server until the new one is ready, then moves; the old one is drained.
  let restarted = false
  const restartLoad = runMix(() => port, source, MIX_CONNECTIONS, () => restarted)
  await sleep(2_000)
  const old = server
  server = await startServer()
  const newReadyMs = await untilReady(server)
  await loopDelay(server)
  await sleep(1)
  const searchAgent = new Agent({ keepAlive: false })
  const searchStatus = await send(server.port, searchAgent, { method: 'GET', path: '/v1/questions?q=energia%20solar&limit=10' })
  port = server.port
  old.child.kill('SIGTERM')
  await sleep(SECONDS * 1000)
  restarted = true
  const restartTally = await restartLoad
  console.log(`\n7. restart under the mix: the new server ready ${newReadyMs.toFixed(0)} ms after spawn, a search 1 ms after its first /readyz 200: ${searchStatus}; the load moved to it, the old one sent SIGTERM (exit ${await old.exited}); ${describeTally(restartTally)}`)
  console.log(`   new server, from its first /readyz 200 on: ${await loopDelay(server)}`)
  console.log(`   ${await serverState(server.child.pid!)}`)

  // Long enough to span the drain delay (SHUTDOWN_DRAIN_DELAY, 5 s by default) and the close after it.
  const load = wrk(port, 64, SECONDS + 10)
  await sleep(SECONDS * 1000 / 3)
  const signalledAt = Date.now()
  const delay = loopDelay(server)
  server.child.kill('SIGTERM')
  const code = await server.exited
  const exitMs = Date.now() - signalledAt
  console.log(`\n8. SIGTERM under wrk (64 connections): exit code ${code} after ${exitMs} ms`)
  console.log(`   before the signal, ${await delay}`)
  console.log(`   wrk: ${wrkSummary(await load)}`)
  console.log('   (wrk ignores /readyz: once the listener has closed, its refused reconnections count as write errors, and a' +
    ' connection the kernel had queued but the server never accepted is reset: read errors)')
}
