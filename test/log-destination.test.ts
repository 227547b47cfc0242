import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { terminalLogDestination } from '../src/log-destination.ts'

/** A stand-in for process.stdout that records what is written. */
function fakeStdout (isTTY: boolean): NodeJS.WriteStream & { written: string } {
  const stream = { isTTY, written: '', write (chunk: string) { stream.written += chunk; return true } }
  return stream as unknown as NodeJS.WriteStream & { written: string }
}

test('not a terminal (a pipe, a file, a container): no destination of its own, so the log stays JSON lines', () => {
  assert.equal(terminalLogDestination(fakeStdout(false)), undefined)
})

test('a terminal: pino\'s lines become readable text with the level, the message and the fields on one line', () => {
  const stdout = fakeStdout(true)
  const destination = terminalLogDestination(stdout)
  assert.ok(destination !== undefined)
  const { log } = Fastify({ logger: { level: 'info', stream: destination } })
  log.info({ reqId: 'r1', statusCode: 200 }, 'request')
  log.warn('dataset warnings: 3')
  const lines = stdout.written.split('\n').filter((line) => line !== '')
  assert.equal(lines.length, 2, stdout.written)
  for (const line of lines) assert.throws(() => JSON.parse(line), 'not JSON')
  assert.match(lines[0]!, /INFO.*request.*reqId.*"r1".*statusCode.*200/)
  assert.match(lines[1]!, /WARN.*dataset warnings: 3/)
})
