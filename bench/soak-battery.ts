import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { runToEnd } from './run-to-end.ts'

/*
 * The external battery's memory mix (issue 45), run as it is: its wrk script (mixmem.lua, with the
 * vocabulary and booklets it reads beside it) from 8 connections against a fresh server, whose
 * RSS is read every 5 s. Distinct searches, multi-year exports with and without gzip, scores of
 * every booklet and practice runs, unseeded draws (br), 2024 and second-application pages. The
 * bound: at most 300 MB after 20 minutes, and flat over the second half (at most 1 MiB a minute).
 */

const SAMPLE_EVERY_MS = 5_000
const MIB = 1024 * 1024
/** The contract's bound, 300 MB, in MiB. */
const RSS_BOUND_MIB = 300e6 / MIB

async function rssMib (pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024
}

/** The least-squares slope of RSS against time: in MiB per minute for samples in MiB and minutes. */
export function slope (samples: ReadonlyArray<{ minute: number, rss: number }>): number {
  const n = samples.length
  const meanX = samples.reduce((sum, sample) => sum + sample.minute, 0) / n
  const meanY = samples.reduce((sum, sample) => sum + sample.rss, 0) / n
  const covariance = samples.reduce((sum, sample) => sum + (sample.minute - meanX) * (sample.rss - meanY), 0)
  const variance = samples.reduce((sum, sample) => sum + (sample.minute - meanX) ** 2, 0)
  return variance === 0 ? 0 : covariance / variance
}

/** The battery's mix against a fresh server (`start`): what it answered, and the server's RSS over it. */
export async function batteryMixPhase (start: () => Promise<{ server: { child: { pid?: number | undefined } }, port: number, stop: () => Promise<void> }>, batteryDir: string, seconds: number): Promise<string[]> {
  const script = path.join(batteryDir, 'mixmem.lua')
  if (!existsSync(script)) return [`skipped: no ${script} (the external battery's mix; SOAK_BATTERY names its folder)`]
  const fresh = await start()
  const pid = fresh.server.child.pid!
  try {
    const atReady = await rssMib(pid)
    const samples: Array<{ minute: number, rss: number }> = []
    const startedAt = performance.now()
    const sampler = setInterval(() => {
      rssMib(pid).then((rss) => samples.push({ minute: (performance.now() - startedAt) / 60_000, rss }), () => {})
    }, SAMPLE_EVERY_MS)
    const output = await runToEnd('wrk', ['-t1', '-c8', `-d${seconds}s`, '--timeout', '20s', '-s', script, `http://127.0.0.1:${fresh.port}`], { ...process.env, BATTERY: batteryDir })
    clearInterval(sampler)
    const atEnd = await rssMib(pid)
    const secondHalf = samples.filter((sample) => sample.minute >= seconds / 120)
    const byMinute = samples.filter((_, at) => (at + 1) % (60_000 / SAMPLE_EVERY_MS) === 0).map((sample) => sample.rss.toFixed(0))
    const pick = (pattern: RegExp) => pattern.exec(output)?.[0]?.trim() ?? '?'
    return [
      `wrk: ${pick(/\d+ requests in [^,]+/)}; ${pick(/STATUS .*/)}; ${pick(/LAT .*/)}`,
      `RSS at ready ${atReady.toFixed(0)} MiB; each minute: ${byMinute.join(' ')} MiB; at the end ${atEnd.toFixed(0)} MiB (${(atEnd * MIB / 1e6).toFixed(0)} MB; the bound is 300 MB, ${RSS_BOUND_MIB.toFixed(0)} MiB)`,
      `over the second half: ${secondHalf.length < 2 ? '?' : slope(secondHalf).toFixed(2)} MiB/min (least squares), largest ${Math.max(...secondHalf.map((sample) => sample.rss)).toFixed(0)} MiB`
    ]
  } finally {
    await fresh.stop()
  }
}
