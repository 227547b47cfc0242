import { before, test } from 'node:test'
import assert from 'node:assert/strict'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { loadDataset } from '../../src/data/dataset/load-dataset.ts'
import { searchableText } from '../../src/data/finding/question-search.ts'
import { foldedWords, foldText, wordKey } from '../../src/data/finding/search-words.ts'
import { FULL_DATA_DIR } from '../helper.ts'

/** Every distinct folded word of the searchable text of the dataset (the full one when ENEM_DATA_DIR is set). */
let vocabulary: string[]
before(async () => {
  const { catalog } = await loadDataset(FULL_DATA_DIR ?? SAMPLE_DATA_DIR, { filesBaseUrl: 'http://api.test/files' })
  assert.ok(catalog !== null)
  const words = new Set<string>()
  for (const exam of catalog.listExams()) {
    for (const question of exam.questions) for (const word of foldedWords(searchableText(question))) words.add(word)
  }
  vocabulary = [...words].sort()
})

test('folding removes accents and capitals, and words are runs of letters and digits', () => {
  assert.equal(foldText('Fotossíntese ÁGUA Ação'), 'fotossintese agua acao')
  assert.deepEqual(foldedWords('Água-viva, 2ª ed. (1998)!'), ['agua', 'viva', '2a', 'ed', '1998'])
  // Decomposed accents (a letter followed by a combining mark) fold like composed ones.
  assert.deepEqual(foldedWords('a\u0301gua'), ['agua'])
})

test('plural and verb forms of a word share its key', () => {
  const sameWord = [
    ['casa', 'casas'], ['animal', 'animais'], ['acao', 'acoes'], ['imagem', 'imagens'], ['papel', 'papeis'],
    ['flor', 'flores'], ['luz', 'luzes'], ['possivel', 'possiveis'],
    ['estudar', 'estudou', 'estudando', 'estudaram', 'estudavam'],
    ['construir', 'construiu', 'construindo'], ['aprender', 'aprendeu', 'aprendendo', 'aprenderam']
  ]
  for (const forms of sameWord) {
    assert.equal(new Set(forms.map(wordKey)).size, 1, forms.join(', '))
  }
})

test('unrelated words the plain Snowball stemmer merges keep keys of their own', () => {
  // Each pair is one stem for @orama/stemmers' Portuguese stemmer.
  const unrelated = [
    ['casa', 'caso'], ['porta', 'porto'], ['bolsa', 'bolso'], ['conta', 'conto'], ['ponto', 'ponta'], ['carga', 'cargo'],
    ['vinho', 'vinha'], ['finalidade', 'final'], ['embaixador', 'embaixo'], ['livraria', 'livrar'], ['mente', 'mentira'],
    ['sentar', 'sentir'], ['sentou', 'sentiu'], ['trem', 'tremer'], ['mais', 'mal'], ['pois', 'pol'], ['tres', 'tr'],
    ['estado', 'estar'], ['teoria', 'teor']
  ]
  for (const [a, b] of unrelated) assert.notEqual(wordKey(a!), wordKey(b!), `${a} / ${b}`)
})

test('no two words of the dataset that differ only in their final vowel share a key (casa/caso, porta/porto)', () => {
  const byKey = new Map<string, string[]>()
  for (const word of vocabulary) {
    const key = wordKey(word)
    const group = byKey.get(key)
    if (group === undefined) byKey.set(key, [word])
    else group.push(word)
  }
  const genderOrVowelSwap = /^(.+?)([aeo])(s?)$/
  const merged: string[] = []
  for (const group of byKey.values()) {
    const seen = new Map<string, string>()
    for (const word of group) {
      const match = genderOrVowelSwap.exec(word)
      if (match === null) continue
      const frame = `${match[1]}_${match[3]}`
      const other = seen.get(frame)
      if (other !== undefined && other !== word) merged.push(`${other}/${word}`)
      seen.set(frame, word)
    }
  }
  assert.deepEqual(merged, [])
  assert.ok(vocabulary.length > 100)
})
