import { fileURLToPath } from 'node:url'
import { isIP } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import proxyAddr from '@fastify/proxy-addr'
import { dataFolders } from './data/dataset/data-folders.ts'

/** Folder of the sample dataset that ships with the repo, served when ENEM_DATA_DIR is unset. */
export const SAMPLE_DATA_DIR = fileURLToPath(new URL('../data/sample', import.meta.url))

/** The start-up cache's folder in the system's temporary one, unless CACHE_DIR says otherwise. */
const DEFAULT_CACHE_FOLDER = 'enem-api-cache'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = typeof LOG_LEVELS[number]

/** The whole runtime configuration, parsed and validated once from the environment. */
export interface Config {
  port: number
  host: string
  /** Base of every absolute address the API hands out (file addresses, OpenAPI servers), no trailing slash. */
  publicUrl: string
  /** The dataset folders as ENEM_DATA_DIR names them (resolved, `:`-separated), for messages. */
  dataDir: string
  /** The dataset folders to serve together, in order: one, or several (ENEM_DATA_DIR=/srv/enem-data:/srv/enem-ppl). */
  dataDirs: readonly string[]
  /** True when ENEM_DATA_DIR was not given and the built-in sample dataset is served. */
  usingSampleData: boolean
  rateLimit: {
    /** Requests allowed per window and client; 0 turns rate limiting off. */
    max: number
    /** Window length in milliseconds. */
    windowMs: number
  }
  redisUrl: string | undefined
  /** TRUST_PROXY: false, true, a hop count, or a list of addresses/CIDRs (src/http/client-address.ts makes it the trust function both request paths use). */
  trustProxy: boolean | number | string
  logLevel: LogLevel
  /** Worker processes to run (node:cluster); 1 runs in-process. */
  webConcurrency: number
  /** Per process: how many connections are held at once, and how long an answer may stall on a client that does not read. */
  connections: {
    /** Connections past this many are closed as they arrive. */
    max: number
    /**
     * Connections one client address (IPv6: one /64) holds at once; past it, its new ones are
     * closed as they arrive. A peer TRUST_PROXY names as a proxy is not capped (src/http/server/connection-guard.ts).
     */
    maxPerClient: number
    /** A connection whose client has taken (almost) none of its answer for this long is reset (src/http/server/stalled-answers.ts). */
    stallTimeoutMs: number
  }
  /** After SIGTERM, how long the server keeps serving (with /readyz at 503) before it stops accepting connections. */
  shutdownDrainMs: number
  /** CACHE_DIR: where start-up keeps what it makes at a cost for the next start (src/data/dataset/start-up-cache.ts); null for nowhere. */
  cacheDir: string | null
}

export const CONFIG_DEFAULTS = {
  port: 3000,
  host: '0.0.0.0',
  rateLimitMax: 600,
  rateLimitWindowMs: 60_000,
  logLevel: 'info' as LogLevel,
  webConcurrency: 1,
  maxConnections: 1_000,
  responseStallTimeoutMs: 10_000,
  shutdownDrainMs: 5_000
}

const MAX_SHOWN_VALUE = 80

function shorten (value: string, length: number): string {
  return value.length > length ? `${value.slice(0, length)}…` : value
}

/** Thrown for an invalid environment value; its message is the one line printed at start-up. */
export class ConfigError extends Error {
  constructor (variable: string, expected: string, got: string) {
    // Cut, so a pasted blob still makes one short line.
    super(`Invalid ${variable}=${JSON.stringify(shorten(got, MAX_SHOWN_VALUE))}: expected ${expected}`)
    this.name = 'ConfigError'
  }
}

type Env = Record<string, string | undefined>

function readInteger (env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `an integer from ${min} to ${max}`, raw)
  const value = Number(raw)
  if (value < min || value > max) throw new ConfigError(name, `an integer from ${min} to ${max}`, raw)
  return value
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** Accepts `60000` (milliseconds) or a number with a unit: `500ms`, `30s`, `1m`, `1h`. */
function readDuration (env: Env, name: string, fallbackMs: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallbackMs
  const match = /^(\d{1,9})(ms|s|m|h)?$/.exec(raw)
  if (match === null) throw new ConfigError(name, 'a duration such as 60000, 500ms, 30s, 1m or 1h', raw)
  const value = Number(match[1]) * DURATION_UNITS_MS[match[2] ?? 'ms']!
  if (value < 1) throw new ConfigError(name, 'a duration of at least 1ms', raw)
  return value
}

/** With `base`, the URL must be a bare base address: no credentials, query or fragment (paths are appended to it). */
function readUrl (env: Env, name: string, protocols: string[], { base = false } = {}): string | undefined {
  const raw = env[name]
  if (raw === undefined || raw === '') return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(name, `an absolute URL (${protocols.join(' or ')})`, raw)
  }
  if (!protocols.includes(url.protocol)) throw new ConfigError(name, `an absolute URL (${protocols.join(' or ')})`, raw)
  if (base && (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')) {
    throw new ConfigError(name, `a base URL (${protocols.join(' or ')}) without credentials, query or fragment`, raw)
  }
  return raw
}

const TRUST_PROXY_EXPECTED = 'false, true, a hop count, or proxy addresses/CIDRs separated by commas (or loopback, linklocal, uniquelocal)'

