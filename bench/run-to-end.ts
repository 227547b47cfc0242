import { spawn } from 'node:child_process'

/** Runs a command to its end (wrk, slowhttptest), in this environment or `env`; what it wrote, standard output then error as they came. */
export function runToEnd (command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { output += chunk })
    child.once('error', reject)
    child.once('exit', () => resolve(output))
  })
}
