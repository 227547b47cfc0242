import { ApiProblem, getExam, getQuestionPage, getSkillTexts, postScores, practiceTarget, type AreaScore, type LeftOutReason, type QuestionRecord } from './api.ts'
import { addressOf } from './addresses.ts'
import { h, replaceChildren } from './dom.ts'
import { countOf, disciplineLabel, examLabel, type ExamOptions } from './exam-options.ts'
import { alternativeBody, statementParts } from './question-parts.ts'
import { navigate } from './navigation.ts'
import type { Screen } from './screen.ts'
import { formatScore, scoreExplanation, type ScoredAnswer } from './levels.ts'
import { levelPracticeSection } from './level-practice.ts'
import { rankedSkills, skillsTable } from './skills-table.ts'

/*
 * "Simulado": one area of one exam answered in order, one question at a time, then scored by the
 * API (POST /v1/scores) the way INEP scores it. The answers are kept in localStorage, per exam,
 * area and language, so a reload (or coming back days later) finds them.
 */

/** Questions of an area: 45 at most, so one page of the API's list holds them all. */
const AREA_QUESTIONS = 45
const LETTERS = ['A', 'B', 'C', 'D', 'E'] as const

const LEFT_OUT: Record<LeftOutReason, string> = {
  annulled: 'anulada pelo INEP',
  'not-taken-language': 'da outra língua',
  'no-parameters': 'sem parâmetros do INEP (fora da nota)',
  missing: 'ausente do acervo'
}

function select (id: string, name: string, label: string, options: Array<[string, string]>, selected: string | undefined): HTMLElement {
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('select', { id, name }, options.map(([value, text]) => h('option', { value, selected: value === selected }, text))))
}

function examValue (year: number, application: string): string {
  return application === 'regular' ? String(year) : `${year}-${application}`
}

/** Choosing the exam, the area and the foreign language of a practice run. */
export function practiceSetupScreen (options: ExamOptions, year: number | undefined): Screen {
  const form = h('form', { class: 'search practice-setup', action: './', method: 'get', 'aria-label': 'Escolher o simulado' },
    h('fieldset', { class: 'filters' },
      h('legend', {}, 'Simulado'),
      // An exam is its year and application: the value names both (`2020`, `2020-ppl`), as the API's exam keys do.
      select('simulado-prova', 'simulado', 'Prova', options.exams.map((exam) => [examValue(exam.year, exam.application), examLabel(exam)]), year === undefined ? undefined : String(year)),
      select('simulado-area', 'area', 'Área', [...options.disciplines], undefined),
      select('simulado-idioma', 'idioma', 'Língua estrangeira (em Linguagens)', [...options.languages], undefined)),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Começar')))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const data = new FormData(form)
    const value = (name: string) => String(data.get(name) ?? '')
    const [examYear, examApplication] = value('simulado').split('-')
    navigate(addressOf({ kind: 'practice', year: Number(examYear), application: examApplication, discipline: value('area'), language: value('idioma') || undefined }))
  })
  return {
    title: 'Simulado',
    content: [
      h('nav', { class: 'breadcrumb', 'aria-label': 'Você está em' }, h('a', { href: './' }, 'Início'), ' › ', h('span', { 'aria-current': 'page' }, 'Simulado')),
      h('h1', { tabindex: -1 }, 'Simulado'),
      h('p', { class: 'lead' }, 'Responda às questões de uma área de uma prova, na ordem da prova, e veja a nota que o INEP daria a essas respostas.'),
      form
    ]
  }
}

/** Answers kept for one exam, area and language: letters by question index. */
function storedAnswers (key: string): Map<number, string> {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? '{}') as unknown
    if (typeof value !== 'object' || value === null) return new Map()
    return new Map(Object.entries(value).filter(([index, letter]) => /^[1-9][0-9]{0,2}$/.test(index) && (LETTERS as readonly unknown[]).includes(letter)).map(([index, letter]) => [Number(index), letter as string]))
  } catch {
    return new Map()
  }
}

function storeAnswers (key: string, answers: Map<number, string>): void {
  try {
    localStorage.setItem(key, JSON.stringify(Object.fromEntries(answers)))
  } catch {
    // Storage full or refused (a private window): the run goes on, without surviving a reload.
  }
}

