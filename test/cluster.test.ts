import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

interface LogLine { msg: string, role?: string, workerPid?: number, port?: number, [field: string]: unknown }

interface Cluster {
  child: ChildProcess
  logs: LogLine[]
  exit: Promise<{ code: number | null, signal: NodeJS.Signals | null }>
  /** Resolves with the first log line (past or future) that matches. */
  waitFor: (match: (line: LogLine) => boolean) => Promise<LogLine>
}

/** `node --import tsx src/server.ts` with WEB_CONCURRENCY=2 on the sample dataset, killed when the test ends. */
function startCluster (t: TestContext, env: Record<string, string> = {}): Cluster {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ENEM_DATA_DIR: '',
    RATE_LIMIT_MAX: '0',
    REDIS_URL: '',
    WEB_CONCURRENCY: '2',
    ...env
  }
  delete childEnv.NODE_TEST_CONTEXT
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: REPO_ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] })
  const logs: LogLine[] = []
  const waiters: Array<{ match: (line: LogLine) => boolean, resolve: (line: LogLine) => void }> = []
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: LogLine
    try {
      line = JSON.parse(text) as LogLine
    } catch {
      return
    }
    logs.push(line)
    for (const waiter of [...waiters]) {
      if (!waiter.match(line)) continue
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve(line)
    }
  })
  const exit = new Promise<{ code: number | null, signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }))
  })
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    // Workers left behind by a failed test: they are ours, named by the primary's log.
    for (const line of logs) if (line.workerPid !== undefined && isAlive(line.workerPid)) process.kill(line.workerPid, 'SIGKILL')
  })
  const waitFor = (match: (line: LogLine) => boolean) => new Promise<LogLine>((resolve) => {
    const seen = logs.find(match)
    if (seen !== undefined) resolve(seen)
    else waiters.push({ match, resolve })
  })
  return { child, logs, exit, waitFor }
}

function isAlive (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const listeningWorker = (exclude: number[] = []) => (line: LogLine) =>
  line.role === 'primary' && line.msg === 'worker listening' && line.workerPid !== undefined && !exclude.includes(line.workerPid)

async function twoListeningWorkers (cluster: Cluster): Promise<[LogLine, LogLine]> {
  const first = await cluster.waitFor(listeningWorker())
  const second = await cluster.waitFor(listeningWorker([first.workerPid!]))
  return [first, second]
}

// One cluster for the three behaviours of a running one: starting three costs more than the checks.
test('WEB_CONCURRENCY=2', { timeout: 90_000 }, async (t) => {
  const cluster = startCluster(t)
  const workers = await twoListeningWorkers(cluster)

  await t.test('runs two worker processes that serve on one port', async () => {
    const [first, second] = workers
    assert.notEqual(first.workerPid, second.workerPid)
    assert.notEqual(first.workerPid, cluster.child.pid)
    assert.equal(first.port, second.port)
    const response = await fetch(`http://127.0.0.1:${first.port}/v1/exams`)
    assert.equal(response.status, 200)
  })

  await t.test('replaces a worker that dies, and the service keeps answering', async () => {
    const [first, second] = workers
    process.kill(first.workerPid!, 'SIGKILL')
    const replacement = await cluster.waitFor(listeningWorker([first.workerPid!, second.workerPid!]))
    assert.ok(cluster.logs.some((line) => line.msg === 'worker died unexpectedly; starting a new one' && line.workerPid === first.workerPid))
    assert.equal(replacement.port, first.port)
    const response = await fetch(`http://127.0.0.1:${replacement.port}/healthz`)
    assert.equal(response.status, 200)
    workers[0] = replacement
  })

  await t.test('on SIGTERM to the primary, stops every worker and exits 0', async () => {
    cluster.child.kill('SIGTERM')
    const { code } = await cluster.exit
    assert.equal(code, 0)
    for (const worker of workers) assert.equal(isAlive(worker.workerPid!), false, `worker ${worker.workerPid} still running`)
  })
})

test('workers that cannot start make the primary exit 1 instead of restarting them forever', { timeout: 60_000 }, async (t) => {
  const emptyDataDir = mkdtempSync(path.join(os.tmpdir(), 'enem-empty-dataset-'))
  // An exams.json that does not parse: past the primary's check that the folder is a dataset, so the workers are the ones to fail.
  writeFileSync(path.join(emptyDataDir, 'exams.json'), '{ not json')
  const cluster = startCluster(t, { ENEM_DATA_DIR: emptyDataDir })
  const { code } = await cluster.exit
  assert.equal(code, 1)
  assert.ok(cluster.logs.some((line) => line.msg === 'a worker failed to start; stopping'))
  assert.ok(!cluster.logs.some((line) => line.msg === 'worker listening'))
})
