import { spawn } from 'node:child_process'

/** Runs a command to its end (wrk, slowhttptest); what it wrote, standard output then error as they came. */
export function runToEnd (command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { output += chunk })
    child.once('error', reject)
    child.once('exit', () => resolve(output))
  })
}
