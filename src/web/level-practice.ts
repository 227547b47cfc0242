import { ApiProblem, getPracticeDraw, getSkillCatalog, getSkillTexts, practiceTarget, type AreaScore, type QuestionRecord, type SkillCatalog } from './api.ts'
import { addressOf, SEED_MAX } from './addresses.ts'
import { h, replaceChildren } from './dom.ts'
import { countOf, disciplineLabel, examLabel, type ExamOptions } from './exam-options.ts'
import { estimateScore, formatLevel, formatScore, levelWords, type ScoredAnswer } from './levels.ts'
import { navigate, replaceAddress } from './navigation.ts'
import { alternativeBody, statementParts } from './question-parts.ts'
import type { Screen } from './screen.ts'
import { skillCode } from '../data/skills/skill-code.ts'

/*
 * "Praticar no seu nível": ten questions of every exam drawn at a score (GET /v1/questions/practice),
 * of one skill when one is chosen, answered in the page, then a new estimate of the score from every
 * answer given, by INEP's method (./levels.ts). Two ways in: after a Simulado, under its score (the
 * estimate then takes in the Simulado's counted answers too), and at its own address
 * (`?praticar=matematica&nota=620[&habilidade=MT-H21][&semente=42]`, ./addresses.ts), which the home
 * page and the Simulado's skills table link to.
 */

/** Questions a practice round asks. */
export const PRACTICE_QUESTIONS = 10

type Area = AreaScore['area']

/** What a round practises: an area at a score, of one skill or all. */
export interface PracticeTarget {
  readonly area: Area
  readonly discipline: string
  readonly score: number
  readonly skill: string | undefined
}

/** A seed for a new draw: any of the API's. */
function newSeed (): number {
  return Math.floor(Math.random() * (SEED_MAX + 1))
}

/** A question's skill and difficulty, in words. */
export function skillAndLevel (question: QuestionRecord, texts: ReadonlyMap<string, string>): string {
  const inep = question.inep
  if (inep === null || inep === undefined) return ''
  const parts: string[] = []
  if (inep.skill !== null) {
    const code = skillCode(inep.area, inep.skill)
    const text = texts.get(code)
    parts.push(text === undefined ? `Habilidade ${code}` : `Habilidade ${code}: ${text}`)
  }
  if (typeof inep.difficulty === 'number') parts.push(`Dificuldade: ${levelWords(inep.difficulty)}`)
  return parts.join(' · ')
}

/** One practice question: its statement, figures and alternatives, a radio group of its own. */
function practiceQuestion (question: QuestionRecord, at: number, count: number, heading: 'h2' | 'h4', texts: ReadonlyMap<string, string>, answers: Map<number, string>): HTMLElement {
  const name = `pratica-${at}`
  const facts = skillAndLevel(question, texts)
  const questionName = `da questão ${at + 1} da prática`
  return h('article', { class: 'level-question', 'aria-labelledby': `${name}-titulo`, 'data-position': at },
    h(heading, { id: `${name}-titulo` }, `Questão ${at + 1} de ${count}: ${examLabel({ title: `ENEM ${question.year}`, application: question.application })}, questão ${question.index}`),
    facts !== '' && h('p', { class: 'meta level-facts' }, facts),
    statementParts(question, questionName),
    h('fieldset', { class: 'alternatives' },
      h('legend', {}, `Alternativas da questão ${at + 1} da prática`),
      question.alternatives.map((alternative) => {
        const id = `${name}-${alternative.letter}`
        const input = h('input', { type: 'radio', name, id, value: alternative.letter })
        input.addEventListener('change', () => answers.set(at, alternative.letter))
        return h('div', { class: 'alternative', 'data-letter': alternative.letter },
          input,
          h('label', { for: id }, h('span', { class: 'letter', 'aria-hidden': 'true' }, alternative.letter), h('span', { class: 'visually-hidden' }, `Alternativa ${alternative.letter}: `), alternativeBody(alternative, questionName)))
      })),
    h('p', { class: 'level-verdict', 'aria-live': 'polite' }))
}

