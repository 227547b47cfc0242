import net, { type AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

/*
 * The soak's slot-holder phase (issue 26, item 1): one address (127.0.0.2) opens every connection
 * the server allows and keeps them, each asking for /healthz every few seconds, while another
 * address (127.0.0.3) asks for a page on a fresh connection each time; the phase counts how many
 * connections the holder got and how many of the other client's requests were answered or failed.
 * Loopback only, bounded in count (the holder's connections, the other client's requests) and in
 * time (`seconds`).
 */

const HOLDER_ADDRESS = '127.0.0.2'
const OTHER_ADDRESS = '127.0.0.3'
/** How often each held connection asks for /healthz (the attack seen: 1,000 connections, every 4 s). */
const POLL_MS = 4_000
/** At most this many requests of the other client, one every OTHER_EVERY_MS. */
const OTHER_REQUESTS_MAX = 200
const OTHER_EVERY_MS = 50

/**
 * A forwarder on 127.0.0.1 whose connections reach the server from `localAddress`: for a client
 * that cannot choose its source address (wrk), to count as another client than one on 127.0.0.1.
 */
export async function forwardFrom (localAddress: string, port: number): Promise<{ port: number, close: () => void }> {
  const sockets = new Set<net.Socket>()
  const forwarder = net.createServer((client) => {
    const upstream = net.connect({ port, host: '127.0.0.1', localAddress })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
      socket.on('error', () => { client.destroy(); upstream.destroy() })
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve))
  return {
    port: (forwarder.address() as AddressInfo).port,
    close: () => {
      forwarder.close()
      for (const socket of sockets) socket.destroy()
    }
  }
}

/** One request on a fresh connection from `localAddress`: the status, or 0 when the connection failed or closed unanswered. */
function requestFrom (localAddress: string, port: number, target: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress })
    let head = ''
    const done = (status: number) => {
      socket.destroy()
      resolve(status)
    }
    socket.setTimeout(10_000, () => done(0))
    socket.once('connect', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: soak\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n`))
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1')
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]
      if (status !== undefined) done(Number(status))
    })
    socket.on('error', () => done(0))
    socket.once('close', () => done(0))
  })
}

/** A connection of the holder, kept open and asking for /healthz every POLL_MS; resolves once it is answered the first time, or closed. */
function holdConnection (port: number, until: number): Promise<{ held: boolean, socket: net.Socket }> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: HOLDER_ADDRESS })
    let answered = false
    const ask = () => socket.write('GET /healthz HTTP/1.1\r\nHost: soak\r\n\r\n')
    socket.once('connect', ask)
    socket.on('data', () => {
      if (!answered) {
        answered = true
        resolve({ held: true, socket })
      }
    })
    const poll = setInterval(() => { if (Date.now() < until && !socket.destroyed) ask() }, POLL_MS)
    socket.on('error', () => {})
    socket.once('close', () => {
      clearInterval(poll)
      resolve({ held: answered, socket })
    })
  })
}

/** The phase's lines of report. `maxConnections`: how many the holder tries to hold (the server's MAX_CONNECTIONS). */
export async function slotHolderPhase (port: number, seconds: number, maxConnections: number, target: string): Promise<string[]> {
  const until = Date.now() + seconds * 1000
  const holder = await Promise.all(Array.from({ length: maxConnections }, () => holdConnection(port, until)))
  const held = holder.filter((one) => one.held).length

  const statuses: number[] = []
  const latencies: number[] = []
  while (Date.now() < until && statuses.length < OTHER_REQUESTS_MAX) {
    const startedAt = performance.now()
    statuses.push(await requestFrom(OTHER_ADDRESS, port, target))
    latencies.push(performance.now() - startedAt)
    await sleep(OTHER_EVERY_MS)
  }
  const stillHeld = holder.filter((one) => one.held && !one.socket.destroyed).length
  for (const { socket } of holder) socket.destroy()

  latencies.sort((a, b) => a - b)
  const percentile = (p: number) => latencies.length === 0 ? '?' : `${latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1)} ms`
  const answered = statuses.filter((status) => status === 200).length
  return [
    `holder (${HOLDER_ADDRESS}) tried ${maxConnections} connections: ${held} held and answered, ${maxConnections - held} closed by the server; ` +
      `${stillHeld} still open after ${seconds} s of /healthz every ${POLL_MS / 1000} s`,
    `other client (${OTHER_ADDRESS}), a fresh connection per request: ${answered} of ${statuses.length} answered 200, ` +
      `${statuses.filter((status) => status === 0).length} failed, ${statuses.length - answered - statuses.filter((status) => status === 0).length} other statuses; ` +
      `latency p50 ${percentile(0.5)}, p99 ${percentile(0.99)}`
  ]
}
