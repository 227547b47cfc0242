import { stat } from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import { ConfigError, type Config } from './config.ts'

/**
 * A mistake in how the server was started (an address it cannot bind, a dataset folder that is
 * not there): its message is the one line printed before exiting, naming the variable to change.
 */
export class StartUpError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'StartUpError'
  }
}

/** What a listen error means for the person who set PORT and HOST, in one line. */
export function describeListenError (error: NodeJS.ErrnoException, { host, port }: Pick<Config, 'host' | 'port'>): string {
  const where = `HOST=${JSON.stringify(host)} PORT=${port}`
  switch (error.code) {
    case 'EADDRINUSE': return `Cannot listen on ${where}: the port is already in use; set PORT to a free port`
    case 'EACCES': return `Cannot listen on ${where}: permission denied (ports below 1024 need privileges); set PORT to 1024 or above`
    case 'EADDRNOTAVAIL': return `Invalid HOST=${JSON.stringify(host)}: expected an address of this machine (0.0.0.0, ::, 127.0.0.1 or one of its interfaces)`
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL': return `Invalid HOST=${JSON.stringify(host)}: expected an IP address or a host name that resolves (${error.code})`
    default: return `Cannot listen on ${where}: ${error.code ?? error.message}`
  }
}

/**
 * Binds HOST:PORT once and lets go, so an address this machine does not have, a name that does
 * not resolve or a port in use stops the start at once, before the dataset is read, rather than
 * after it. The server binds again for real once it is ready.
 * @example await checkListenAddress({ host: '127.0.0.1', port: 3000 })
 */
export async function checkListenAddress ({ host, port }: Pick<Config, 'host' | 'port'>): Promise<void> {
  const probe = net.createServer()
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject)
      probe.listen({ host, port, exclusive: true }, resolve)
    })
  } catch (error) {
    throw new StartUpError(describeListenError(error as NodeJS.ErrnoException, { host, port }))
  } finally {
    probe.close()
  }
}

/**
 * Whether each dataset folder is there at all (a folder with an exams.json), so a wrong
 * ENEM_DATA_DIR is one line naming it (and, of several folders, the one that is wrong). What is
 * inside is the loader's business (src/data/).
 * @example await checkDataDir({ dataDir: '/data', dataDirs: ['/data'], usingSampleData: false })
 */
export async function checkDataDir ({ dataDir, dataDirs, usingSampleData }: Pick<Config, 'dataDir' | 'dataDirs' | 'usingSampleData'>): Promise<void> {
  for (const folder of dataDirs) {
    const problem = await folderProblem(folder)
    if (problem === undefined) continue
    if (usingSampleData) throw new StartUpError(`The built-in sample dataset at ${folder} ${problem}; set ENEM_DATA_DIR to a dataset folder`)
    if (dataDirs.length === 1) throw new StartUpError(`Invalid ENEM_DATA_DIR=${JSON.stringify(dataDir)}: expected a dataset folder with an exams.json; it ${problem}`)
    throw new StartUpError(`Invalid ENEM_DATA_DIR=${JSON.stringify(dataDir)}: expected dataset folders with an exams.json, separated by ":"; ${JSON.stringify(folder)} ${problem}`)
  }
}

async function folderProblem (dataDir: string): Promise<string | undefined> {
  try {
    if (!(await stat(dataDir)).isDirectory()) return 'is not a folder'
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`
  }
  try {
    if (!(await stat(path.join(dataDir, 'exams.json'))).isFile()) return 'has no exams.json file'
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' ? 'has no exams.json' : `has an exams.json that cannot be read (${code})`
  }
  return undefined
}

/**
 * Ends the process on a start-up mistake (an invalid variable, a dataset folder or address that
 * cannot be used): one line on stderr, exit code 1, no stack trace. Anything else is a bug, thrown on.
 * @example try { loadConfig() } catch (error) { exitOnStartUpMistake(error) }
 */
export function exitOnStartUpMistake (error: unknown): never {
  if (error instanceof ConfigError || error instanceof StartUpError) {
    process.stderr.write(`${error.message}\n`)
    process.exit(1)
  }
  throw error
}
