import { ApiProblem, findQuestions, type QuestionList, type QuestionRecord } from './api.ts'
import { addressOf, apiFilters, NO_FILTERS, type Filters } from './addresses.ts'
import { h } from './dom.ts'
import { APPLICATION_LABELS, countOf, disciplineLabel, examLabel, findExam, languageLabel, type ExamOptions } from './exam-options.ts'
import { plainText } from './markdown.ts'
import { cardFigures } from './question-parts.ts'
import { searchForm } from './search-form.ts'
import type { Screen } from './screen.ts'

/** Results per page; the API allows up to 50, and each result is a full record. */
export const PAGE_SIZE = 12

/** Characters of a statement shown on a card. */
const EXCERPT_LENGTH = 220

function excerpt (question: QuestionRecord): string {
  const text = plainText(question.context ?? '') || plainText(question.alternativesIntroduction ?? '')
  if (text.length <= EXCERPT_LENGTH) return text
  const cut = text.slice(0, EXCERPT_LENGTH)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), EXCERPT_LENGTH / 2))}…`
}

function card (question: QuestionRecord, options: ExamOptions, filters: Filters): HTMLElement {
  const address = addressOf({ kind: 'question', year: question.year, application: question.application, index: question.index, language: question.language ?? filters.language })
  const exam = findExam(options, question.year, question.application)
  const details = [disciplineLabel(options, question.discipline), languageLabel(options, question.language)].filter((part) => part !== '')
  return h('li', { class: 'card' },
    h('article', {},
      h('h3', {}, h('a', { href: address }, `Questão ${question.index}`, h('span', { class: 'exam-year' }, ` · ${exam === undefined ? `ENEM ${question.year}` : examLabel(exam)}`))),
      details.length > 0 && h('p', { class: 'meta' }, details.join(' · ')),
      h('p', { class: 'excerpt' }, excerpt(question)),
      // The excerpt is words only: every figure of the question is shown here, once, readable.
      cardFigures(question, `da questão ${question.index}`)))
}

function examList (options: ExamOptions): HTMLElement {
  return h('section', { class: 'exams', 'aria-labelledby': 'provas' },
    h('h2', { id: 'provas' }, 'Provas'),
    h('ul', { class: 'exam-list' },
      options.exams.map((exam) => h('li', {}, h('a', { href: addressOf({ kind: 'exam', year: exam.year, application: exam.application, language: undefined }) }, examLabel(exam))))))
}

export function homeScreen (options: ExamOptions): Screen {
  const years = options.exams.map((exam) => exam.year)
  const span = years.length > 0 ? ` de ${Math.min(...years)} a ${Math.max(...years)}` : ''
  return {
    title: 'Questões do ENEM',
    content: [
      h('h1', { tabindex: -1 }, 'Questões do ENEM'),
      h('p', { class: 'lead' }, `Busque, leia e pratique as questões das provas do ENEM${span}. Escolha uma alternativa e confira a resposta.`),
      searchForm(options, NO_FILTERS),
      h('p', { class: 'practice-link' }, h('a', { href: addressOf({ kind: 'practice-setup', year: undefined }) }, 'Fazer um simulado'), ': responda às questões de uma área de uma prova e veja a nota calculada como o INEP calcula.'),
      h('p', { class: 'practice-link' }, h('a', { href: addressOf({ kind: 'level-practice-setup', discipline: undefined, score: undefined, skill: undefined }) }, 'Praticar no seu nível'), ': questões de todas as provas escolhidas para a sua nota em uma área, de todas as habilidades ou de uma só.'),
      examList(options)
    ]
  }
}

function describe (filters: Filters, options: ExamOptions): string {
  const parts: string[] = []
  if (filters.q.trim() !== '') parts.push(`“${filters.q.trim()}”`)
  if (filters.year !== undefined) parts.push(`ENEM ${filters.year}`)
  if (filters.application !== undefined) parts.push(APPLICATION_LABELS[filters.application] ?? filters.application)
  if (filters.discipline !== undefined) parts.push(disciplineLabel(options, filters.discipline))
  if (filters.language !== undefined) parts.push(languageLabel(options, filters.language))
  if (filters.withoutImages) parts.push('sem imagens')
  if (filters.withoutAnnulled) parts.push('sem anuladas')
  return parts.join(', ')
}

function pager (filters: Filters, page: number, total: number): HTMLElement | false {
  const pages = Math.ceil(total / PAGE_SIZE)
  if (pages <= 1) return false
  const link = (target: number, text: string, rel: string) => h('a', { href: addressOf({ kind: 'search', filters, page: target }), rel }, text)
  return h('nav', { class: 'pager', 'aria-label': 'Páginas de resultados' },
    page > 1 ? link(page - 1, '← Anterior', 'prev') : h('span', { class: 'placeholder' }),
    h('span', { 'aria-current': 'page' }, `Página ${page} de ${pages}`),
    page < pages ? link(page + 1, 'Próxima →', 'next') : h('span', { class: 'placeholder' }))
}

export async function searchScreen (options: ExamOptions, filters: Filters, page: number, signal: AbortSignal): Promise<Screen> {
  const described = describe(filters, options)
  let list: QuestionList
  try {
    list = await findQuestions({ ...apiFilters(filters), limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }, signal)
  } catch (error) {
    // A search the API refuses (a `q` with no word in it, a filter no exam offers): say why, next to the form to fix it.
    if (!(error instanceof ApiProblem) || (error.status !== 400 && error.status !== 422)) throw error
    return {
      title: 'Busca inválida',
      content: [
        h('h1', { tabindex: -1 }, 'Buscar questões'),
        searchForm(options, filters),
        h('p', { class: 'empty', role: 'alert' }, `Esta busca não pôde ser feita: ${error.message}`)
      ]
    }
  }
  const { total } = list.metadata
  const shown = total === 0
    ? h('p', { class: 'empty' }, 'Nenhuma questão encontrada. Tente outras palavras ou menos filtros.')
    : list.questions.length === 0
      ? h('p', { class: 'empty' }, `Esta página está além do fim dos resultados (${countOf(total, 'questão', 'questões')}).`)
      : h('ol', { class: 'cards', start: list.metadata.offset + 1 }, list.questions.map((question) => card(question, options, filters)))
  return {
    title: described === '' ? 'Todas as questões' : `Busca: ${described}`,
    content: [
      h('h1', { tabindex: -1 }, 'Buscar questões'),
      searchForm(options, filters),
      h('section', { class: 'results', 'aria-labelledby': 'resultados' },
        h('h2', { id: 'resultados' }, `${countOf(total, 'questão encontrada', 'questões encontradas')}${described === '' ? '' : ` para ${described}`}`),
        shown,
        pager(filters, page, total))
    ]
  }
}
