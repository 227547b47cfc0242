import { getExam } from './api.ts'
import { addressOf, NO_FILTERS, type View } from './addresses.ts'
import { h } from './dom.ts'
import { countOf, disciplineLabel, examLabel, type ExamOptions } from './exam-options.ts'
import type { Screen } from './screen.ts'

/*
 * One exam: its questions grouped by area, in one language view (the null-language questions
 * plus those of the chosen foreign language, as the API's language view).
 */

export function examView (year: number, application: string | undefined, language: string | undefined): View {
  return { kind: 'exam', year, application, language }
}

export async function examScreen (options: ExamOptions, year: number, application: string | undefined, requestedLanguage: string | undefined, signal: AbortSignal): Promise<Screen> {
  const exam = await getExam(year, application, signal)
  const title = examLabel(exam)
  const offered = exam.languages.map((option) => option.value)
  const language = requestedLanguage !== undefined && offered.includes(requestedLanguage) ? requestedLanguage : offered[0]
  const byArea = new Map<string, Set<number>>()
  // Indexes whose record in this view shows no statement (`incomplete`); the language's record wins over the common one, as the question page's does.
  const incomplete = new Map<number, boolean>()
  for (const entry of exam.questions) {
    if (entry.language !== null && entry.language !== language) continue
    const area = entry.discipline ?? ''
    if (!byArea.has(area)) byArea.set(area, new Set())
    byArea.get(area)!.add(entry.index)
    if (entry.language !== null || !incomplete.has(entry.index)) incomplete.set(entry.index, entry.incomplete != null)
  }
  const incompleteCount = [...incomplete.values()].filter(Boolean).length
  const languageSwitch = exam.languages.length > 1 && h('nav', { class: 'language-switch', 'aria-label': 'Língua estrangeira' },
    h('span', {}, 'Língua estrangeira: '),
    exam.languages.map((option) => h('a', { href: addressOf(examView(year, application, option.value)), 'aria-current': option.value === language ? 'page' : undefined }, option.label)))
  const sections = [...byArea].map(([area, indexes], position) => {
    const id = `area-${position + 1}`
    const label = area === '' ? 'Sem área indicada' : disciplineLabel(options, area)
    return h('section', { class: 'area', 'aria-labelledby': id },
      h('h2', { id }, label, h('span', { class: 'count' }, ` (${countOf(indexes.size, 'questão', 'questões')})`)),
      h('ol', { class: 'numbers' },
        [...indexes].sort((a, b) => a - b).map((index) => h('li', {},
          h('a', { href: addressOf({ kind: 'question', year, application, index, language }), class: incomplete.get(index) === true ? 'incomplete' : undefined, 'aria-label': `Questão ${index}${incomplete.get(index) === true ? ', incompleta' : ''}` }, String(index))))),
      area !== '' && h('p', { class: 'area-search' },
        h('a', { href: addressOf({ kind: 'search', filters: { ...NO_FILTERS, year, application: application ?? 'regular', discipline: area, language }, page: 1 }) }, `Ler as questões de ${label} em lista`)))
  })
  return {
    title,
    content: [
      h('nav', { class: 'breadcrumb', 'aria-label': 'Você está em' }, h('a', { href: './' }, 'Início'), ' › ', h('span', { 'aria-current': 'page' }, title)),
      h('h1', { tabindex: -1 }, title),
      languageSwitch,
      incompleteCount > 0 && h('p', { class: 'note incomplete-count' },
        `${incompleteCount === 1 ? 'Uma questão desta prova está incompleta' : `${incompleteCount} questões desta prova estão incompletas`} no acervo, sem o enunciado (tracejadas abaixo): ${incompleteCount === 1 ? 'fica' : 'ficam'} fora dos sorteios, da prática e do simulado.`),
      ...sections
    ]
  }
}
