import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import proxyAddr from '@fastify/proxy-addr'
import { normalizeIP } from '@fastify/rate-limit'
import type { Config } from '../config.ts'

/** Whether the hop at position `i` (0: the socket's peer), with this address, may name the one before it. */
export type TrustProxy = (address: string, hop: number) => boolean

const TRUST_NOBODY: TrustProxy = () => false
const TRUST_EVERYBODY: TrustProxy = () => true

/** Longest textual IP address (an IPv6 address with an embedded IPv4 one); anything longer is not one. */
const MAX_ADDRESS_LENGTH = 45

/**
 * TRUST_PROXY as a function, handed to Fastify (for `request.ip`) and used by the fast path, so
 * both name the same client. A hop count trusts that many proxies in front of us whatever their
 * address: Fastify 5 itself turns a bare count into "trust nobody", which would make
 * `TRUST_PROXY=1` (one load balancer) count every client as the balancer.
 */
export function trustProxyFunction (trustProxy: Config['trustProxy']): TrustProxy {
  let trust = compiledTrust.get(trustProxy)
  if (trust === undefined) {
    trust = compileTrust(trustProxy)
    compiledTrust.set(trustProxy, trust)
  }
  return trust
}

/** Each TRUST_PROXY setting compiled once: Fastify, the connection guard and the fast path get the same function. */
const compiledTrust = new Map<Config['trustProxy'], TrustProxy>()

function compileTrust (trustProxy: Config['trustProxy']): TrustProxy {
  if (trustProxy === false) return TRUST_NOBODY
  if (trustProxy === true) return TRUST_EVERYBODY
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy
  return proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()))
}

/**
 * The client's address: the socket's peer, or the furthest X-Forwarded-For entry reached through
 * trusted hops when that entry is an IP address. Whatever else a header holds (garbage, or
 * kilobytes of text) gives the socket's peer instead, so a client can never choose a key of its
 * own making for the rate limiter. Undefined once the socket is gone.
 */
export function clientAddress (request: IncomingMessage, trust: TrustProxy): string | undefined {
  const peer = request.socket.remoteAddress
  if (trust === TRUST_NOBODY || peer === undefined) return peer
  return validAddressOr(proxyAddr(request, trust), peer)
}

/**
 * `address` when it is an IP address, `fallback` otherwise. For Fastify's `request.ip`, which
 * believes whatever a trusted hop forwarded.
 */
export function validAddressOr (address: string | undefined, fallback: string | undefined): string | undefined {
  return address !== undefined && address.length <= MAX_ADDRESS_LENGTH && isIP(address) !== 0 ? address : fallback
}

/** IPv6 keys already worked out; cleared when full, so it stays small whatever the traffic. */
const ipv6Keys = new Map<string, string>()
const IPV6_KEYS_MAX = 10_000

/**
 * The rate-limit key of a client address (from clientAddress or validAddressOr, so an IP address
 * of at most MAX_ADDRESS_LENGTH characters): @fastify/rate-limit's normalizeIP (IPv6 grouped by
 * /64, IPv4-mapped IPv6 as IPv4), used by both request paths. normalizeIP is costly for an
 * IPv4-mapped address (every IPv4 client of a server listening on `::`) next to a fast-path
 * answer, so IPv6 results are remembered; an IPv4 address is its own key.
 */
export function rateLimitKey (address: string): string {
  if (!address.includes(':')) return address
  let key = ipv6Keys.get(address)
  if (key === undefined) {
    if (ipv6Keys.size >= IPV6_KEYS_MAX) ipv6Keys.clear()
    key = normalizeIP(address)
    ipv6Keys.set(address, key)
  }
  return key
}
