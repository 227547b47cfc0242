import { createRequire } from 'node:module'

/** Where pino writes its lines: anything with write(). */
export interface LogDestination {
  write: (line: string) => void
}

/**
 * For a person running the server in a terminal, the log in pino-pretty's readable form (time,
 * level, message, then the fields); undefined when stdout is not a terminal (a pipe, a file, a
 * container's log driver), where the lines stay JSON for machines to read.
 *
 * Formatted synchronously in this process: no transport worker thread, so the last lines before
 * process.exit() are never lost, and pino-pretty is only loaded when a terminal is there to use it.
 * @example Fastify({ logger: { level: 'info', stream: terminalLogDestination() } })
 */
export function terminalLogDestination (stdout: NodeJS.WriteStream = process.stdout): LogDestination | undefined {
  if (stdout.isTTY !== true) return undefined
  // Resolved at run time from node_modules (it is a production dependency), not bundled into dist/.
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty')
  const pretty = prettyFactory({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true })
  return { write: (line) => { stdout.write(pretty(line)) } }
}
