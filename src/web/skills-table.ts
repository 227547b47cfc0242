import type { AreaScore } from './api.ts'
import { h } from './dom.ts'

/** After a Simulado: each skill of INEP's Matriz the counted questions asked, its text, and how many were right. */
export function skillsTable (skills: NonNullable<AreaScore['skills']>, texts: ReadonlyMap<string, string>): HTMLElement {
  return h('table', { class: 'skills-table' },
    h('caption', {}, 'Habilidades da Matriz de Referência do INEP nas questões que contaram'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Habilidade'), h('th', { scope: 'col' }, 'O que ela pede'), h('th', { scope: 'col' }, 'Acertos'))),
    h('tbody', {}, skills.map((skill) => h('tr', {},
      h('th', { scope: 'row' }, skill.code),
      h('td', {}, texts.get(skill.code) ?? '—'),
      h('td', {}, `${skill.correct} de ${skill.scored}`)))))
}
