import { APPLICATIONS, type Application } from '../../src/data/exam-key.ts'
import { before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { Catalog, type Exam } from '../../src/data/catalog.ts'
import { loadDataset } from '../../src/data/dataset/load-dataset.ts'
import { isAnnulled, QuestionFinder, type QuestionFilters } from '../../src/data/finding/question-finder.ts'
import { parseSearchQuery, QuestionSearch, searchableText, type SearchQuery } from '../../src/data/finding/question-search.ts'
import { MiniSearchReference } from './minisearch-reference.ts'
import { drawDistinct } from '../../src/data/finding/random-draw.ts'
import type { Question } from '../../src/data/record-schemas.ts'
import { foldedWords, wordKey } from '../../src/data/finding/search-words.ts'
import { FULL_DATA_DIR } from '../helper.ts'

const FILES_BASE = 'http://api.test/files'

let catalog: Catalog
let finder: QuestionFinder
/** Every record, newest exam first, each exam's records in its order: the listing order of the contract. */
let listing: Question[]

before(async () => {
  const loaded = await loadDataset(FULL_DATA_DIR ?? SAMPLE_DATA_DIR, { filesBaseUrl: FILES_BASE })
  assert.ok(loaded.catalog !== null)
  catalog = loaded.catalog
  finder = new QuestionFinder(catalog)
  listing = catalog.listExams().flatMap((exam) => [...exam.questions])
})

const search = (text: string): SearchQuery => {
  const parsed = parseSearchQuery(text)
  assert.ok(parsed !== null, text)
  return parsed
}

const label = (question: Question) => `${question.year}${question.application === 'regular' ? '' : `-${question.application}`}/${question.index}/${question.language ?? '-'}`

/** The records a filter set selects, worked out from the records and the contract alone, in listing order. */
function expectedWithoutSearch (filters: QuestionFilters): Question[] {
  return listing.filter((question) => {
    const exam = catalog.getExam(question.year, question.application)!
    const language = filters.language ?? exam.defaultLanguage
    if (question.language !== null && question.language !== language) return false
    if (filters.years !== undefined && !filters.years.has(question.year)) return false
    if (filters.applications !== undefined && !filters.applications.has(question.application)) return false
    if (filters.discipline !== undefined && question.discipline !== filters.discipline) return false
    // Every image address of a record points at the /files of the server (the loader rewrites them).
    const showsImage = [question.context ?? '', ...question.files, ...question.alternatives.map((a) => a.file ?? '')].some((text) => text.includes(`${FILES_BASE}/`))
    if (filters.hasImages !== undefined && showsImage !== filters.hasImages) return false
    if (filters.annulled !== undefined && (question.inep !== null && question.inep.annulled) !== filters.annulled) return false
    return true
  })
}

describe('filters', () => {
  test('without filters: each exam\'s default view, newest exam first, by index, null-language record first', () => {
    const found = finder.find({})
    const expected = catalog.listExams().flatMap((exam) => [...catalog.languageView(exam, exam.defaultLanguage, null)])
    assert.deepEqual(found.map(label), expected.map(label))
  })

  test('every combination of year (with application), discipline, language, hasImages and annulled gives exactly the expected records, in order', () => {
    const years = catalog.listExams().map((exam) => exam.summary.year)
    const yearChoices: Array<ReadonlySet<number> | undefined> = [undefined, new Set([years[0]!]), new Set([years.at(-1)!]), new Set(years.filter((_, i) => i % 2 === 0))]
    const disciplines = [undefined, ...new Set(catalog.listExams().flatMap((exam) => exam.disciplineSlugs))]
    const languages = [undefined, ...finder.languages]
    const booleans = [undefined, true, false]
    let combinations = 0
    let nonEmpty = 0
    const applicationChoices: Array<ReadonlySet<Application> | undefined> = [undefined, ...APPLICATIONS.map((application) => new Set([application]))]
    for (const [choice, yearSet] of yearChoices.entries()) {
      // Each application choice with some of the year choices: every one of them together would be slow on the full dataset.
      const applications = applicationChoices[choice % applicationChoices.length]
      for (const discipline of disciplines) {
        for (const language of languages) {
          for (const hasImages of booleans) {
            for (const annulled of booleans) {
              const filters: QuestionFilters = { years: yearSet, applications, discipline, language, hasImages, annulled }
              const expected = expectedWithoutSearch(filters)
              assert.deepEqual(finder.find(filters).map(label), expected.map(label), JSON.stringify({ ...filters, years: yearSet && [...yearSet], applications: applications && [...applications] }))
              combinations++
              if (expected.length > 0) nonEmpty++
            }
          }
        }
      }
    }
    assert.ok(combinations >= 100)
    assert.ok(nonEmpty > combinations / 4, `${nonEmpty} of ${combinations} combinations select something`)
  })

  test('hasImages splits the records: images in files, in an alternative\'s file or only inside context all count', () => {
    const withImages = finder.find({ hasImages: true })
    const without = finder.find({ hasImages: false })
    assert.equal(withImages.length + without.length, finder.find({}).length)
    assert.ok(withImages.length > 0 && without.length > 0)
    assert.ok(withImages.some((question) => question.files.length > 0))
  })

  test('a language an exam lacks leaves that exam\'s null-language records', () => {
    for (const language of finder.languages) {
      for (const exam of catalog.listExams().filter((one) => !one.languageSlugs.includes(language))) {
        const found = finder.find({ language, years: new Set([exam.summary.year]), applications: new Set([exam.summary.application]) })
        assert.deepEqual(found.map(label), exam.questions.filter((question) => question.language === null).map(label))
      }
    }
  })

  test('annulled reads inep.annulled; a record without inep counts as not annulled', () => {
    // Some records more are marked annulled here, so the filter is seen to follow the field.
    const marked = new Set<string>()
    const exams: Exam[] = catalog.listExams().map((exam) => {
      const questions = exam.questions.map((question, position) => {
        if (isAnnulled(question)) marked.add(label(question))
        if (position % 7 !== 3) return question
        marked.add(label(question))
        return { ...question, inep: { ...(question.inep ?? {}), annulled: true } } as Question
      })
      return { ...exam, questions }
    })
    const annotated = new QuestionFinder(new Catalog(exams))
    const annulled = annotated.find({ annulled: true })
    assert.ok(annulled.length > 0)
    assert.ok(annulled.every((question) => marked.has(label(question)) && isAnnulled(question)))
    assert.equal(annulled.length + annotated.find({ annulled: false }).length, annotated.find({}).length)
    assert.equal(isAnnulled({ ...listing[0]!, inep: null }), false)
  })
})

describe('search', () => {
  /** Document frequency of each folded word, and the records holding it. */
  let recordsByWord: Map<string, Set<Question>>
  /** Each record's keys, for "nothing unrelated comes back". */
  let keysOf: Map<Question, Set<string>>
  before(() => {
    recordsByWord = new Map()
    keysOf = new Map()
    for (const question of listing) {
      const words = foldedWords(searchableText(question))
      keysOf.set(question, new Set(words.map(wordKey)))
      for (const word of words) {
        let holders = recordsByWord.get(word)
        if (holders === undefined) recordsByWord.set(word, holders = new Set())
        holders.add(question)
      }
    }
  })

  /** Words that one to three records hold, spread over the alphabet. */
  const rareWords = (limit: number) => {
    const rare = [...recordsByWord].filter(([word, holders]) => holders.size <= 3 && word.length >= 5 && /\p{L}/u.test(word)).map(([word]) => word).sort()
    const step = Math.max(1, Math.floor(rare.length / limit))
    return rare.filter((_, i) => i % step === 0).slice(0, limit)
  }

  test('every record holding a rare word is found, and every record found holds a form of it', () => {
    const words = rareWords(300)
    assert.ok(words.length >= (FULL_DATA_DIR === undefined ? 30 : 300), `${words.length} rare words`)
    const everyRecord = new Set(listing)
    for (const word of words) {
      // Every language variant: the search runs over every record, whatever the view.
      const found = new Set(finderOverEveryRecord().search(search(word)).map((hit) => listing[hit.position]!))
      for (const holder of recordsByWord.get(word)!) assert.ok(found.has(holder), `${word}: ${label(holder)} holds it and was not found`)
      for (const question of found) {
        assert.ok(everyRecord.has(question))
        assert.ok(keysOf.get(question)!.has(wordKey(word)), `${word}: ${label(question)} came back without any form of it`)
      }
    }
  })

  test('accents and capitals fold both ways: the accented, plain and upper-case spellings find the same records', () => {
    const accented = [...new Set(listing.flatMap((question) => searchableText(question).match(/\p{L}*[À-ÿ]\p{L}*/gu) ?? []))]
      .filter((word) => word.length >= 5).sort()
    const step = Math.max(1, Math.floor(accented.length / 40))
    const samples = accented.filter((_, i) => i % step === 0)
    assert.ok(samples.length >= 20, `${samples.length} accented words`)
    const index = finderOverEveryRecord()
    for (const word of samples) {
      const plain = word.normalize('NFD').replace(/\p{M}/gu, '')
      const results = [word, plain, word.toUpperCase(), plain.toUpperCase()].map((spelling) => index.search(search(spelling)).map((hit) => hit.position))
      for (const other of results.slice(1)) assert.deepEqual(other, results[0], word)
      // The record the word was taken from is among them.
      assert.ok(results[0]!.some((position) => searchableText(listing[position]!).includes(word)), word)
    }
  })

  test('several words: only records holding every one (AND)', () => {
    const [first, second] = rareWords(2)
    const common = listing.filter((question) => keysOf.get(question)!.has(wordKey(first!)) && keysOf.get(question)!.has(wordKey(second!)))
    const found = finderOverEveryRecord().search(search(`${first} ${second}`)).map((hit) => listing[hit.position]!)
    assert.deepEqual(found.map(label).sort(), common.map(label).sort())
    const frequent = [...recordsByWord].sort((a, b) => b[1].size - a[1].size).slice(0, 2).map(([word]) => word)
    const both = finderOverEveryRecord().search(search(frequent.join(' '))).map((hit) => listing[hit.position]!)
    assert.deepEqual(both.map(label).sort(), listing.filter((question) => frequent.every((word) => keysOf.get(question)!.has(wordKey(word)))).map(label).sort())
  })

  test('a quoted phrase matches only where its words occur consecutively', () => {
    let checked = 0
    for (const question of listing.filter((_, i) => i % Math.max(1, Math.floor(listing.length / 40)) === 0)) {
      const words = foldedWords(searchableText(question))
      if (words.length < 12) continue
      const phrase = words.slice(5, 8)
      const found = finderOverEveryRecord().search(search(`"${phrase.join(' ')}"`)).map((hit) => listing[hit.position]!)
      assert.ok(found.includes(question), `${label(question)}: "${phrase.join(' ')}"`)
      for (const other of found) assert.ok(` ${foldedWords(searchableText(other)).join(' ')} `.includes(` ${phrase.join(' ')} `), `${label(other)} lacks "${phrase.join(' ')}"`)
      // The same words out of order are a different phrase.
      const reversed = [...phrase].reverse()
      const reversedFound = finderOverEveryRecord().search(search(`"${reversed.join(' ')}"`)).map((hit) => listing[hit.position]!)
      for (const other of reversedFound) assert.ok(` ${foldedWords(searchableText(other)).join(' ')} `.includes(` ${reversed.join(' ')} `))
      checked++
    }
    assert.ok(checked >= 5)
  })

  test('results come best first, ties in listing order, and the same query always gives the same order', () => {
    const index = finderOverEveryRecord()
    for (const word of [...recordsByWord].sort((a, b) => b[1].size - a[1].size).slice(5, 15).map(([one]) => one)) {
      const hits = index.search(search(word))
      for (let i = 1; i < hits.length; i++) {
        const [before, after] = [hits[i - 1]!, hits[i]!]
        assert.ok(before.score > after.score || (before.score === after.score && before.position < after.position), word)
      }
      assert.deepEqual(finder.find({ search: search(word) }), finder.find({ search: search(word) }))
    }
  })

  test('search meets the filters: the results are the filtered records that match, by relevance', () => {
    const word = [...recordsByWord].sort((a, b) => b[1].size - a[1].size)[20]![0]
    for (const discipline of new Set(listing.map((question) => question.discipline))) {
      if (discipline === null) continue
      const filtered = new Set(expectedWithoutSearch({ discipline }).map(label))
      const searched = finder.find({ search: search(word) }).map(label)
      assert.deepEqual(finder.find({ discipline, search: search(word) }).map(label), searched.filter((one) => filtered.has(one)))
    }
  })

  test('a page of a search is that slice of its list, under every kind of filter, for words most records hold and words few do', () => {
    const byHolders = [...recordsByWord].filter(([word]) => /\p{L}/u.test(word)).sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1))
    const common = byHolders.slice(0, 4).map(([word]) => word)
    const middling = byHolders[Math.floor(byHolders.length / 50)]![0]
    const texts = [common[0]!, common.join(' '), `"${common[0]} ${common[1]}"`, middling]
    const years = [...new Set(listing.map((question) => question.year))].sort((a, b) => a - b)
    const skillOf = (question: Question) => question.inep === null || question.inep.skill === null ? null : `${question.inep.area}-H${question.inep.skill}`
    const skills = [...new Set(listing.map(skillOf).filter((code) => code !== null))].sort().slice(0, 3)
    const difficulties = listing.map((question) => question.inep?.difficulty).filter((value) => typeof value === 'number').sort((a, b) => a - b)
    const median = difficulties[Math.floor(difficulties.length / 2)] ?? 500
    const filterSets: QuestionFilters[] = [
      {},
      { years: new Set(years.slice(0, Math.ceil(years.length / 2))) },
      { discipline: listing.find((question) => question.discipline !== null)!.discipline! },
      { hasImages: true, years: new Set([years.at(-1)!]) },
      { skills: new Set(skills) },
      { difficulty: [median, Number.POSITIVE_INFINITY] },
      { difficulty: [Number.NEGATIVE_INFINITY, median], annulled: false, language: finder.languages[0] }
    ]
    // What a filter set keeps, from the records alone: the view and the filters expectedWithoutSearch knows, then skills and difficulty.
    const keeps = (filters: QuestionFilters) => {
      const kept = new Set(expectedWithoutSearch(filters))
      return (question: Question) => kept.has(question) &&
        (filters.skills === undefined || filters.skills.has(skillOf(question) ?? '')) &&
        (filters.difficulty === undefined || (typeof question.inep?.difficulty === 'number' && question.inep.difficulty >= filters.difficulty[0] && question.inep.difficulty <= filters.difficulty[1]))
    }
    const index = new QuestionSearch(listing)
    let nonEmpty = 0
    for (const text of texts) {
      for (const filters of filterSets) {
        const withSearch = { ...filters, search: search(text) }
        const all = finder.find(withSearch)
        // The search's own order, less what the filters drop (the view included: a search alone reads every record).
        const kept = keeps(filters)
        assert.deepEqual(all.map(label), index.search(search(text)).map((hit) => listing[hit.position]!).filter(kept).map(label), `${text} ${JSON.stringify(filters, (_key, value: unknown) => value instanceof Set ? [...value] : value)}`)
        if (all.length > 0) nonEmpty++
        for (const [offset, limit] of [[0, 50], [3, 7], [Math.max(0, all.length - 2), 50]] as const) {
          const page = finder.findPage(withSearch, offset, limit)
          assert.equal(page.total, all.length)
          assert.deepEqual(page.items.map(label), all.slice(offset, offset + limit).map(label), `${text} at ${offset}`)
        }
      }
    }
    assert.ok(nonEmpty >= filterSets.length * 2, `most searches find something (${nonEmpty})`)
  })

  test('a text with no word has no query; phrases and words normalize alike', () => {
    assert.equal(parseSearchQuery('+++ "" ...'), null)
    assert.equal(parseSearchQuery('ÁGUA Fotossíntese')!.normalized, parseSearchQuery('fotossintese   agua')!.normalized)
    assert.notEqual(parseSearchQuery('"efeito estufa"')!.normalized, parseSearchQuery('efeito estufa')!.normalized)
  })

  test('the finder parses a text as parseSearchQuery does, for words of the records and words they lack alike', () => {
    const texts: string[] = []
    for (const question of listing.filter((_, i) => i % 7 === 0)) {
      const words = foldedWords(searchableText(question))
      // Words as the records hold them, then in the plural or with capitals and accents kept, and a word no record holds.
      texts.push(words.slice(0, 4).join(' '), `${words.slice(4, 6).map((word) => `${word}s`).join(' ')} "${words.slice(6, 9).join(' ')}"`)
      texts.push(searchableText(question).slice(0, 80), `${words[0] ?? ''} palavraquenaoexiste`)
    }
    // The build's memo of keys is complete only once every record is indexed: ask after a search.
    finder.find({ search: search('agua') })
    for (const text of texts) assert.deepEqual(finder.parseSearch(text), parseSearchQuery(text), text)
  })

  test('the compact index answers as MiniSearch itself: the same matches, in the same order, with the same scores', () => {
    const reference = new MiniSearchReference(listing)
    const holders = (word: string) => listing.filter((question) => keysOf.get(question)!.has(wordKey(word))).length
    // 1 to 3 consecutive words of records spread over the dataset, and the same words as a phrase.
    const queries: string[] = []
    for (const question of listing.filter((_, i) => i % Math.max(1, Math.floor(listing.length / 150)) === 0)) {
      const words = foldedWords(searchableText(question))
      for (let length = 1; length <= 3 && words.length >= 10; length++) {
        const slice = words.slice(length * 3, length * 3 + length)
        queries.push(slice.join(' '))
        if (length > 1) queries.push(`"${slice.join(' ')}"`)
      }
    }
    queries.push('palavraquenaoexiste', `${foldedWords(searchableText(listing[0]!))[0]} palavraquenaoexiste`)
    // Words most records hold and words few do, alone and together.
    const common = queries.filter((query) => foldedWords(query).some((word) => holders(word) > listing.length / 10))
    const rare = queries.filter((query) => foldedWords(query).every((word) => holders(word) <= 3))
    assert.ok(common.length >= 10 && rare.length >= 10, `${common.length} queries with a common word, ${rare.length} of rare words only`)
    let matched = 0
    for (const query of queries) {
      const expected = reference.search(search(query))
      const found = finderOverEveryRecord().search(search(query))
      assert.deepEqual(found.map((hit) => hit.position), expected.map((hit) => hit.position), query)
      found.forEach((hit, i) => assert.ok(Math.abs(hit.score - expected[i]!.score) <= 1e-9 * expected[i]!.score, `${query}: score ${hit.score} against ${expected[i]!.score}`))
      if (found.length > 0) matched++
    }
    assert.ok(matched >= queries.length / 2, `${matched} of ${queries.length} queries matched`)
  })

  let everyRecordIndex: QuestionSearch | undefined
  /** An index over every record in listing order (the finder's own, reached through its public parts, covers views only). */
  function finderOverEveryRecord (): QuestionSearch {
    everyRecordIndex ??= new QuestionSearch(listing)
    return everyRecordIndex
  }
})

