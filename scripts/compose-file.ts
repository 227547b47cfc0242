import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'

/** What scripts/compose-test.sh and test/compose-file.test.ts read of a compose.yaml service. */
export interface ComposeService {
  image?: string
  build?: unknown
  command?: string | string[]
  environment?: Record<string, string | number>
  volumes?: string[]
  ports?: string[]
  depends_on?: Record<string, { condition: string }>
  stop_grace_period?: string
  healthcheck?: { test: string[], interval?: string, timeout?: string, retries?: number, start_period?: string }
}

/**
 * Replaces `${NAME}`, `${NAME:-default}` and `${NAME-default}` as Compose does, innermost first,
 * so a default may itself name a variable (`${PUBLIC_URL:-http://localhost:${PORT:-3000}}`).
 * @example interpolate('${PORT:-3000}', {}) === '3000'
 */
export function interpolate (text: string, env: Readonly<Record<string, string | undefined>>): string {
  const innermost = /\$\{(\w+)(?:(:?-)([^${}]*))?\}/
  let result = text
  for (let match = innermost.exec(result); match !== null; match = innermost.exec(result)) {
    const [whole, name, operator, fallback = ''] = match
    const value = env[name!]
    const replaced = operator === ':-' ? (value === undefined || value === '' ? fallback : value) : operator === '-' ? (value ?? fallback) : (value ?? '')
    result = result.slice(0, match.index) + replaced + result.slice(match.index + whole.length)
  }
  return result
}

/** Every string of a parsed YAML value, interpolated. */
function interpolateAll (value: unknown, env: Readonly<Record<string, string | undefined>>): unknown {
  if (typeof value === 'string') return interpolate(value, env)
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, env))
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateAll(item, env)]))
  return value
}

/** The services of the repository's compose.yaml (YAML merge keys applied), interpolated with `env`. */
export function readComposeServices (root: string, env: Readonly<Record<string, string | undefined>>): Record<string, ComposeService> {
  const document = parse(readFileSync(path.join(root, 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> }
  return interpolateAll(document.services, env) as Record<string, ComposeService>
}

/** A Compose duration (`15s`, `1m30s`, `500ms`) in milliseconds. */
export function composeDurationMs (duration: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)]
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== duration) throw new Error(`not a Compose duration: ${duration}`)
  return parts.reduce((total, [, amount, unit]) => total + Number(amount) * units[unit!]!, 0)
}
