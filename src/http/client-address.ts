import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import type { Config } from '../config.ts'

/** Whether the hop at position `i` (0: the socket's peer), with this address, may name the one before it. */
export type TrustProxy = (address: string, hop: number) => boolean

const TRUST_NOBODY: TrustProxy = () => false
const TRUST_EVERYBODY: TrustProxy = () => true

/**
 * TRUST_PROXY as a function, handed to Fastify (for `request.ip`) and used by the fast path, so
 * both name the same client. A hop count trusts that many proxies in front of us whatever their
 * address: Fastify 5 itself turns a bare count into "trust nobody", which would make
 * `TRUST_PROXY=1` (one load balancer) count every client as the balancer.
 */
export function trustProxyFunction (trustProxy: Config['trustProxy']): TrustProxy {
  if (trustProxy === false) return TRUST_NOBODY
  if (trustProxy === true) return TRUST_EVERYBODY
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy
  return proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()))
}

/**
 * The client's address as Fastify's `request.ip` gives it: the socket's peer, or the furthest
 * X-Forwarded-For entry reached through trusted hops. Undefined once the socket is gone.
 */
export function clientAddress (request: IncomingMessage, trust: TrustProxy): string | undefined {
  if (trust === TRUST_NOBODY) return request.socket.remoteAddress
  if (request.socket.remoteAddress === undefined) return undefined
  return proxyAddr(request, trust)
}