describe('random draws', () => {
  const items = Array.from({ length: 37 }, (_, i) => i)

  test('the same seed gives the same draw; draws hold no repeats and never more than there is', () => {
    for (let seed = 0; seed < 200; seed++) {
      const draw = drawDistinct(items, 10, seed * 7919)
      assert.deepEqual(drawDistinct(items, 10, seed * 7919), draw)
      assert.equal(new Set(draw).size, 10)
    }
    assert.deepEqual(drawDistinct(items, 50, 1).sort((a, b) => a - b), items)
    assert.deepEqual(drawDistinct([], 5, 1), [])
    assert.notDeepEqual(drawDistinct(items, 10, 1), drawDistinct(items, 10, 2))
    assert.deepEqual(drawDistinct(items, 3, 0xffff_ffff), drawDistinct(items, 3, 0xffff_ffff))
    assert.notDeepEqual(drawDistinct(items, 10, 0xffff_ffff), drawDistinct(items, 10, 0x7fff_ffff))
  })

  /** Pearson's chi-square statistic of observed counts against equal expected counts. */
  const chiSquare = (counts: number[]) => {
    const expected = counts.reduce((sum, count) => sum + count, 0) / counts.length
    return counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0)
  }
  /** Upper 0.1% point of the chi-square distribution with 36 degrees of freedom (37 items). */
  const CHI_SQUARE_36_P001 = 67.985

  test('every item is equally likely: chi-square over 37,000 seeded draws of one, and over the first and every position of draws of five', () => {
    // Seeds are fixed, so the figures are the same on every run: this cannot flake.
    const single = new Array<number>(items.length).fill(0)
    const first = new Array<number>(items.length).fill(0)
    const anywhere = new Array<number>(items.length).fill(0)
    for (let seed = 0; seed < 37_000; seed++) {
      single[drawDistinct(items, 1, seed)[0]!]!++
      const five = drawDistinct(items, 5, seed + 1_000_000)
      first[five[0]!]!++
      for (const item of five) anywhere[item]!++
    }
    for (const counts of [single, first, anywhere]) {
      const statistic = chiSquare(counts)
      assert.ok(statistic < CHI_SQUARE_36_P001, `chi-square ${statistic.toFixed(1)} >= ${CHI_SQUARE_36_P001}`)
    }
    // And a bias the test must see: a draw that favours low items is refused.
    const biased = new Array<number>(items.length).fill(0)
    for (let seed = 0; seed < 37_000; seed++) biased[Math.min(drawDistinct(items, 1, seed)[0]!, drawDistinct(items, 1, seed + 99_999)[0]!)]!++
    assert.ok(chiSquare(biased) > CHI_SQUARE_36_P001)
  })
})