/**
 * A drawn round: the questions, and a button that marks them and gives a new estimate of the score
 * from `prior` (a Simulado's counted answers, or none) and the answers given. `heading`: the level of
 * each question's heading under the view's own.
 */
function practiceRound (target: PracticeTarget, questions: readonly QuestionRecord[], prior: readonly ScoredAnswer[], heading: 'h2' | 'h4', texts: ReadonlyMap<string, string>): HTMLElement[] {
  const answers = new Map<number, string>()
  const finish = h('button', { type: 'button' }, 'Ver nova estimativa')
  const estimate = h('div', { class: 'level-estimate' })
  const parts = questions.map((question, at) => practiceQuestion(question, at, questions.length, heading, texts, answers))
  finish.addEventListener('click', () => {
    const given: ScoredAnswer[] = []
    questions.forEach((question, at) => {
      const letter = answers.get(at)
      const verdict = parts[at]!.querySelector<HTMLElement>('.level-verdict')!
      verdict.textContent = letter === undefined ? `Em branco (fica fora da estimativa). Resposta: ${question.correctAlternative}.` : letter === question.correctAlternative ? `Você marcou ${letter}: acertou.` : `Você marcou ${letter}; a resposta é ${question.correctAlternative}.`
      if (letter !== undefined) given.push({ irt: question.inep!.irt!, right: letter === question.correctAlternative })
    })
    if (prior.length + given.length === 0) {
      replaceChildren(estimate, h(heading, { id: 'estimativa-titulo', tabindex: -1 }, 'Sem estimativa: nenhuma questão respondida'))
    } else {
      const { score: estimated, margin } = estimateScore(target.area, [...prior, ...given])
      const basis = prior.length === 0
        ? `Com ${countOf(given.length, 'questão respondida', 'questões respondidas')} nesta prática`
        : `Com ${countOf(prior.length, 'questão', 'questões')} do simulado e ${countOf(given.length, 'respondida', 'respondidas')} na prática`
      replaceChildren(estimate,
        h(heading, { id: 'estimativa-titulo', tabindex: -1 }, `Nova estimativa: ${formatScore(estimated)}`),
        h('p', { class: 'estimate-facts' },
          `${basis}, margem de cerca de ${formatLevel(margin)} pontos. ` +
          'É calculada como o INEP calcula a nota, com os parâmetros oficiais de cada questão, mas junta questões de várias provas: é uma estimativa, não a nota de uma prova.'))
    }
    estimate.querySelector<HTMLElement>('#estimativa-titulo')?.focus()
  })
  return [...parts, h('div', { class: 'actions' }, finish), estimate]
}

/** What a round practises, in words: `2 questões … de quem tem 620,0 nesta área`. */
function roundDescription (count: number, score: number, skill: string | undefined): string {
  return `${countOf(count, 'questão', 'questões')} de todas as provas do ENEM${skill === undefined ? '' : ` da habilidade ${skill}`} escolhidas como um teste adaptativo escolhe as suas: as que mais dizem sobre quem tem ${formatScore(score)} nesta área, de nível perto do seu.`
}

/**
 * The practice section after a Simulado's score: a button that draws the questions, the questions,
 * and a button that gives the new estimate; and the address of this practice, to come back to.
 * `simulado`: the Simulado's counted answers.
 */
