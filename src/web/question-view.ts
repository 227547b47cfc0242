import { getExam, getQuestion, getSkillTexts, questionPath, type Alternative, type ExamDetail, type InepItem, type QuestionRecord } from './api.ts'
import { addressOf } from './addresses.ts'
import { h } from './dom.ts'
import { disciplineLabel, examLabel, languageLabel, type ExamOptions } from './exam-options.ts'
import { examView } from './exam-view.ts'
import { alternativeBody, statementParts } from './question-parts.ts'
import type { Screen } from './screen.ts'
import { levelWords } from './levels.ts'

/*
 * One question as it appears in the exam: statement, introduction, alternatives to choose from,
 * then "Mostrar resposta". Around it: the previous and next question of the same exam (in the same
 * language) and the record's JSON.
 */

const AREA_NAMES: Record<InepItem['area'], string> = {
  LC: 'Linguagens, Códigos e suas Tecnologias',
  CH: 'Ciências Humanas e suas Tecnologias',
  CN: 'Ciências da Natureza e suas Tecnologias',
  MT: 'Matemática e suas Tecnologias'
}

function alternativeChoice (alternative: Alternative, question: QuestionRecord): HTMLElement {
  const id = `alternativa-${alternative.letter}`
  const label = h('label', { for: id },
    h('span', { class: 'letter', 'aria-hidden': 'true' }, alternative.letter),
    h('span', { class: 'visually-hidden' }, `Alternativa ${alternative.letter}: `),
    alternativeBody(alternative, `da questão ${question.index}`))
  return h('div', { class: 'alternative', 'data-letter': alternative.letter },
    h('input', { type: 'radio', name: 'alternativa', id, value: alternative.letter }),
    label,
    h('span', { class: 'verdict' }))
}

function formatNumber (value: number): string {
  return value.toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
}

/** The official facts about the item, as far as the record has them; `skillTexts`: INEP's text of each skill by code. */
function inepFacts (inep: InepItem | null | undefined, skillTexts: ReadonlyMap<string, string>): HTMLElement[] {
  if (inep === null || inep === undefined) return []
  const facts: HTMLElement[] = []
  if (inep.annulled) facts.push(h('p', { class: 'annulled' }, 'O INEP anulou esta questão: ela não conta para a nota de ninguém.'))
  else if (inep.excludedFromScoring) facts.push(h('p', {}, 'O INEP deixou este item fora do cálculo da nota.'))
  const details: Array<[string, string]> = []
  if (inep.skill !== null) {
    const code = `${inep.area}-H${inep.skill}`
    const text = skillTexts.get(code)
    details.push(['Habilidade', `${code} da matriz de ${AREA_NAMES[inep.area] ?? inep.area}${text === undefined ? '' : `: ${text}`}`])
  }
  if (typeof inep.difficulty === 'number') details.push(['Dificuldade', `${levelWords(inep.difficulty)}: quem tem essa nota na área acerta esta questão mais vezes do que erra`])
  if (inep.irt !== null) details.push(['Parâmetros da TRI', `a ${formatNumber(inep.irt.a)}, b ${formatNumber(inep.irt.b)}, c ${formatNumber(inep.irt.c)}`])
  if (details.length > 0) facts.push(h('dl', { class: 'inep' }, details.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])))
  return facts
}

function answerSection (question: QuestionRecord, fieldset: HTMLFieldSetElement, skillTexts: ReadonlyMap<string, string>): { button: HTMLButtonElement, section: HTMLElement } {
  const section = h('section', { id: 'resposta', class: 'answer', 'aria-labelledby': 'resposta-titulo', hidden: true })
  const button = h('button', { type: 'button', 'aria-expanded': 'false', 'aria-controls': 'resposta' }, 'Mostrar resposta')
  const annulled = question.inep?.annulled === true
  const key = question.correctAlternative
  button.addEventListener('click', () => {
    const revealing = section.hidden
    section.hidden = !revealing
    button.setAttribute('aria-expanded', String(revealing))
    button.textContent = revealing ? 'Esconder resposta' : 'Mostrar resposta'
    fieldset.classList.toggle('revealed', revealing)
    const chosen = fieldset.querySelector<HTMLInputElement>('input:checked')?.value
    for (const choice of fieldset.querySelectorAll<HTMLElement>('.alternative')) {
      const letter = choice.dataset.letter
      const verdict = choice.querySelector('.verdict')!
      const isKey = letter === key
      choice.classList.toggle('correct', revealing && isKey)
      choice.classList.toggle('wrong', revealing && !isKey && letter === chosen)
      verdict.textContent = !revealing ? '' : isKey ? (annulled ? 'Gabarito original' : 'Resposta correta') : letter === chosen ? 'Sua resposta' : ''
    }
    if (!revealing) return
    const outcome = chosen === undefined
      ? ''
      : annulled ? ` Você marcou ${chosen}.` : chosen === key ? ` Você marcou ${chosen}: acertou!` : ` Você marcou ${chosen}.`
    section.replaceChildren(
      h('h2', { id: 'resposta-titulo' }, 'Resposta'),
      h('p', { class: 'key' }, annulled ? `Gabarito original: ${key}.${outcome}` : `Alternativa correta: ${key}.${outcome}`),
      ...inepFacts(question.inep, skillTexts))
  })
  return { button, section }
}

