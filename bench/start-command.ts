import { readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * The command `npm start` runs, read from package.json, so that the bench and the soak start the
 * server exactly as production does (the same V8 flags; docs/operations.md's "Memory" says why they are there).
 * @example const [command, ...args] = startCommand(root) // ['node', '--max-semi-space-size=8', '--heap-growing-percent=30', 'dist/server.js']
 */
export function startCommand (root: string): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  // The script `exec`s node so that a signal sent to `npm start` reaches the server (npm signals
  // its child, the shell, which would otherwise die and leave the server running).
  const words = (scripts.start ?? '').replace(/^exec\s+/, '').split(/\s+/)
  if (words[0] !== 'node' || words.at(-1) !== 'dist/server.js') throw new Error(`package.json's start script is not "exec node [flags] dist/server.js": ${scripts.start}`)
  return words
}
