import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startCommand } from '../bench/start-command.ts'

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

test('the container runs the very command npm start runs, V8 flags included', () => {
  const dockerfile = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8')
  const cmd = dockerfile.split('\n').filter((line) => line.startsWith('CMD ')).at(-1)
  assert.ok(cmd !== undefined, 'the Dockerfile has a CMD')
  assert.deepEqual(JSON.parse(cmd.slice('CMD '.length)), startCommand(REPO_ROOT))
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