function readTrustProxy (env: Env): Config['trustProxy'] {
  const raw = env.TRUST_PROXY
  if (raw === undefined || raw === '' || raw === 'false') return false
  if (raw === 'true') return true
  if (/^\d{1,2}$/.test(raw)) return Number(raw)
  // The list goes to proxy-addr (src/http/client-address.ts); compiling each entry here turns its
  // TypeError for `10.0.0.0/99` or `300.1.1.1` into the one line naming the variable.
  for (const entry of raw.split(',').map((item) => item.trim())) {
    try {
      proxyAddr.compile(entry)
    } catch {
      throw new ConfigError('TRUST_PROXY', `${TRUST_PROXY_EXPECTED}; ${JSON.stringify(shorten(entry, 40))} is none of these`, raw)
    }
  }
  return raw
}

/** A DNS name by RFC 1123: dot-separated labels of letters, digits and inner hyphens. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i

/** Only the form: whether the name resolves and is this machine's is known when the server binds it (src/start-up-checks.ts). */
function readHost (env: Env): string {
  const raw = env.HOST
  if (raw === undefined || raw === '') return CONFIG_DEFAULTS.host
  if (isIP(raw) === 0 && !HOST_NAME.test(raw)) throw new ConfigError('HOST', 'an IP address of this machine (0.0.0.0, ::, 127.0.0.1) or a host name', raw)
  return raw
}

/** A duration that may also be `0` (no wait at all). */
function readDurationOrZero (env: Env, name: string, fallbackMs: number): number {
  return env[name] === '0' ? 0 : readDuration(env, name, fallbackMs)
}

/**
 * MAX_CONNECTIONS and the per-client share of it: by default a tenth (at least one), so that one
 * address holding every connection it may still leaves nine tenths to the others.
 */
function readConnections (env: Env): Config['connections'] {
  const max = readInteger(env, 'MAX_CONNECTIONS', CONFIG_DEFAULTS.maxConnections, 1, 1_000_000)
  const maxPerClient = readInteger(env, 'MAX_CONNECTIONS_PER_CLIENT', Math.ceil(max / 10), 1, 1_000_000)
  if (maxPerClient > max) throw new ConfigError('MAX_CONNECTIONS_PER_CLIENT', `an integer from 1 to MAX_CONNECTIONS (${max})`, env.MAX_CONNECTIONS_PER_CLIENT ?? '')
  return {
    max,
    maxPerClient,
    stallTimeoutMs: readDuration(env, 'RESPONSE_STALL_TIMEOUT', CONFIG_DEFAULTS.responseStallTimeoutMs)
  }
}

/**
 * Parses the environment into a Config, or throws a ConfigError naming the first bad variable.
 * @example const config = loadConfig({ PORT: '8080' })
 */
export function loadConfig (env: Env = process.env): Config {
  const port = readInteger(env, 'PORT', CONFIG_DEFAULTS.port, 0, 65535)
  const host = readHost(env)
  const publicUrl = (readUrl(env, 'PUBLIC_URL', ['http:', 'https:'], { base: true }) ?? `http://localhost:${port}`).replace(/\/+$/, '')

  const rawLogLevel = env.LOG_LEVEL
  let logLevel = CONFIG_DEFAULTS.logLevel
  if (rawLogLevel !== undefined && rawLogLevel !== '') {
    if (!(LOG_LEVELS as readonly string[]).includes(rawLogLevel)) throw new ConfigError('LOG_LEVEL', `one of ${LOG_LEVELS.join(', ')}`, rawLogLevel)
    logLevel = rawLogLevel as LogLevel
  }

  const givenDataDirs = dataFolders(env.ENEM_DATA_DIR ?? '')
  const usingSampleData = givenDataDirs.length === 0
  const dataDirs = usingSampleData ? [SAMPLE_DATA_DIR] : givenDataDirs

  return {
    port,
    host,
    publicUrl,
    dataDir: dataDirs.join(path.delimiter),
    dataDirs,
    usingSampleData,
    rateLimit: {
      max: readInteger(env, 'RATE_LIMIT_MAX', CONFIG_DEFAULTS.rateLimitMax, 0, 1_000_000_000),
      windowMs: readDuration(env, 'RATE_LIMIT_WINDOW', CONFIG_DEFAULTS.rateLimitWindowMs)
    },
    redisUrl: readUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    trustProxy: readTrustProxy(env),
    logLevel,
    webConcurrency: readInteger(env, 'WEB_CONCURRENCY', CONFIG_DEFAULTS.webConcurrency, 1, 64),
    connections: readConnections(env),
    shutdownDrainMs: readDurationOrZero(env, 'SHUTDOWN_DRAIN_DELAY', CONFIG_DEFAULTS.shutdownDrainMs),
    cacheDir: readCacheDir(env)
  }
}

/** CACHE_DIR: unset or empty for a folder of the system's temporary one, `off` for none, else the folder. */
function readCacheDir (env: Env): string | null {
  const raw = env.CACHE_DIR
  if (raw === undefined || raw === '') return path.join(os.tmpdir(), DEFAULT_CACHE_FOLDER)
  return raw === 'off' ? null : path.resolve(raw)
}
