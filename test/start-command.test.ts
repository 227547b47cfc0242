import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { connect } from 'node:net'
import { createInterface } from 'node:readline'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startCommand, startEnvironment } from '../bench/start-command.ts'

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

test('the container runs the very command npm start runs, V8 flags included', () => {
  const dockerfile = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8')
  const cmd = dockerfile.split('\n').filter((line) => line.startsWith('CMD ')).at(-1)
  assert.ok(cmd !== undefined, 'the Dockerfile has a CMD')
  assert.deepEqual(JSON.parse(cmd.slice('CMD '.length)), startCommand(REPO_ROOT))
})

test('the container sets the environment npm start sets (the C library\'s arenas)', () => {
  const environment = startEnvironment(REPO_ROOT)
  assert.ok(Object.keys(environment).length > 0, 'npm start sets MALLOC_ARENA_MAX')
  // The runtime stage's ENV lines, continued with backslashes.
  const dockerfile = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ')
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '))
  const set = new Map(runtime.split('\n').filter((line) => line.startsWith('ENV ')).flatMap((line) => line.slice(4).trim().split(/\s+/)).map((pair) => pair.split('=') as [string, string]))
  for (const [name, value] of Object.entries(environment)) assert.equal(set.get(name), value, name)
})

test('this Node takes the start command\'s flags, and they bound the young generation', () => {
  const flags = startCommand(REPO_ROOT).slice(1, -1)
  assert.ok(flags.length > 0)
  const semiSpace = flags.find((flag) => flag.startsWith('--max-semi-space-size='))
  assert.ok(semiSpace !== undefined)
  const probe = spawnSync(process.execPath, [...flags, '-e', `
    const v8 = require('node:v8')
    let kept = []
    for (let i = 0; i < 2e6; i++) { kept.push({ i }); if (kept.length > 50000) kept = [] }
    console.log(v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size)
  `], { encoding: 'utf8' })
  assert.equal(probe.status, 0, probe.stderr)
  // The new space is two semi-spaces.
  assert.ok(Number(probe.stdout) <= 2 * Number(semiSpace.split('=')[1]) * 1024 * 1024, `new space ${probe.stdout.trim()} bytes`)
})

test('SIGTERM sent to npm start itself stops the server and frees the port (it used to leave the server running)', { timeout: 120_000 }, async (t) => {
  // Exactly what the README says to run, signalled the way a process manager does: the npm process only.
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: REPO_ROOT,
    detached: true,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ENEM_DATA_DIR: '', LOG_LEVEL: 'info', WEB_CONCURRENCY: '1', SHUTDOWN_DRAIN_DELAY: '0' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const exited = once(npm, 'exit')
  // Whatever the outcome, nothing this test started outlives it (a leaked server stays in npm's group).
  t.after(() => { try { process.kill(-npm.pid!, 'SIGKILL') } catch {} })
  let stderr = ''
  npm.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const log: string[] = []
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: npm.stdout }).on('line', (line) => {
      log.push(line)
      try {
        const entry = JSON.parse(line) as { msg: string, port?: number }
        if (entry.msg === 'ready') resolve(entry.port!)
      } catch {}
    })
    exited.then(() => reject(new Error(`npm start exited before it was ready: ${stderr}`)), reject)
  })
  assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200)
  // The server (pino names its pid) runs with what the script sets before node.
  const serverPid = (JSON.parse(log.find((line) => line.includes('"ready"'))!) as { pid: number }).pid
  const environ = readFileSync(`/proc/${serverPid}/environ`, 'utf8').split('\0')
  for (const [name, value] of Object.entries(startEnvironment(REPO_ROOT))) assert.ok(environ.includes(`${name}=${value}`), `the server's ${name}`)

  process.kill(npm.pid!, 'SIGTERM')
  const [code, signal] = await exited
  assert.equal(await portFreedWithin(port, 5_000), true, `port ${port} still accepts connections after npm start exited`)
  assert.deepEqual({ code, signal }, { code: 0, signal: null }, `npm start's exit; stderr: ${stderr}`)
  assert.ok(log.some((line) => line.includes('"stopped"')), `the server logged its stop: ${log.join('\n')}`)
})

/** Whether connecting to 127.0.0.1:port is refused within `ms` (polled every 100 ms). */
async function portFreedWithin (port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => { socket.destroy(); resolve(false) })
      socket.once('error', () => resolve(true))
    })
    if (refused) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}
