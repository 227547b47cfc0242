import { before, test } from 'node:test'
import assert from 'node:assert/strict'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import type { Catalog } from '../../src/data/catalog.ts'
import { loadDataset } from '../../src/data/dataset/load-dataset.ts'

let catalog: Catalog
before(async () => {
  const loaded = await loadDataset(SAMPLE_DATA_DIR, { filesBaseUrl: 'http://api.test/files' })
  assert.ok(loaded.catalog !== null)
  catalog = loaded.catalog
})

test('the default language is the first of the exam\'s languages, null when it has none', () => {
  assert.equal(catalog.getExam(2020)?.defaultLanguage, 'espanhol')
  assert.equal(catalog.getExam(2023)?.defaultLanguage, 'ingles')
  assert.equal(catalog.getExam(2011)?.defaultLanguage, null)
})

test('a language view is the null-language records plus that language, ordered by index', () => {
  const exam = catalog.getExam(2020)!
  const view = catalog.languageView(exam, 'ingles', null)
  assert.equal(view.length, 21)
  assert.ok(view.every((question) => question.language === null || question.language === 'ingles'))
  assert.deepEqual(view.slice(4, 6).map((q) => [q.index, q.language]), [[5, null], [5, 'ingles']])
})

test('a view for a language the exam does not offer is empty (the HTTP layer refuses it first)', () => {
  assert.deepEqual(catalog.languageView(catalog.getExam(2020)!, 'frances', null), [])
})

test('findQuestion says where an index exists when the view lacks it', () => {
  const exam = catalog.getExam(2011)!
  const missing = catalog.findQuestion(exam, 7, null)
  assert.deepEqual(missing, { found: false, availableLanguages: [] })
  const variantOnly = catalog.findQuestion(catalog.getExam(2023)!, 1, null)
  assert.deepEqual(variantOnly, { found: false, availableLanguages: ['ingles', 'espanhol'] })
})
