import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { build } from '../helper.ts'

/*
 * The official MCP conformance suite (@modelcontextprotocol/conformance, a dev dependency, run from
 * node_modules: nothing is fetched) against POST /mcp on a real listener. The scenarios that apply to
 * a server of tools; the others need the tools, prompts and resources of the suite's own test server.
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']

const CONFORMANCE_CLI = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js')
const run = promisify(execFile)

interface Check { id: string, status: string, errorMessage?: string }

const server = await build({ after }, { PUBLIC_URL: 'https://enem.example.org' })
const port = await server.listen()
const resultsDir = await mkdtemp(path.join(tmpdir(), 'enem-mcp-conformance-'))
after(() => rm(resultsDir, { recursive: true, force: true }))

for (const scenario of SCENARIOS) {
  test(`the conformance suite's ${scenario} scenario passes against /mcp`, { timeout: 60_000 }, async () => {
    const output = path.join(resultsDir, scenario)
    const { stdout } = await run(process.execPath, [CONFORMANCE_CLI, 'server', '--url', `http://localhost:${port}/mcp`, '--scenario', scenario, '--output-dir', output], { timeout: 50_000 })
    const checks: Check[] = []
    for (const entry of await readdir(output, { recursive: true })) {
      if (path.basename(entry) === 'checks.json') checks.push(...JSON.parse(await readFile(path.join(output, entry), 'utf8')) as Check[])
    }
    assert.ok(checks.length > 0, `the suite recorded its checks: ${stdout}`)
    const failed = checks.filter((check) => check.status !== 'SUCCESS')
    assert.deepEqual(failed, [], stdout)
  })
}
