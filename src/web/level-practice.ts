import { getPracticeDraw, type AreaScore, type QuestionRecord } from './api.ts'
import { h, replaceChildren, setRenderedHtml } from './dom.ts'
import { countOf } from './exam-options.ts'
import { estimateScore, formatLevel, formatScore, levelWords, type ScoredAnswer } from './levels.ts'
import { renderInlineMarkdown, renderMarkdown } from './markdown.ts'

/*
 * "Praticar no seu nível", after a Simulado: ten questions of every exam drawn at the Simulado's
 * score (GET /v1/questions/practice, the address the score came with), answered in the page, then a
 * new estimate of the score from every answer given: the Simulado's counted questions and the
 * practice questions answered, by INEP's method (./levels.ts).
 */

/** Questions a practice round asks. */
export const PRACTICE_QUESTIONS = 10

const LANGUAGE_TAGS: Record<string, string> = { ingles: 'en', espanhol: 'es' }

/** A question's skill and difficulty, in words. */
export function skillAndLevel (question: QuestionRecord, texts: ReadonlyMap<string, string>): string {
  const inep = question.inep
  if (inep === null || inep === undefined) return ''
  const parts: string[] = []
  if (inep.skill !== null) {
    const code = `${inep.area}-H${inep.skill}`
    const text = texts.get(code)
    parts.push(text === undefined ? `Habilidade ${code}` : `Habilidade ${code}: ${text}`)
  }
  if (typeof inep.difficulty === 'number') parts.push(`Dificuldade: ${levelWords(inep.difficulty)}`)
  return parts.join(' · ')
}

/** One practice question: its statement and alternatives, a radio group of its own. */
function practiceQuestion (question: QuestionRecord, at: number, texts: ReadonlyMap<string, string>, answers: Map<number, string>): HTMLElement {
  const name = `pratica-${at}`
  const imageLabel = `Imagem do enunciado da questão ${at + 1} da prática,`
  const facts = skillAndLevel(question, texts)
  return h('article', { class: 'level-question', 'aria-labelledby': `${name}-titulo`, 'data-position': at },
    h('h4', { id: `${name}-titulo` }, `Questão ${at + 1} de ${PRACTICE_QUESTIONS}: ENEM ${question.year}${question.application === 'regular' ? '' : ' (reaplicação)'}, questão ${question.index}`),
    facts !== '' && h('p', { class: 'meta level-facts' }, facts),
    question.context !== null && question.context !== '' && setRenderedHtml(h('div', { class: 'statement', lang: question.language === null ? undefined : LANGUAGE_TAGS[question.language] }), renderMarkdown(question.context, imageLabel)),
    question.alternativesIntroduction !== null && question.alternativesIntroduction !== '' && setRenderedHtml(h('div', { class: 'introduction' }), renderMarkdown(question.alternativesIntroduction, imageLabel)),
    h('fieldset', { class: 'alternatives' },
      h('legend', {}, `Alternativas da questão ${at + 1} da prática`),
      question.alternatives.map((alternative) => {
        const id = `${name}-${alternative.letter}`
        const input = h('input', { type: 'radio', name, id, value: alternative.letter })
        input.addEventListener('change', () => answers.set(at, alternative.letter))
        const body = h('span', { class: 'alternative-body' })
        if (alternative.text !== null && alternative.text !== '') body.append(setRenderedHtml(h('span', { class: 'alternative-text' }), renderInlineMarkdown(alternative.text, `Imagem da alternativa ${alternative.letter}`)))
        if (alternative.file !== null) body.append(h('img', { src: alternative.file, alt: `Imagem da alternativa ${alternative.letter} da questão ${at + 1} da prática`, loading: 'lazy', decoding: 'async' }))
        return h('div', { class: 'alternative', 'data-letter': alternative.letter },
          input,
          h('label', { for: id }, h('span', { class: 'letter', 'aria-hidden': 'true' }, alternative.letter), h('span', { class: 'visually-hidden' }, `Alternativa ${alternative.letter}: `), body))
      })),
    h('p', { class: 'level-verdict', 'aria-live': 'polite' }))
}

