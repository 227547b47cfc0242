import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { loadConfig } from '../../src/config.ts'
import type { Catalog } from '../../src/data/catalog.ts'
import { QuestionFinder } from '../../src/data/finding/question-finder.ts'
import { RECORD_FILTERS, VIEW_FILTERS, recordFilter } from '../../src/data/finding/question-filters.ts'
import { ENDPOINTS } from '../../src/http/endpoints.ts'
import { ApiError } from '../../src/http/errors.ts'
import { FINDING_FILTERS, YEAR_SELECTION_PATTERN, selectYears, type FindingFilterTable, type HeldValues } from '../../src/http/schemas/finding-filters.ts'
import { loadTestDataset, TEST_PUBLIC_URL } from '../helper.ts'

/*
 * The filters exist in two tables: FINDING_FILTERS (src/http/schemas/finding-filters.ts: the query
 * parameter and how its value is read) and RECORD_FILTERS (src/data/finding/question-filters.ts: how a
 * record is tested). A record filter no parameter sets would pass every other test, its parameter
 * being ignored as unknown; here every filter the finder applies must be set by some parameter's
 * examples. And docs/api.md's parameter table must list exactly the parameters of the endpoint table.
 */

async function sampleCatalog (): Promise<Catalog> {
  return (await loadTestDataset(loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL }))).catalog!
}

function heldValues (catalog: Catalog, finder: QuestionFinder): HeldValues {
  return {
    years: [...new Set(catalog.listExams().map((exam) => exam.summary.year))].sort((a, b) => a - b),
    disciplines: new Set(catalog.listExams().flatMap((exam) => exam.disciplineSlugs)),
    languages: new Set(finder.languages),
    parseSearch: (text) => finder.parseSearch(text)
  }
}

/**
 * The filters of `known` that no parameter of `parameters` sets when given its examples (an example
 * naming something the dataset does not hold, a 422, sets nothing).
 */
function filtersNoParameterSets (known: Iterable<string>, parameters: FindingFilterTable, held: HeldValues): string[] {
  const set = new Set<string>()
  for (const filter of Object.values(parameters)) {
    for (const example of (filter.parameter as { examples?: readonly string[] }).examples ?? []) {
      try {
        for (const [name, value] of Object.entries(filter.read(example, held))) if (value !== undefined) set.add(name)
      } catch (error) {
        if (!(error instanceof ApiError && error.statusCode === 422)) throw error
      }
    }
  }
  return [...known].filter((name) => !set.has(name))
}

test('every filter the finder applies is set by a parameter of FINDING_FILTERS', async () => {
  const catalog = await sampleCatalog()
  const finder = new QuestionFinder(catalog)
  const held = heldValues(catalog, finder)
  const known = [...Object.keys(RECORD_FILTERS), ...VIEW_FILTERS]
  assert.deepEqual(filtersNoParameterSets(known, FINDING_FILTERS, held), [])

  // A record filter added without its parameter is named.
  const withContext = recordFilter<boolean>((records) => (position, value) => (records[position]!.context !== null) === value)
  const recordFilters = { ...RECORD_FILTERS, withContext }
  assert.deepEqual(filtersNoParameterSets([...Object.keys(recordFilters), ...VIEW_FILTERS], FINDING_FILTERS, held), ['withContext'])
})

/** The endpoints' short names in the table's "Endpoints" column. */
const ENDPOINT_WORDS: Readonly<Record<string, readonly string[]>> = {
  questions: ['findQuestions'],
  random: ['randomQuestions'],
  export: ['exportQuestions'],
  practice: ['practiceQuestions'],
  'all three': ['findQuestions', 'randomQuestions', 'exportQuestions']
}

test('docs/api.md lists exactly the query parameters of /v1/questions, /v1/questions/random and the export', () => {
  const text = readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8')
  const start = text.indexOf('| Parameter | Endpoints | Grammar | Meaning |')
  assert.notEqual(start, -1, 'docs/api.md has the finding parameters table')
  const rows = text.slice(start).split('\n').slice(2).filter((_line, i, lines) => lines.slice(0, i + 1).every((line) => line.startsWith('|')))
  const documented = new Map<string, string[]>()
  for (const row of rows) {
    const [names = '', endpoints = ''] = row.split('|').slice(1).map((cell) => cell.trim())
    const operations = endpoints.split(',').flatMap((word) => {
      const ids = ENDPOINT_WORDS[word.trim()]
      assert.ok(ids !== undefined, `docs/api.md: unknown endpoint word ${JSON.stringify(word.trim())} in ${row}`)
      return ids
    })
    for (const name of [...names.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)) {
      for (const operation of operations) documented.set(operation, [...(documented.get(operation) ?? []), name])
    }
  }
  for (const operationId of ['findQuestions', 'randomQuestions', 'exportQuestions']) {
    const endpoint = ENDPOINTS.find((candidate) => candidate.operationId === operationId)!
    assert.deepEqual((documented.get(operationId) ?? []).sort(), Object.keys(endpoint.querystring.properties).sort(), operationId)
  }
  // Every filter of the table is a parameter of /v1/questions, so it is documented.
  for (const name of Object.keys(FINDING_FILTERS)) assert.ok(documented.get('findQuestions')?.includes(name), name)
})

test('selectYears reads every value of the year grammar as splitting it at commas and dashes does', () => {
  const held = [2009, 2010, 2015, 2019, 2020, 2023]
  // The reading by splitting (each item at its dash), kept here as the reference the item-by-item reading must match.
  const bySplitting = (value: string): Set<number> | string => {
    const selected = new Set<number>()
    try {
      for (const item of value.split(',')) {
        const [first, last] = item.split('-').map(Number) as [number, number | undefined]
        if (last === undefined) {
          if (!held.includes(first)) throw new ApiError(422, `year ${first} is not an exam the service holds; years available: ${held.join(', ')}`)
          selected.add(first)
          continue
        }
        if (first > last) throw new ApiError(422, `year range ${first}-${last} starts after it ends`)
        for (const year of held) if (year >= first && year <= last) selected.add(year)
      }
    } catch (error) {
      return (error as ApiError).message
    }
    return selected
  }
  const reading = (value: string): Set<number> | string => {
    try {
      return new Set(selectYears(value, held))
    } catch (error) {
      assert.ok(error instanceof ApiError && error.statusCode === 422, `a 422 for ${value}`)
      return error.message
    }
  }
  const grammar = new RegExp(YEAR_SELECTION_PATTERN)
  const numbers = ['0', '1999', '2009', '2010', '2012', '2015', '2019', '2020', '2023', '2030', '9999999999']
  // Every item of one year or a range of two of these numbers, and lists of up to three items.
  const items = [...numbers, ...numbers.flatMap((first) => numbers.map((last) => `${first}-${last}`))]
  const values = [...items, ...items.flatMap((one, at) => [`${one},${items[(at * 7) % items.length]!}`, `${items[(at * 13) % items.length]!},${one},${items[(at * 5) % items.length]!}`])]
  for (const value of values) {
    assert.ok(grammar.test(value), value)
    assert.deepEqual(reading(value), bySplitting(value), value)
  }
  assert.deepEqual(reading('2015-2020,2009'), new Set([2015, 2019, 2020, 2009]))
})
