import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import ts from 'typescript'

/*
 * The floors of src/http and src/data (docs/development.md, "Floors"): a module imports only from
 * its own floor or one below, and no import chain comes back to where it began. Type-only imports
 * count too: a type names what it depends on as much as a value does. The real import graph is
 * read from the sources with TypeScript's own import scanner, so a new file, a new import or a
 * moved one is checked as it is written.
 */

const SRC = path.resolve(import.meta.dirname, '../src')

interface Layer {
  /** Folder under src/ the floors are of. */
  readonly root: string
  /**
   * Bottom floor first; each entry a file at the root or a whole folder (ending in `/`): a folder stands
   * on one floor, since a folder whose files stood on two would be two folders under one name.
   */
  readonly floors: ReadonlyArray<readonly string[]>
  /** Modules outside the root it may import (prefixes relative to src/), all of them below it. */
  readonly below: readonly string[]
  /** Packages it must not import. */
  readonly forbiddenPackages: RegExp
}

const HTTP: Layer = {
  root: 'http',
  floors: [
    // The contract's words: error codes and the error type, the headers, the data's provenance line,
    // and the server's timeouts (constants the 408's description quotes).
    ['error-codes.ts', 'errors.ts', 'response-headers.ts', 'data-provenance.ts', 'http-server-options.ts'],
    // What a parameter, a body and an answer look like, and how a filter's parameter is read.
    ['schemas/'],
    // The answers of the endpoints (prepared bodies) and the concerns every request meets.
    ['answers/', 'rate-limit/', 'client-address.ts', 'access-log.ts'],
    // The endpoint table and what is said of it.
    ['endpoints.ts', 'error-descriptions.ts', 'endpoint-answers.ts'],
    // The two request paths and what Fastify is given: routes, plugins, the fast path and the server's guards.
    ['plugins/', 'routes/', 'server/']
  ],
  below: ['data/', 'config.ts'],
  forbiddenPackages: /^$/
}

const DATA: Layer = {
  root: 'data',
  floors: [
    // The records' shape, their Markdown and figures, and the 3PL's arithmetic (pure functions of an item's parameters).
    ['exam-key.ts', 'record-schemas.ts', 'record-markdown.ts', 'record-figures.ts', 'record-statement.ts', 'inep-3pl.ts'],
    ['catalog.ts', 'official/'],
    // Reading a folder; INEP's Matriz and the skills of the records.
    ['dataset/', 'skills/'],
    // Reading INEP's printed booklets (PDF): page marks, lines, columns, figures, questions.
    ['booklets/'],
    ['finding/', 'scores/'],
    // Import tooling: turns INEP's files and other datasets into the dataset's records and official tables.
    ['sources/']
  ],
  below: [],
  forbiddenPackages: /^(node:)?https?2?$|^fastify($|-)|^@fastify\/|^light-my-request$/
}

/** Import arrows of a folder: each module (path relative to src/) with the modules and packages it names. */
interface ImportGraph {
  readonly modules: ReadonlyMap<string, { readonly modules: readonly string[], readonly packages: readonly string[] }>
}

function readImportGraph (root: string): ImportGraph {
  const modules = new Map<string, { modules: string[], packages: string[] }>()
  const files = readdirSync(path.join(SRC, root), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const names = importedFiles.map(({ fileName }) => fileName)
    modules.set(path.relative(SRC, file), {
      modules: names.filter((name) => name.startsWith('.')).map((name) => path.relative(SRC, path.resolve(path.dirname(file), name))),
      packages: names.filter((name) => !name.startsWith('.'))
    })
  }
  return { modules }
}

/** The floor of a module of the layer: the one naming it or its longest folder; undefined when none does. */
function floorOf (layer: Layer, module: string): number | undefined {
  const inRoot = module.slice(layer.root.length + 1)
  let best: { floor: number, length: number } | undefined
  layer.floors.forEach((entries, floor) => {
    for (const entry of entries) {
      const matches = entry.endsWith('/') ? inRoot.startsWith(entry) : inRoot === entry
      if (matches && (best === undefined || entry.length > best.length)) best = { floor, length: entry.length }
    }
  })
  return best?.floor
}

const within = (layer: Layer, module: string): boolean => module.startsWith(`${layer.root}/`)

