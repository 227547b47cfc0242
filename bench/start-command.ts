import { readFileSync } from 'node:fs'
import path from 'node:path'

/** An assignment the start script makes with `env` before node: `MALLOC_ARENA_MAX=2`. */
const ASSIGNMENT = /^([A-Z_][A-Z0-9_]*)=(\S*)$/

/** The start script's words after `exec` (and its `env` assignments), and those assignments. */
function startScript (root: string): { command: string[], environment: Record<string, string> } {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  // The script `exec`s node so that a signal sent to `npm start` reaches the server (npm signals
  // its child, the shell, which would otherwise die and leave the server running); `env` sets what
  // the C library reads before node runs (docs/operations.md's "Memory").
  const words = (scripts.start ?? '').replace(/^exec\s+/, '').split(/\s+/)
  const environment: Record<string, string> = {}
  if (words[0] === 'env') {
    words.shift()
    for (let match = ASSIGNMENT.exec(words[0] ?? ''); match !== null; match = ASSIGNMENT.exec(words[0] ?? '')) {
      environment[match[1]!] = match[2]!
      words.shift()
    }
  }
  if (words[0] !== 'node' || words.at(-1) !== 'dist/server.js') throw new Error(`package.json's start script is not "exec [env NAME=VALUE…] node [flags] dist/server.js": ${scripts.start}`)
  return { command: words, environment }
}

/**
 * The command `npm start` runs, read from package.json, so that the bench and the soak start the
 * server exactly as production does (the same V8 flags; docs/operations.md's "Memory" says why they are there).
 * @example const [command, ...args] = startCommand(root) // ['node', '--max-semi-space-size=8', '--heap-growing-percent=30', 'dist/server.js']
 */
export function startCommand (root: string): string[] {
  return startScript(root).command
}

/**
 * The environment `npm start` gives the server besides the caller's, read from package.json: what
 * the bench and the soak add to theirs.
 * @example startEnvironment(root) // { MALLOC_ARENA_MAX: '2' }
 */
export function startEnvironment (root: string): Record<string, string> {
  return startScript(root).environment
}
