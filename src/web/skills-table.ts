import { probabilityRight } from '../data/inep-3pl.ts'
import { skillCode } from '../data/skills/skill-code.ts'
import type { AreaScore, QuestionRecord } from './api.ts'
import { addressOf } from './addresses.ts'
import { h } from './dom.ts'
import { formatLevel } from './levels.ts'

/*
 * After a Simulado: each skill of INEP's Matriz the counted questions asked, weakest first, so the
 * student sees what to work on. What a skill's answers are measured against is the score itself: a
 * candidate of that score answers each item right with the chance the 3PL gives at its θ (the
 * server's arithmetic, src/data/inep-3pl.ts), so a skill's expected right answers are the sum of
 * those chances. A skill is weak when fewer were right than that sum, rounded (a candidate of the
 * score typically gets that many); the weakest is the one furthest below it.
 */

export interface SkillOutcome {
  readonly code: string
  readonly scored: number
  readonly correct: number
  /** Right answers a candidate of the score is expected to give on these items. */
  readonly expected: number
  readonly weak: boolean
}

/**
 * The skills of a score, weakest first (furthest below what the score predicts, then the most asked,
 * then the Matriz's order); `counted`: the questions that counted, with their parameters.
 */
export function rankedSkills (score: Pick<AreaScore, 'theta' | 'skills'>, counted: readonly QuestionRecord[]): SkillOutcome[] {
  const chances = new Map<string, number>()
  for (const question of counted) {
    const inep = question.inep
    if (inep?.skill == null || inep.irt === null) continue
    const code = skillCode(inep.area, inep.skill)
    chances.set(code, (chances.get(code) ?? 0) + probabilityRight(inep.irt, score.theta))
  }
  const outcomes = (score.skills ?? []).map((skill) => {
    const expected = chances.get(skill.code) ?? 0
    return { ...skill, expected, weak: skill.correct < Math.round(expected) }
  })
  // A stable sort: equal skills keep the answer's order, the Matriz's.
  return outcomes.sort((a, b) => (a.correct - a.expected) - (b.correct - b.expected) || b.scored - a.scored)
}

/**
 * The skills table of a Simulado's result: each skill a link to practise it at the score the
 * answer gives (`practiceScore`), its text, and how many were right, the weak ones marked.
 */
export function skillsTable (outcomes: readonly SkillOutcome[], discipline: string, practiceScore: number, texts: ReadonlyMap<string, string>): HTMLElement {
  const weak = outcomes.filter((outcome) => outcome.weak).length
  return h('table', { class: 'skills-table' },
    h('caption', {},
      'Habilidades da Matriz de Referência do INEP nas questões que contaram, da mais fraca à mais forte. ',
      h('span', { class: 'caption-note' }, weak === 0
        ? `Em nenhuma você acertou menos do que a sua nota prevê. Cada habilidade leva a questões dela no nível ${formatLevel(practiceScore)}.`
        : `Marcadas: ${weak === 1 ? 'a que ficou' : `as ${weak} que ficaram`} abaixo do que a sua nota prevê. Cada habilidade leva a questões dela no nível ${formatLevel(practiceScore)}.`)),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Habilidade: o que ela pede'), h('th', { scope: 'col' }, 'Acertos'))),
    h('tbody', {}, outcomes.map((outcome) => h('tr', { class: outcome.weak ? 'weak' : undefined },
      // The skill's text under its code, not in a column of its own: two columns fit a phone's screen.
      h('th', { scope: 'row' },
        h('a', { class: 'skill-code', href: addressOf({ kind: 'level-practice', discipline, score: practiceScore, skill: outcome.code, seed: undefined }) },
          h('span', { class: 'visually-hidden' }, 'Praticar '), outcome.code),
        h('span', { class: 'skill-text' }, texts.get(outcome.code) ?? '')),
      h('td', { class: 'skill-outcome' },
        `${outcome.correct} de ${outcome.scored}`,
        outcome.weak && h('span', { class: 'weak-mark' }, ` · abaixo do previsto (≈ ${outcome.expected.toLocaleString('pt-BR', { maximumFractionDigits: 1 })})`))))))
}