export function levelPracticeSection (score: AreaScore & { practice: string }, simulado: readonly ScoredAnswer[], texts: ReadonlyMap<string, string>): HTMLElement {
  const { discipline, score: level } = practiceTarget(score.practice)
  const target: PracticeTarget = { area: score.area, discipline, score: level, skill: undefined }
  const start = h('button', { type: 'button' }, 'Praticar no seu nível')
  const status = h('p', { class: 'form-status', role: 'status' })
  const round = h('div', { class: 'level-round' })
  const section = h('section', { class: 'level-practice', 'aria-labelledby': 'pratica-titulo' },
    h('h3', { id: 'pratica-titulo' }, 'Praticar no seu nível'),
    h('p', {}, `${roundDescription(PRACTICE_QUESTIONS, level, undefined)} Responda e veja uma nova estimativa da sua nota com todas as suas respostas.`),
    h('div', { class: 'actions' }, start, h('a', { href: addressOf({ kind: 'level-practice', discipline, score: level, skill: undefined, seed: undefined }) }, 'Praticar nesta nota em uma página própria')),
    status,
    round)
  start.addEventListener('click', () => {
    start.disabled = true
    status.textContent = 'Escolhendo as questões…'
    getPracticeDraw({ discipline, score: level, count: PRACTICE_QUESTIONS, seed: newSeed() }).then((draw) => {
      status.textContent = draw.questions.length < PRACTICE_QUESTIONS ? `O acervo tem ${countOf(draw.questions.length, 'questão', 'questões')} para este nível.` : ''
      replaceChildren(round, practiceRound(target, draw.questions, simulado, 'h4', texts))
      const first = round.querySelector<HTMLElement>('h4')
      first?.setAttribute('tabindex', '-1')
      first?.focus()
    }, (error: unknown) => {
      status.textContent = `Não foi possível escolher as questões: ${error instanceof Error ? error.message : String(error)}`
      start.disabled = false
    })
  })
  return section
}

function breadcrumb (): HTMLElement {
  return h('nav', { class: 'breadcrumb', 'aria-label': 'Você está em' }, h('a', { href: './' }, 'Início'), ' › ', h('span', { 'aria-current': 'page' }, 'Praticar no seu nível'))
}

/** `?praticar=…&nota=…`: a round drawn at that score (of that skill), with the seed in the address so a reload draws the same. */
async function levelPracticeScreen (options: ExamOptions, discipline: string, score: number, skill: string | undefined, seed: number | undefined, signal: AbortSignal): Promise<Screen> {
  const catalog = await getSkillCatalog()
  const area = catalog.areas.find((entry) => entry.discipline === discipline)
  if (area === undefined) return levelPracticeSetupScreen(options, catalog, { discipline: undefined, score, skill }, `Não há questões de prática para a área “${discipline}”: escolha uma das áreas abaixo.`)
  const skillText = skill === undefined ? undefined : area.skills.find((entry) => entry.code === skill)?.text
  if (skill !== undefined && skillText === undefined) return levelPracticeSetupScreen(options, catalog, { discipline, score, skill: undefined }, `A habilidade ${skill} não é de ${disciplineLabel(options, discipline)}: escolha uma das habilidades da área.`)
  const drawSeed = seed ?? newSeed()
  const draw = await getPracticeDraw({ discipline, score, skill, count: PRACTICE_QUESTIONS, seed: drawSeed }, signal)
  // The address names the draw shown, so a reload or a shared link shows the same questions.
  if (seed === undefined) replaceAddress(addressOf({ kind: 'level-practice', discipline, score, skill, seed: drawSeed }))
  const texts = await getSkillTexts()
  const target: PracticeTarget = { area: area.area, discipline, score, skill }
  const label = disciplineLabel(options, discipline)
  return {
    title: `Praticar: ${label}, nota ${formatScore(score)}${skill === undefined ? '' : `, ${skill}`}`,
    content: [
      breadcrumb(),
      h('h1', { tabindex: -1 }, `Praticar no seu nível: ${label}, nota ${formatScore(score)}`),
      skill !== undefined && h('p', { class: 'practised-skill' }, h('strong', {}, `Habilidade ${skill}: `), skillText),
      h('p', { class: 'lead' }, `${roundDescription(draw.questions.length, score, skill)} Responda e veja uma estimativa da sua nota com essas respostas.`),
      ...(draw.questions.length === 0
        ? [h('p', { class: 'empty' }, 'Nenhuma questão do acervo tem os parâmetros do INEP para esta escolha.')]
        : practiceRound(target, draw.questions, [], 'h2', texts)),
      h('p', { class: 'practice-links' },
        h('a', { href: addressOf({ kind: 'level-practice', discipline, score, skill, seed: newSeed() }) }, 'Outras questões'), ' · ',
        skill !== undefined && [h('a', { href: addressOf({ kind: 'level-practice', discipline, score, skill: undefined, seed: undefined }) }, 'Todas as habilidades da área'), ' · '],
        h('a', { href: addressOf({ kind: 'level-practice-setup', discipline, score, skill }) }, 'Escolher outra área, nota ou habilidade'))
    ]
  }
}

