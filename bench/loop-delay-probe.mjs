/*
 * Loaded into the server process (`node --import ./bench/loop-delay-probe.mjs dist/server.js`) by
 * bench/soak.ts, to see what the contract bounds: how long the event loop was held. Two measures,
 * as the contract names them: monitorEventLoopDelay's max, and the largest gap a 10 ms timer sees
 * beyond its 10 ms. Asked over the IPC channel (`'loop-delay'`), it answers both since the last
 * question, in milliseconds, and starts again. With LOOP_DELAY_TRACE=<ms>, each gap over that is
 * also written to stderr with the time since start, to find what held the loop.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'

const TICK_MS = 10
const trace = Number(process.env.LOOP_DELAY_TRACE ?? 0)
const histogram = monitorEventLoopDelay({ resolution: TICK_MS })
histogram.enable()
let longestGap = 0
let last = performance.now()
setInterval(() => {
  const now = performance.now()
  const gap = now - last - TICK_MS
  last = now
  if (gap > longestGap) longestGap = gap
  if (trace > 0 && gap > trace) process.stderr.write(`loop-delay: ${gap.toFixed(1)} ms gap at +${(now / 1000).toFixed(2)} s\n`)
}, TICK_MS).unref()

if (process.send !== undefined) {
  process.on('message', (message) => {
    if (message !== 'loop-delay') return
    process.send({ histogramMaxMs: histogram.max / 1e6, timerGapMs: longestGap })
    histogram.reset()
    longestGap = 0
  })
  process.channel?.unref()
}
