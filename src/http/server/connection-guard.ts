import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Config } from '../../config.ts'
import { rateLimitKey, type TrustProxy } from '../client-address.ts'
import { resetStalledAnswers } from './stalled-answers.ts'

/**
 * The connection limits: at most `max` connections at once (past it, new ones are closed as they
 * arrive, before a descriptor limit is reached and every file read fails with them), at most
 * `maxPerClient` of them from one client address, and no answer left stalled on a client that
 * stopped reading for `stallTimeoutMs` (resetStalledAnswers).
 *
 * The per-client cap keeps one address from taking every slot: before it, one client holding
 * every connection and polling `/healthz` on each made every other client's connection fail. An
 * address is keyed as the rate limit keys it (IPv6 by /64, src/http/client-address.ts), but from
 * the socket's peer only: a connection carries no X-Forwarded-For until its first request, and
 * then a proxy's carries many clients' requests one after another. So a peer that TRUST_PROXY
 * names as a proxy (hop 0 trusted: one of the listed addresses, or any peer with `true` or a hop
 * count) is not capped at all; it bounds its own clients, and the total cap still holds. Every
 * connection counts whatever it asks, `/healthz` included: the cap bounds what a health-check
 * flood can hold, and the health checks themselves stay free of the rate limit, so a balancer's
 * probes are never refused.
 */
export function guardConnections (server: Server, { max, maxPerClient, stallTimeoutMs }: Config['connections'], trust: TrustProxy): void {
  server.maxConnections = max
  if (maxPerClient < max) capConnectionsPerClient(server, maxPerClient, trust)
  resetStalledAnswers(server, stallTimeoutMs)
}

/** Closes, as it arrives, a connection whose address already holds `maxPerClient`; counts the others until they close. */
function capConnectionsPerClient (server: Server, maxPerClient: number, trust: TrustProxy): void {
  const heldByClient = new Map<string, number>()
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress
    // Gone already, or a proxy carrying many clients.
    if (peer === undefined || trust(peer, 0)) return
    const key = rateLimitKey(peer)
    const held = heldByClient.get(key) ?? 0
    if (held >= maxPerClient) {
      socket.destroy()
      return
    }
    heldByClient.set(key, held + 1)
    socket.once('close', () => {
      const left = heldByClient.get(key)! - 1
      if (left === 0) heldByClient.delete(key)
      else heldByClient.set(key, left)
    })
  })
}
