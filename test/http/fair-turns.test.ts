import { test } from 'node:test'
import assert from 'node:assert/strict'
import { setImmediate as nextPass } from 'node:timers/promises'
import { FairTurns } from '../../src/http/server/fair-turns.ts'

/*
 * The turns of costly work (src/http/server/fair-turns.ts), on a clock of the test's own: each
 * piece of work says how long it took, and the test sees which ran in which pass of the event loop.
 */

function clocked (): { now: () => number, spend: (ms: number) => void } {
  let time = 0
  return { now: () => time, spend: (ms) => { time += ms } }
}

test('work runs at once, its value given back as it is, while the pass has budget left and no one waits', () => {
  const { now, spend } = clocked()
  const turns = new FairTurns(5, now)
  assert.equal(turns.run('a', () => { spend(2); return 'one' }), 'one')
  assert.equal(turns.run('b', () => { spend(2); return 'two' }), 'two')
  assert.throws(() => turns.run('a', () => { throw new Error('bad') }), /bad/)
})

test('past the budget, work waits for later passes, a budget\'s worth each, one piece of each client in turn', async () => {
  const { now, spend } = clocked()
  const turns = new FairTurns(5, now)
  const ran: string[] = []
  const piece = (name: string) => () => { spend(2); ran.push(name); return name }
  // This pass: 6 ms spent at once, the budget is gone.
  assert.equal(turns.run('flood', piece('f0')), 'f0')
  assert.equal(turns.run('flood', piece('f1')), 'f1')
  assert.equal(turns.run('flood', piece('f2')), 'f2')
  const waiting = ['f3', 'f4', 'f5', 'f6', 'f7', 'f8'].map((name) => turns.run('flood', piece(name)))
  const other = turns.run('other', piece('o0'))
  assert.ok(other instanceof Promise, 'the other client waits too: the pass is spent')
  assert.deepEqual(ran, ['f0', 'f1', 'f2'])
  assert.equal(turns.waitingClients, 2)
  await nextPass()
  // The next pass: at most a budget's worth (5 ms: three pieces of 2), the other client's second, not after the flood's.
  assert.deepEqual(ran, ['f0', 'f1', 'f2', 'f3', 'o0', 'f4'])
  assert.equal(await other, 'o0')
  await nextPass()
  assert.deepEqual(ran.slice(6), ['f5', 'f6', 'f7'])
  assert.deepEqual(await Promise.all(waiting), ['f3', 'f4', 'f5', 'f6', 'f7', 'f8'])
  assert.equal(turns.waitingClients, 0)
  // Nothing waits and the budget came back: at once again.
  await nextPass()
  assert.equal(turns.run('other', piece('o1')), 'o1')
})

test('an exception of work that waited rejects its promise and spares the others', async () => {
  const { now, spend } = clocked()
  const turns = new FairTurns(1, now)
  turns.run('a', () => spend(2))
  const failing = turns.run('a', () => { throw new Error('bad') })
  const fine = turns.run('b', () => 'fine')
  await assert.rejects(Promise.resolve(failing), /bad/)
  assert.equal(await fine, 'fine')
})

test('work asked for within a turn runs at once as part of it, its time counted once', async () => {
  const { now, spend } = clocked()
  const turns = new FairTurns(5, now)
  // A turn of 3 ms holding work of 2 ms: the pass has spent 3, not 5, so the next work still runs at once.
  const outer = turns.run('a', () => {
    spend(1)
    const inner = turns.run('a', () => { spend(2); return 'inner' })
    return `outer, ${String(inner)}`
  })
  assert.equal(outer, 'outer, inner')
  assert.equal(turns.run('b', () => { spend(1); return 'next' }), 'next')
  // 4 ms now: one more piece runs at once and spends the budget; the pass is then over it.
  assert.equal(turns.run('b', () => { spend(2); return 'last' }), 'last')
  const waiting = turns.run('c', () => 'later')
  assert.ok(waiting instanceof Promise)
  // Within a turn that waited, inner work runs at once too: the turn's value is the inner work's, not a promise of it.
  const held = turns.run('c', () => turns.run('c', () => 'inside a waiting turn'))
  await nextPass()
  assert.equal(await waiting, 'later')
  assert.equal(await held, 'inside a waiting turn')
})