/** `?praticar`: choosing the area, the score and, if one wishes, a skill. `message`: why an address could not be practised. */
function levelPracticeSetupScreen (options: ExamOptions, catalog: SkillCatalog, chosen: { discipline: string | undefined, score: number | undefined, skill: string | undefined }, message?: string): Screen {
  const areas = catalog.areas.filter((area) => area.skills.length > 0)
  const areaSelect = h('select', { id: 'pratica-area', name: 'area', required: true },
    areas.map((area) => h('option', { value: area.discipline, selected: area.discipline === chosen.discipline }, disciplineLabel(options, area.discipline) || area.name)))
  const skillSelect = h('select', { id: 'pratica-habilidade', name: 'habilidade' })
  const fillSkills = () => {
    const area = areas.find((entry) => entry.discipline === areaSelect.value)
    replaceChildren(skillSelect,
      h('option', { value: '' }, 'Todas as habilidades da área'),
      (area?.skills ?? []).map((skill) => h('option', { value: skill.code, selected: skill.code === chosen.skill }, `${skill.code}: ${skill.text}`)))
  }
  fillSkills()
  areaSelect.addEventListener('change', fillSkills)
  const scoreInput = h('input', { type: 'number', id: 'pratica-nota', name: 'nota', min: 0, max: 1000, step: 0.1, required: true, inputmode: 'decimal', value: chosen.score === undefined ? undefined : String(chosen.score) })
  const form = h('form', { class: 'search practice-setup', action: './', method: 'get', 'aria-label': 'Escolher a prática' },
    h('fieldset', { class: 'filters' },
      h('legend', {}, 'Área, nota e habilidade'),
      h('div', { class: 'field' }, h('label', { for: 'pratica-area' }, 'Área'), areaSelect),
      h('div', { class: 'field' }, h('label', { for: 'pratica-nota' }, 'Sua nota na área (0 a 1000)'), scoreInput),
      h('div', { class: 'field wide' }, h('label', { for: 'pratica-habilidade' }, 'Habilidade'), skillSelect)),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Praticar')))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    // The browser has checked the number (required, 0–1000); the address keeps two decimals at most, as the API takes it.
    const score = Math.round(scoreInput.valueAsNumber * 100) / 100
    navigate(addressOf({ kind: 'level-practice', discipline: areaSelect.value, score, skill: skillSelect.value === '' ? undefined : skillSelect.value, seed: undefined }))
  })
  return {
    title: 'Praticar no seu nível',
    content: [
      breadcrumb(),
      h('h1', { tabindex: -1 }, 'Praticar no seu nível'),
      h('p', { class: 'lead' }, `Diga a sua nota em uma área (a de um simulado, ou a do ENEM) e responda a ${PRACTICE_QUESTIONS} questões de todas as provas escolhidas para ela: as que mais dizem sobre quem tem essa nota. Escolha uma habilidade para praticar só ela.`),
      message !== undefined && h('p', { class: 'empty', role: 'alert' }, message),
      form
    ]
  }
}

/** `?praticar` from the page's address: the setup, with the skills of each area. */
export async function levelPracticeSetup (options: ExamOptions, chosen: { discipline: string | undefined, score: number | undefined, skill: string | undefined }): Promise<Screen> {
  return levelPracticeSetupScreen(options, await getSkillCatalog(), chosen)
}

/** An API refusal of a practice address (a bad value the page did not catch) shown on the setup, next to the form to fix it. */
export async function levelPracticeOrSetup (options: ExamOptions, view: { discipline: string, score: number, skill: string | undefined, seed: number | undefined }, signal: AbortSignal): Promise<Screen> {
  try {
    return await levelPracticeScreen(options, view.discipline, view.score, view.skill, view.seed, signal)
  } catch (error) {
    if (!(error instanceof ApiProblem) || (error.status !== 400 && error.status !== 422)) throw error
    return levelPracticeSetupScreen(options, await getSkillCatalog(), view, `Esta prática não pôde ser escolhida: ${error.message}`)
  }
}
