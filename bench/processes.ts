import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'

/*
 * The bench's child processes (servers and load generators): started pinned to a core when taskset
 * can, killed when the bench ends however it ends, and read from /proc for memory and CPU time.
 */

// ---------------------------------------------------------------------------------------------
// Pinning

export const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0 && os.availableParallelism() >= 2

/** Cores for the server and the load generator when pinning; empty prefixes when not. */
export const SERVER_CORE = hasTaskset ? ['taskset', '-c', '0'] : []
export const LOADER_CORE = hasTaskset ? ['taskset', '-c', '1'] : []

// ---------------------------------------------------------------------------------------------
// Processes

const children = new Set<ChildProcess>()

function track (child: ChildProcess): ChildProcess {
  children.add(child)
  child.once('exit', () => children.delete(child))
  return child
}

function killAll (): void {
  for (const child of children) child.kill('SIGKILL')
}
process.once('exit', killAll)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll()
    process.exit(130)
  })
}

export function spawnPinned (prefix: string[], command: string, args: string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  const [head, ...rest] = [...prefix, command, ...args]
  return track(spawn(head!, rest, options))
}

export function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = http.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

export async function stopProcess (child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
  const code = await exited
  clearTimeout(timer)
  return code
}

// ---------------------------------------------------------------------------------------------
// /proc

/**
 * Resident memory in MB of a process and every process it started (cluster workers): now (VmRSS)
 * and at its peak (VmHWM). The first moves with when V8 last collected its old space, so the
 * peak is printed beside it.
 */
export function rssMb (pid: number): { rssMb: number, peakMb: number, processes: number } {
  const pids = [pid, ...childPids(pid)]
  let kb = 0
  let peakKb = 0
  for (const one of pids) {
    const status = readFileSync(`/proc/${one}/status`, 'utf8')
    kb += Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0)
    peakKb += Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0)
  }
  return { rssMb: kb / 1024, peakMb: peakKb / 1024, processes: pids.length }
}

function childPids (pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** Kernel clock ticks per second, the unit of utime/stime in /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100

/** CPU time (user + system) in microseconds used so far by a process and the processes it started. */
export function cpuUs (pid: number): number {
  let ticks = 0
  for (const one of [pid, ...childPids(pid)]) {
    try {
      // Fields after the command name (which may hold spaces), so utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${one}/stat`, 'utf8').split(') ')[1]!.split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // A process that just exited: its time is gone with it.
    }
  }
  return (ticks * 1e6) / CLOCK_TICKS_PER_SECOND
}