/** Floor entries that put part of a folder on a floor: a file below the root, or a folder inside another entry's folder. */
function splitFolders (layer: Layer): string[] {
  const entries = layer.floors.flat()
  return entries.flatMap((entry) => {
    if (!entry.endsWith('/') && entry.includes('/')) return [`${entry} is a file inside a folder: the folder stands on one floor, so the file moves out of it or the folder's floor changes`]
    const outer = entries.find((other) => other !== entry && other.endsWith('/') && entry.startsWith(other))
    return outer === undefined ? [] : [`${entry} is inside ${outer}, which is on a floor of its own: a folder stands on one floor`]
  })
}

/** Every break of the layer's rules in the graph, as sentences. */
function floorProblems (layer: Layer, graph: ImportGraph): string[] {
  const problems: string[] = [...splitFolders(layer)]
  for (const [module, imports] of graph.modules) {
    const floor = floorOf(layer, module)
    if (floor === undefined) {
      problems.push(`${module} is on no floor: add it to the floors (here and in docs/development.md)`)
      continue
    }
    for (const target of imports.modules) {
      if (within(layer, target)) {
        const targetFloor = floorOf(layer, target)
        if (targetFloor !== undefined && targetFloor > floor) problems.push(`${module} (floor ${floor}) imports ${target} (floor ${targetFloor}): an arrow up`)
      } else if (!layer.below.some((prefix) => target.startsWith(prefix))) {
        problems.push(`${module} imports ${target}, outside ${layer.root}/ and not below it`)
      }
    }
    for (const name of imports.packages) {
      if (layer.forbiddenPackages.test(name)) problems.push(`${module} imports ${name}, which ${layer.root}/ must not know`)
    }
  }
  return [...problems, ...cycles(layer, graph).map((cycle) => `an import cycle: ${cycle.join(' → ')}`)]
}

/** The import cycles within the layer, each as the chain of modules that closes it (one per cycle found by depth-first search). */
function cycles (layer: Layer, graph: ImportGraph): string[][] {
  const found: string[][] = []
  const done = new Set<string>()
  const onPath: string[] = []
  const visit = (module: string): void => {
    const at = onPath.indexOf(module)
    if (at !== -1) {
      found.push([...onPath.slice(at), module])
      return
    }
    if (done.has(module)) return
    onPath.push(module)
    for (const target of graph.modules.get(module)?.modules ?? []) if (within(layer, target)) visit(target)
    onPath.pop()
    done.add(module)
  }
  for (const module of graph.modules.keys()) visit(module)
  return found
}

describe('import floors', () => {
  for (const layer of [HTTP, DATA]) {
    it(`src/${layer.root}: every module on a floor, every arrow to its floor or below, no cycle`, () => {
      const graph = readImportGraph(layer.root)
      assert.ok(graph.modules.size > 10, `read ${graph.modules.size} modules of src/${layer.root}`)
      assert.deepEqual(floorProblems(layer, graph), [])
    })
  }

  it('finds a folder standing on two floors', () => {
    const layer: Layer = { root: 'x', floors: [['low.ts', 'parts/constants.ts'], ['parts/', 'high/'], ['high/top/']], below: [], forbiddenPackages: /^$/ }
    assert.deepEqual(floorProblems(layer, { modules: new Map() }), [
      'parts/constants.ts is a file inside a folder: the folder stands on one floor, so the file moves out of it or the folder\'s floor changes',
      'high/top/ is inside high/, which is on a floor of its own: a folder stands on one floor'
    ])
  })

  it('finds an arrow up, a cycle, a module on no floor and a forbidden package', () => {
    const layer: Layer = { root: 'x', floors: [['low.ts'], ['high/']], below: ['data/'], forbiddenPackages: /^fastify$/ }
    const graph: ImportGraph = {
      modules: new Map([
        ['x/low.ts', { modules: ['x/high/a.ts', 'data/catalog.ts'], packages: ['fastify'] }],
        ['x/high/a.ts', { modules: ['x/high/b.ts', 'x/low.ts'], packages: [] }],
        ['x/high/b.ts', { modules: ['x/high/a.ts', 'config.ts'], packages: [] }],
        ['x/stray.ts', { modules: [], packages: [] }]
      ])
    }
    assert.deepEqual(floorProblems(layer, graph), [
      'x/low.ts (floor 0) imports x/high/a.ts (floor 1): an arrow up',
      'x/low.ts imports fastify, which x/ must not know',
      'x/high/b.ts imports config.ts, outside x/ and not below it',
      'x/stray.ts is on no floor: add it to the floors (here and in docs/development.md)',
      'an import cycle: x/high/a.ts → x/high/b.ts → x/high/a.ts',
      'an import cycle: x/low.ts → x/high/a.ts → x/low.ts'
    ])
  })
})
