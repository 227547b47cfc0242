import { drawRandomQuestion } from './api.ts'
import { addressOf, apiFilters, MAX_QUERY_LENGTH, type Filters } from './addresses.ts'
import { h } from './dom.ts'
import { APPLICATION_LABELS, applicationsOf, yearsOf, type ExamOptions } from './exam-options.ts'
import { navigate } from './navigation.ts'

/*
 * The search box and its filters. "Buscar" goes to the results' address; "Questão aleatória" asks
 * the API for one question matching the same filters and goes to it.
 */

function select (name: string, label: string, anyLabel: string, options: Array<[string, string]>, selected: string | undefined): HTMLElement {
  const id = `filtro-${name}`
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('select', { id, name },
      h('option', { value: '' }, anyLabel),
      options.map(([value, text]) => h('option', { value, selected: value === selected }, text))))
}

function checkbox (name: string, label: string, checked: boolean): HTMLElement {
  const id = `filtro-${name}`
  return h('div', { class: 'check' },
    h('input', { type: 'checkbox', id, name, value: '1', checked }),
    h('label', { for: id }, label))
}

function filtersOf (form: HTMLFormElement): Filters {
  const data = new FormData(form)
  const text = (name: string) => {
    const value = data.get(name)
    return typeof value === 'string' && value !== '' ? value : undefined
  }
  const year = text('ano')
  return {
    q: (text('q') ?? '').slice(0, MAX_QUERY_LENGTH),
    year: year === undefined ? undefined : Number(year),
    application: text('aplicacao'),
    discipline: text('area'),
    language: text('idioma'),
    withoutImages: data.get('sem-imagens') === '1',
    withoutAnnulled: data.get('sem-anuladas') === '1'
  }
}

export function searchForm (options: ExamOptions, filters: Filters): HTMLFormElement {
  const status = h('p', { class: 'form-status', role: 'status' })
  const randomButton = h('button', { type: 'button', class: 'secondary' }, 'Questão aleatória')
  const form = h('form', { class: 'search', role: 'search', action: './', method: 'get', 'aria-label': 'Buscar questões' },
    h('div', { class: 'field query' },
      h('label', { for: 'busca' }, 'Buscar no enunciado e nas alternativas'),
      h('input', { type: 'search', id: 'busca', name: 'q', value: filters.q, maxlength: MAX_QUERY_LENGTH, placeholder: 'ex.: fotossíntese, "revolução industrial"', autocomplete: 'off' })),
    h('fieldset', { class: 'filters' },
      h('legend', {}, 'Filtros'),
      select('ano', 'Ano', 'Todos os anos', yearsOf(options).map((year) => [String(year), String(year)]), filters.year === undefined ? undefined : String(filters.year)),
      // Only where the exams differ in it: a dataset of regular exams alone has nothing to choose.
      applicationsOf(options).length > 1 &&
        select('aplicacao', 'Aplicação', 'Todas as aplicações', applicationsOf(options).map((application) => [application, APPLICATION_LABELS[application]!]), filters.application),
      select('area', 'Área', 'Todas as áreas', [...options.disciplines], filters.discipline),
      select('idioma', 'Língua estrangeira', 'A de cada prova', [...options.languages], filters.language),
      checkbox('sem-imagens', 'Sem imagens', filters.withoutImages),
      checkbox('sem-anuladas', 'Sem anuladas', filters.withoutAnnulled)),
    h('div', { class: 'actions' },
      h('button', { type: 'submit' }, 'Buscar'),
      randomButton),
    status)

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    navigate(addressOf({ kind: 'search', filters: filtersOf(form), page: 1 }))
  })
  randomButton.addEventListener('click', () => {
    const chosen = filtersOf(form)
    randomButton.disabled = true
    status.textContent = 'Sorteando…'
    drawRandomQuestion(apiFilters(chosen)).then(({ questions }) => {
      const question = questions[0]
      if (question === undefined) {
        status.textContent = 'Nenhuma questão atende a esses filtros.'
        return
      }
      status.textContent = ''
      navigate(addressOf({ kind: 'question', year: question.year, application: question.application, index: question.index, language: question.language ?? chosen.language }))
    }, (error: unknown) => {
      status.textContent = `Não foi possível sortear uma questão: ${error instanceof Error ? error.message : String(error)}`
    }).finally(() => {
      randomButton.disabled = false
    })
  })
  return form
}
