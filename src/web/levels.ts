import { estimateAbility, itemCurve, scaledScore, SCALE } from '../data/inep-3pl.ts'
import type { AreaScore, QuestionRecord } from './api.ts'
import { h } from './dom.ts'
import { countOf } from './exam-options.ts'

/*
 * Scores and difficulties in words a student reads: where a number sits on INEP's scale, the margin
 * of a score, and a new estimate from answers to questions of several exams. The arithmetic is the
 * server's own (src/data/inep-3pl.ts: the same constants, the same 3PL and EAP), bundled in.
 */

type Area = AreaScore['area']

/** A number of the score scale as the page writes it: a whole number, Brazilian digits. */
export function formatLevel (value: number): string {
  return Math.round(value).toLocaleString('pt-BR')
}

/** A score as the page writes it: one decimal. */
export function formatScore (value: number): string {
  return value.toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })
}

/**
 * A question's difficulty in words.
 * @example levelWords(640.2) === 'nível 640 na escala do ENEM'
 */
export function levelWords (difficulty: number): string {
  return `nível ${formatLevel(difficulty)} na escala do ENEM`
}

/** A score's margin on the score scale: one posterior standard deviation of θ, times the area's k. */
export function scoreMargin (area: Area, standardError: number): number {
  return SCALE[area].k * standardError
}

/** One answer to an item with INEP's parameters: what a score estimate is made of. */
export interface ScoredAnswer {
  readonly irt: { readonly a: number, readonly b: number, readonly c: number }
  readonly right: boolean
}

/** The score and margin of a set of answers of one area, by INEP's method (EAP, 3PL, D = 1). */
export function estimateScore (area: Area, answers: readonly ScoredAnswer[]): { score: number, margin: number } {
  const { theta, standardError } = estimateAbility(answers.map((answer) => itemCurve(answer.irt)), answers.map((answer) => answer.right))
  return { score: scaledScore(area, theta), margin: scoreMargin(area, standardError) }
}

/**
 * What a Simulado's score means, for a student: the scale, the margin, and where it sits among the
 * questions that counted (their difficulties on the same scale).
 */
export function scoreExplanation (score: AreaScore, counted: readonly QuestionRecord[]): HTMLElement {
  const margin = scoreMargin(score.area, score.standardError)
  const levels = counted.map((question) => question.inep?.difficulty).filter((value): value is number => typeof value === 'number').sort((a, b) => a - b)
  const below = levels.filter((level) => level <= score.score).length
  return h('div', { class: 'score-explanation' },
    h('h3', {}, 'O que essa nota quer dizer'),
    h('p', { class: 'score-meaning' },
      `${formatScore(score.score)} está na escala de proficiência do ENEM, a mesma em todas as edições desde 2009: nela, 500 era a média dos concluintes de escolas públicas em 2009 e 100 pontos, o desvio-padrão deles. ` +
      'Não é uma porcentagem de acertos: o mesmo número de acertos vale notas diferentes conforme as questões acertadas, porque cada questão tem sua dificuldade e quem acerta as difíceis e erra as fáceis parece ter chutado.'),
    h('p', { class: 'score-margin' },
      `Margem: cerca de ${formatLevel(margin)} pontos para mais ou para menos. Com estas respostas, sua proficiência está, com cerca de 2 chances em 3, entre ${formatLevel(score.score - margin)} e ${formatLevel(score.score + margin)}; com mais questões respondidas, a margem diminui.`),
    levels.length > 0 && h('p', { class: 'score-position' },
      `Das ${countOf(levels.length, 'questão que contou', 'questões que contaram')}, ${below} ${below === 1 ? 'tem' : 'têm'} nível até ${formatLevel(score.score)} (questões que quem tem a sua nota tende a acertar) e ${levels.length - below} ${levels.length - below === 1 ? 'tem' : 'têm'} nível acima. ` +
      `A mais fácil tem ${levelWords(levels[0]!)}; a mais difícil, ${levelWords(levels.at(-1)!)}.`))
}