/**
 * The practice section after a Simulado's score: a button that draws the questions, the questions,
 * and a button that gives the new estimate. `simulado`: the Simulado's counted answers.
 */
export function levelPracticeSection (score: AreaScore & { practice: string }, simulado: readonly ScoredAnswer[], texts: ReadonlyMap<string, string>): HTMLElement {
  const start = h('button', { type: 'button' }, 'Praticar no seu nível')
  const status = h('p', { class: 'form-status', role: 'status' })
  const round = h('div', { class: 'level-round' })
  const section = h('section', { class: 'level-practice', 'aria-labelledby': 'pratica-titulo' },
    h('h3', { id: 'pratica-titulo' }, 'Praticar no seu nível'),
    h('p', {}, `${PRACTICE_QUESTIONS} questões de todas as provas do ENEM escolhidas como um teste adaptativo escolhe as suas: as que mais dizem sobre quem tem ${formatScore(score.score)} nesta área, de nível perto do seu. Responda e veja uma nova estimativa da sua nota com todas as suas respostas.`),
    h('div', { class: 'actions' }, start),
    status,
    round)
  start.addEventListener('click', () => {
    start.disabled = true
    status.textContent = 'Escolhendo as questões…'
    getPracticeDraw(score.practice, PRACTICE_QUESTIONS, Math.floor(Math.random() * 2 ** 32)).then((draw) => {
      status.textContent = draw.questions.length < PRACTICE_QUESTIONS ? `O acervo tem ${countOf(draw.questions.length, 'questão', 'questões')} para este nível.` : ''
      showRound(draw.questions)
    }, (error: unknown) => {
      status.textContent = `Não foi possível escolher as questões: ${error instanceof Error ? error.message : String(error)}`
      start.disabled = false
    })
  })

  const showRound = (questions: readonly QuestionRecord[]) => {
    const answers = new Map<number, string>()
    const finish = h('button', { type: 'button' }, 'Ver nova estimativa')
    const estimate = h('div', { class: 'level-estimate' })
    replaceChildren(round, questions.map((question, at) => practiceQuestion(question, at, texts, answers)), h('div', { class: 'actions' }, finish), estimate)
    round.querySelector<HTMLElement>('h4')?.setAttribute('tabindex', '-1')
    round.querySelector<HTMLElement>('h4')?.focus()
    finish.addEventListener('click', () => {
      const given: ScoredAnswer[] = []
      questions.forEach((question, at) => {
        const letter = answers.get(at)
        const verdict = round.querySelector<HTMLElement>(`[data-position="${at}"] .level-verdict`)!
        verdict.textContent = letter === undefined ? `Em branco (fica fora da estimativa). Resposta: ${question.correctAlternative}.` : letter === question.correctAlternative ? `Você marcou ${letter}: acertou.` : `Você marcou ${letter}; a resposta é ${question.correctAlternative}.`
        if (letter !== undefined) given.push({ irt: question.inep!.irt!, right: letter === question.correctAlternative })
      })
      const { score: estimated, margin } = estimateScore(score.area, [...simulado, ...given])
      replaceChildren(estimate,
        h('h4', { id: 'estimativa-titulo', tabindex: -1 }, `Nova estimativa: ${formatScore(estimated)}`),
        h('p', { class: 'estimate-facts' },
          `Com ${countOf(simulado.length, 'questão', 'questões')} do simulado e ${countOf(given.length, 'respondida', 'respondidas')} na prática, margem de cerca de ${formatLevel(margin)} pontos. ` +
          'É calculada como o INEP calcula a nota, com os parâmetros oficiais de cada questão, mas junta questões de várias provas: é uma estimativa, não a nota de uma prova.'))
      estimate.querySelector<HTMLElement>('h4')?.focus()
    })
  }
  return section
}
