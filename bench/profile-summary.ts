import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/*
 * Prints the functions that took the most CPU time in a V8 .cpuprofile (node --cpu-prof), by self
 * time, with their inclusive ("total") time beside it, as a percentage of the busy time (idle
 * excluded, so a half-loaded and a fully loaded profile read alike).
 *
 * Usage: tsx bench/profile-summary.ts <file.cpuprofile> [count, default 15] [--total] [--skip-ms=N]
 * (--total sorts by inclusive time: what a hook or plugin costs with everything it calls;
 * --skip-ms leaves out the first N ms of the profile, i.e. the start-up, to see the serving alone.)
 */

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}

interface ProfileNode {
  id: number
  callFrame: CallFrame
  children?: number[]
}

interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Where a function lives, short: a package and its file, or a path in this repository. */
function place (url: string, line: number): string {
  if (url === '') return ''
  const file = url.startsWith('file://') ? fileURLToPath(url) : url
  const modules = file.lastIndexOf('/node_modules/')
  const short = modules !== -1 ? file.slice(modules + '/node_modules/'.length) : path.relative(ROOT, file) || file
  return `${short.startsWith('..') ? file : short}:${line + 1}`
}

function keyOf (frame: CallFrame): string {
  const where = place(frame.url, frame.lineNumber)
  return `${frame.functionName === '' ? '(anonymous)' : frame.functionName}${where === '' ? '' : ` ${where}`}`
}

/** Self and inclusive microseconds per function, plus the idle and busy totals. */
export function summarise (profile: CpuProfile, skipUs = 0): { rows: Array<{ key: string, selfUs: number, totalUs: number }>, busyUs: number, idleUs: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parentOf = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)

  const self = new Map<string, number>()
  const total = new Map<string, number>()
  let busyUs = 0
  let idleUs = 0
  let elapsedUs = 0
  profile.samples.forEach((id, i) => {
    elapsedUs += profile.timeDeltas[i] ?? 0
    if (elapsedUs < skipUs) return
    // A sample's duration is the gap to the next sample (V8 records the gap before each one).
    const us = profile.timeDeltas[i + 1] ?? 0
    const node = byId.get(id)
    if (node === undefined) return
    if (node.callFrame.functionName === '(idle)') {
      idleUs += us
      return
    }
    busyUs += us
    const key = keyOf(node.callFrame)
    self.set(key, (self.get(key) ?? 0) + us)
    // Inclusive time: once per distinct function on the stack, so recursion is not counted twice.
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frameKey = keyOf(byId.get(at)!.callFrame)
      if (seen.has(frameKey)) continue
      seen.add(frameKey)
      total.set(frameKey, (total.get(frameKey) ?? 0) + us)
    }
  })
  const rows = [...self.entries()].map(([key, selfUs]) => ({ key, selfUs, totalUs: total.get(key) ?? selfUs }))
  rows.sort((a, b) => b.selfUs - a.selfUs)
  return { rows, busyUs, idleUs }
}

function main (): void {
  const args = process.argv.slice(2)
  const byTotal = args.includes('--total')
  const skipMs = Number(args.find((arg) => arg.startsWith('--skip-ms='))?.slice('--skip-ms='.length) ?? 0)
  const [file, countArg] = args.filter((arg) => !arg.startsWith('--'))
  if (file === undefined) {
    process.stderr.write('usage: tsx bench/profile-summary.ts <file.cpuprofile> [count] [--total] [--skip-ms=N]\n')
    process.exit(2)
  }
  const count = countArg === undefined ? 15 : Number(countArg)
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const { rows, busyUs, idleUs } = summarise(profile, skipMs * 1000)
  if (byTotal) rows.sort((a, b) => b.totalUs - a.totalUs)
  const percent = (us: number) => `${((100 * us) / busyUs).toFixed(1).padStart(5)}%`
  process.stdout.write(`${path.basename(file)}${skipMs > 0 ? ` after ${skipMs} ms` : ''}: busy ${(busyUs / 1000).toFixed(0)} ms, idle ${(idleUs / 1000).toFixed(0)} ms; percentages of busy time\n`)
  process.stdout.write(' self  total  function\n')
  for (const row of rows.slice(0, count)) {
    process.stdout.write(`${percent(row.selfUs)} ${percent(row.totalUs)}  ${row.key}\n`)
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