/** Indexes of the exam's questions in one language (null-language questions plus that one), each once, in order. */
function indexesInView (exam: ExamDetail, language: string | undefined): number[] {
  const chosen = language ?? exam.languages[0]?.value
  const indexes = exam.questions.filter((entry) => entry.language === null || entry.language === chosen).map((entry) => entry.index)
  return [...new Set(indexes)].sort((a, b) => a - b)
}

function neighbours (exam: ExamDetail, question: QuestionRecord, language: string | undefined): HTMLElement {
  const indexes = indexesInView(exam, language)
  const position = indexes.indexOf(question.index)
  const link = (index: number | undefined, text: string, rel: string) => index === undefined
    ? h('span', { class: 'placeholder' })
    : h('a', { href: addressOf({ kind: 'question', year: question.year, application: question.application, index, language }), rel }, text)
  const previous = position > 0 ? indexes[position - 1] : undefined
  const next = position >= 0 ? indexes[position + 1] : undefined
  return h('nav', { class: 'pager', 'aria-label': `Questões da prova ${examLabel(exam)}` },
    link(previous, `← Questão ${previous}`, 'prev'),
    h('a', { class: 'pager-middle', href: addressOf(examView(question.year, question.application, language)) }, 'Todas as questões da prova'),
    link(next, `Questão ${next} →`, 'next'))
}

/** The API address of the record shown: the regular exam's as before, a second application's with `application`. */
function jsonAddress (question: QuestionRecord, language: string | undefined): string {
  const query = new URLSearchParams()
  if (question.application !== 'regular') query.set('application', question.application)
  if (language !== undefined) query.set('language', language)
  const search = query.toString()
  return `${questionPath(question.year, question.index)}${search === '' ? '' : `?${search}`}`
}

export async function questionScreen (options: ExamOptions, year: number, application: string | undefined, index: number, requestedLanguage: string | undefined, signal: AbortSignal): Promise<Screen> {
  const [question, exam, skillTexts] = await Promise.all([
    getQuestion(year, application, index, requestedLanguage, signal),
    getExam(year, application, signal),
    // A nicety: without the texts the page names the skill by its code.
    getSkillTexts().catch((): ReadonlyMap<string, string> => new Map())
  ])
  const language = question.language ?? requestedLanguage
  const alternatives = h('fieldset', { class: 'alternatives' },
    h('legend', {}, 'Alternativas'),
    question.alternatives.map((alternative) => alternativeChoice(alternative, question)))
  const { button, section } = answerSection(question, alternatives, skillTexts)
  const details = [disciplineLabel(options, question.discipline), languageLabel(options, question.language)].filter((part) => part !== '')
  return {
    title: question.title,
    content: [
      h('nav', { class: 'breadcrumb', 'aria-label': 'Você está em' },
        h('a', { href: './' }, 'Início'), ' › ',
        h('a', { href: addressOf(examView(year, application, language)) }, examLabel(exam)), ' › ',
        h('span', { 'aria-current': 'page' }, `Questão ${question.index}`)),
      h('article', { class: 'question', 'aria-labelledby': 'questao-titulo' },
        h('h1', { id: 'questao-titulo', tabindex: -1 }, question.title),
        details.length > 0 && h('p', { class: 'meta' }, details.join(' · ')),
        statementParts(question, `da questão ${question.index}`),
        alternatives,
        h('div', { class: 'actions' }, button),
        section),
      neighbours(exam, question, language),
      h('p', { class: 'json-link' }, h('a', { href: jsonAddress(question, language), type: 'application/json' }, 'Ver o registro em JSON'))
    ]
  }
}