export async function practiceScreen (options: ExamOptions, year: number, application: string | undefined, discipline: string, requestedLanguage: string | undefined, signal: AbortSignal): Promise<Screen> {
  const exam = { ...await getExam(year, application, signal) }
  // The page names a second application as such wherever it shows the exam's title.
  exam.title = examLabel(exam)
  const offered = exam.languages.map((option) => option.value)
  const language = requestedLanguage !== undefined && offered.includes(requestedLanguage) ? requestedLanguage : offered[0]
  if (!exam.disciplines.some((option) => option.value === discipline)) throw new ApiProblem(404, `A prova ${exam.title} não tem a área ${discipline}`)
  // The skills' texts are a nicety: without them the page names skills by code.
  const [{ questions: listed }, skillTexts] = await Promise.all([
    getQuestionPage(year, { application, discipline, language, limit: 50 }, signal),
    getSkillTexts().catch((): ReadonlyMap<string, string> => new Map())
  ])
  // A record without its statement is not asked (`incomplete`); the score counts it blank, as INEP's sheet would.
  const questions = listed.filter((question) => question.incomplete == null)
  const incompleteCount = listed.length - questions.length
  const area = disciplineLabel(options, discipline)
  // The regular exam's key as before, so answers kept before second applications existed are found again.
  const storageKey = `enem-simulado:${application === undefined || application === 'regular' ? year : `${year}-${application}`}:${discipline}:${language ?? ''}`
  const answers = storedAnswers(storageKey)
  const answerable = new Set(questions.map((question) => question.index))
  for (const index of answers.keys()) if (!answerable.has(index)) answers.delete(index)
  const languageNote = discipline === 'linguagens' && language !== undefined ? ` (${exam.languages.find((option) => option.value === language)?.label ?? language})` : ''
  let position = 0

  const progress = h('progress', { max: questions.length, value: answers.size, 'aria-label': 'Questões respondidas' })
  const progressText = h('p', { class: 'progress-text' })
  const panel = h('div', { class: 'practice-question' })
  const numbers = h('ol', { class: 'numbers practice-numbers', 'aria-label': 'Ir para a questão' })
  const result = h('section', { class: 'practice-result', 'aria-labelledby': 'nota-titulo', hidden: true })
  const status = h('p', { class: 'form-status', role: 'status' })
  const submit = h('button', { type: 'button' }, 'Ver minha nota')
  const restart = h('button', { type: 'button', class: 'secondary' }, 'Apagar respostas')

  const updateProgress = () => {
    progress.value = answers.size
    progressText.textContent = `Questão ${position + 1} de ${questions.length} · ${countOf(answers.size, 'respondida', 'respondidas')}`
    numbers.querySelectorAll<HTMLButtonElement>('button').forEach((button, at) => {
      const index = questions[at]!.index
      button.classList.toggle('answered', answers.has(index))
      button.setAttribute('aria-current', at === position ? 'step' : 'false')
      button.setAttribute('aria-label', `Questão ${index}${answers.has(index) ? `, respondida ${answers.get(index)!}` : ''}`)
    })
  }

  const show = (at: number, focus: boolean) => {
    position = Math.max(0, Math.min(questions.length - 1, at))
    const question = questions[position]!
    const alternatives = h('fieldset', { class: 'alternatives' },
      h('legend', {}, `Alternativas da questão ${question.index}`),
      question.alternatives.map((alternative) => {
        const id = `simulado-${alternative.letter}`
        const input = h('input', { type: 'radio', name: 'simulado-alternativa', id, value: alternative.letter, checked: answers.get(question.index) === alternative.letter })
        input.addEventListener('change', () => {
          answers.set(question.index, alternative.letter)
          storeAnswers(storageKey, answers)
          updateProgress()
        })
        return h('div', { class: 'alternative', 'data-letter': alternative.letter },
          input,
          h('label', { for: id }, h('span', { class: 'letter', 'aria-hidden': 'true' }, alternative.letter), h('span', { class: 'visually-hidden' }, `Alternativa ${alternative.letter}: `), alternativeBody(alternative, `da questão ${question.index}`)))
      }))
    const previous = h('button', { type: 'button', class: 'secondary', disabled: position === 0 }, '← Anterior')
    const next = h('button', { type: 'button', class: 'secondary', disabled: position === questions.length - 1 }, 'Próxima →')
    previous.addEventListener('click', () => show(position - 1, true))
    next.addEventListener('click', () => show(position + 1, true))
    replaceChildren(panel,
      h('h2', { id: 'simulado-questao', tabindex: -1 }, `Questão ${question.index}`),
      statementParts(question, `da questão ${question.index}`),
      alternatives,
      h('div', { class: 'actions practice-steps' }, previous, next))
    updateProgress()
    if (focus) panel.querySelector<HTMLElement>('h2')?.focus()
  }

  questions.forEach((question, at) => {
    const button = h('button', { type: 'button', class: 'secondary' }, String(question.index))
    button.addEventListener('click', () => show(at, true))
    numbers.append(h('li', {}, button))
  })

  submit.addEventListener('click', () => {
    submit.disabled = true
    status.textContent = 'Calculando a nota…'
    postScores({ year, application, language, answers: Object.fromEntries([...answers].map(([index, letter]) => [String(index), letter])) }).then((answer) => {
      status.textContent = ''
      showResult(answer.areas.find((entry) => entry.discipline === discipline))
    }, (error: unknown) => {
      status.textContent = `Não foi possível calcular a nota: ${error instanceof Error ? error.message : String(error)}`
    }).finally(() => {
      submit.disabled = false
    })
  })
  restart.addEventListener('click', () => {
    answers.clear()
    storeAnswers(storageKey, answers)
    result.hidden = true
    show(0, true)
  })

  const showResult = (score: AreaScore | undefined) => {
    result.hidden = false
    const rows = questions.map((question) => questionOutcome(question, answers.get(question.index), score))
    const leftOutMissing = score?.leftOut.filter((entry) => entry.reason === 'missing').map((entry) => entry.index) ?? []
    // The questions that counted, as the score counted them: not left out, with INEP's parameters.
    const leftOutIndexes = new Set(score?.leftOut.map((entry) => entry.index))
    const counted = questions.filter((question) => !leftOutIndexes.has(question.index) && question.inep?.irt != null)
    const simulado: ScoredAnswer[] = counted.map((question) => ({ irt: question.inep!.irt!, right: answers.get(question.index) === question.correctAlternative }))
    replaceChildren(result,
      h('h2', { id: 'nota-titulo', tabindex: -1 }, score !== undefined ? `Sua nota: ${formatScore(score.score)}` : answers.size === 0 ? 'Nenhuma questão respondida' : 'Sem nota: nenhuma das questões respondidas conta para a nota'),
      score !== undefined && h('p', { class: 'score-facts' },
        `${countOf(score.correct, 'acerto', 'acertos')} em ${countOf(score.scored, 'questão que conta', 'questões que contam')} para a nota.`),
      h('p', { class: 'method' }, `A nota é calculada como o INEP a calcula, para a prova ${exam.title}: pela Teoria de Resposta ao Item (modelo de três parâmetros, com os parâmetros oficiais de cada item), e não pelo número de acertos.`),
      leftOutMissing.length > 0 && h('p', {}, `Ficaram fora da nota as questões que faltam no acervo: ${leftOutMissing.join(', ')}.`),
      score !== undefined && scoreExplanation(score, counted),
      score?.skills !== undefined && score.skills.length > 0 && score.practice !== undefined &&
        skillsTable(rankedSkills(score, counted), discipline, practiceTarget(score.practice).score, skillTexts),
      score?.practice !== undefined && levelPracticeSection({ ...score, practice: score.practice }, simulado, skillTexts),
      h('table', { class: 'practice-answers' },
        h('caption', {}, 'Suas respostas'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Questão'), h('th', { scope: 'col' }, 'Sua resposta'), h('th', { scope: 'col' }, 'Gabarito'), h('th', { scope: 'col' }, 'Resultado'))),
        h('tbody', {}, rows)))
    result.querySelector<HTMLElement>('h2')?.focus()
  }

  const missingCount = AREA_QUESTIONS - listed.length
  show(Math.max(0, questions.findIndex((question) => !answers.has(question.index))), false)
  return {
    title: `Simulado · ${exam.title} · ${area}`,
    content: [
      h('nav', { class: 'breadcrumb', 'aria-label': 'Você está em' },
        h('a', { href: './' }, 'Início'), ' › ', h('a', { href: addressOf({ kind: 'practice-setup', year }) }, 'Simulado'), ' › ',
        h('span', { 'aria-current': 'page' }, `${exam.title} · ${area}`)),
      h('h1', { tabindex: -1 }, `Simulado: ${exam.title}, ${area}${languageNote}`),
      h('p', { class: 'lead' }, `${countOf(questions.length, 'questão', 'questões')}, na ordem da prova. Ao terminar, a nota é calculada como o INEP a calcula para esta prova; questões em branco contam como erradas.`),
      missingCount > 0 && h('p', { class: 'note' }, `A prova tem ${AREA_QUESTIONS} questões nesta área; o acervo tem ${listed.length}. As que faltam ficam fora da nota.`),
      incompleteCount > 0 && h('p', { class: 'note incomplete-count' }, `${incompleteCount === 1 ? 'Uma questão desta área está incompleta' : `${incompleteCount} questões desta área estão incompletas`} no acervo (sem o enunciado) e ${incompleteCount === 1 ? 'fica' : 'ficam'} fora do simulado; na nota, como no cartão do INEP, contam como em branco.`),
      h('div', { class: 'practice-progress' }, progress, progressText),
      panel,
      numbers,
      h('div', { class: 'actions' }, submit, restart),
      status,
      result
    ]
  }
}

/** One row of the result table: the answer given, the key, and whether it was right or does not count. */
function questionOutcome (question: QuestionRecord, given: string | undefined, score: AreaScore | undefined): HTMLElement {
  const leftOut = score?.leftOut.find((entry) => entry.index === question.index)
  const annulled = question.inep?.annulled === true
  const outcome = annulled
    ? LEFT_OUT.annulled
    : leftOut !== undefined ? LEFT_OUT[leftOut.reason] : given === undefined ? 'em branco (errada)' : given === question.correctAlternative ? 'certa' : 'errada'
  const kind = annulled || leftOut !== undefined ? 'left-out' : given === question.correctAlternative ? 'right' : 'wrong'
  return h('tr', { class: `outcome-${kind}` },
    h('th', { scope: 'row' }, String(question.index)),
    h('td', {}, given ?? '—'),
    h('td', {}, annulled ? `${question.correctAlternative} (anulada)` : question.correctAlternative),
    h('td', {}, outcome))
}
