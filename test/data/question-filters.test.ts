import { test } from 'node:test'
import assert from 'node:assert/strict'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { loadDataset } from '../../src/data/dataset/load-dataset.ts'
import { QuestionFinder } from '../../src/data/finding/question-finder.ts'
import { filtersKey, RECORD_FILTERS, recordFilter, type QuestionFilters } from '../../src/data/finding/question-filters.ts'
import { parseSearchQuery } from '../../src/data/finding/question-search.ts'

/*
 * The key of a filter set comes from the filter object itself, and the finder refuses a filter it
 * has no test for: a filter can be neither left out of the key nor silently ignored by the match.
 */

const search = (text: string) => parseSearchQuery(text)!

test('filtersKey: the same filters give one key, whatever the order of fields or of a set', () => {
  assert.equal(filtersKey({ years: new Set([2020, 2018]), hasImages: false }), filtersKey({ hasImages: false, years: new Set([2018, 2020]) }))
  assert.equal(filtersKey({ search: search('ÁGUA') }), filtersKey({ search: search('agua') }))
  assert.equal(filtersKey({ discipline: undefined }), filtersKey({}), 'an undefined field selects everything, as an absent one')
})

test('filtersKey: every field and value tells filter sets apart, a field nobody listed included', () => {
  const sets: QuestionFilters[] = [
    {},
    { years: new Set([2020]) },
    { years: new Set([2020, 2011]) },
    { discipline: 'matematica' },
    { language: 'matematica' },
    { hasImages: true },
    { hasImages: false },
    { annulled: false },
    { hasImages: false, annulled: false },
    { search: search('agua') },
    { search: search('"agua viva"') },
    { search: search('agua viva') },
    // A filter QuestionFilters does not know yet is part of the key all the same.
    { withContext: false } as QuestionFilters
  ]
  const keys = sets.map(filtersKey)
  assert.equal(new Set(keys).size, sets.length, keys.join('\n'))
})

test('filtersKey refuses a value it cannot write rather than writing it ambiguously', () => {
  assert.throws(() => filtersKey({ odd: new Map() } as unknown as QuestionFilters), /filter odd/)
})

test('the finder refuses a filter it has no record test for, and applies one given in its table', async () => {
  const { catalog } = await loadDataset(SAMPLE_DATA_DIR, { filesBaseUrl: 'http://api.test/files' })
  assert.ok(catalog !== null)
  const withContext = { withContext: false } as QuestionFilters
  assert.throws(() => new QuestionFinder(catalog).find(withContext), /no record filter named withContext/)
  const finder = new QuestionFinder(catalog, {
    ...RECORD_FILTERS,
    withContext: recordFilter<boolean>((records) => (position, value) => (records[position]!.context !== null) === value)
  })
  const all = finder.find({})
  const found = finder.find(withContext)
  assert.ok(found.length > 0 && found.length < all.length, 'the sample has questions with and without context')
  assert.deepEqual(found, all.filter((question) => question.context === null))
})
