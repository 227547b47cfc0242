import type { Alternative, QuestionRecord } from './api.ts'
import { h, setRenderedHtml } from './dom.ts'
import { renderInlineMarkdown, renderMarkdown } from './markdown.ts'
import { figuresOnlyInFiles, recordFigures } from '../data/record-figures.ts'

/*
 * A question's parts as every view shows them (the question page, the Simulado, practice, search
 * cards), so that no view drops one: its statement, the figures only `files` holds (which figures a
 * record has is src/data/record-figures.ts's to say, for every view), its introduction, and each
 * alternative's body. `name` says which question, in the words of its images' descriptions:
 * `da questão 12`, `da questão 3 da prática`.
 */

/** Language tags of the foreign-language statements, so a screen reader reads them in their language. */
const STATEMENT_LANGUAGES: Readonly<Record<string, string>> = { ingles: 'en', espanhol: 'es' }

/** The figures no text of the record shows, at the width of the statement; null when there are none. */
function figuresOnlyInFilesBlock (question: QuestionRecord, name: string): HTMLElement | null {
  const files = figuresOnlyInFiles(question)
  if (files.length === 0) return null
  return h('div', { class: 'question-files' },
    files.map((file, at) => h('img', { src: file, alt: `Figura ${files.length === 1 ? '' : `${at + 1} `}${name}`, loading: 'lazy', decoding: 'async' })))
}

/**
 * What the page says of a record without its statement (`incomplete`, src/data/record-statement.ts),
 * where the statement would stand: the asking sentence that follows is about a text or figure the
 * record does not show apart (never transcribed, or run into the asking sentence).
 */
export const INCOMPLETE_NOTE = 'Questão incompleta no acervo: falta o enunciado separado da pergunta. O texto ou a figura que a prova mostra antes da pergunta não foi transcrito, ou foi transcrito junto com ela. Por isso esta questão fica fora dos sorteios, da prática e do simulado.'

/** The statement (Markdown), the figures only `files` holds, and the introduction, in the order the exam prints them. */
export function statementParts (question: QuestionRecord, name: string): Array<HTMLElement | null | false> {
  const imageLabel = `Imagem do enunciado ${name},`
  return [
    question.incomplete != null && h('p', { class: 'note incomplete-note', role: 'note' }, INCOMPLETE_NOTE),
    question.context !== null && question.context !== '' &&
      setRenderedHtml(h('div', { class: 'statement', lang: question.language === null ? undefined : STATEMENT_LANGUAGES[question.language] }), renderMarkdown(question.context, imageLabel)),
    figuresOnlyInFilesBlock(question, name),
    question.alternativesIntroduction !== null && question.alternativesIntroduction !== '' &&
      setRenderedHtml(h('div', { class: 'introduction' }), renderMarkdown(question.alternativesIntroduction, imageLabel))
  ]
}

/** What an alternative shows: its text (Markdown) and its figure. */
export function alternativeBody (alternative: Alternative, name: string): HTMLElement {
  const body = h('span', { class: 'alternative-body' })
  if (alternative.text !== null && alternative.text !== '') body.append(setRenderedHtml(h('span', { class: 'alternative-text' }), renderInlineMarkdown(alternative.text, `Imagem da alternativa ${alternative.letter}`)))
  if (alternative.file !== null) body.append(h('img', { src: alternative.file, alt: `Imagem da alternativa ${alternative.letter} ${name}`, loading: 'lazy', decoding: 'async' }))
  return body
}

/**
 * Every figure of a question, each once, readable, for a card that shows only an excerpt of its text:
 * the statement's, then each alternative's under its letter. Null when the record has none.
 */
export function cardFigures (question: QuestionRecord, name: string): HTMLElement | null {
  const figures = recordFigures(question)
  if (figures.length === 0) return null
  const statement = figures.filter((figure) => figure.letter === undefined)
  return h('div', { class: 'card-files' },
    figures.map((figure) => figure.letter === undefined
      ? h('img', { src: figure.address, alt: `Figura ${statement.length === 1 ? '' : `${statement.indexOf(figure) + 1} `}${name}`, loading: 'lazy', decoding: 'async' })
      : h('figure', {},
        h('img', { src: figure.address, alt: `Figura da alternativa ${figure.letter} ${name}`, loading: 'lazy', decoding: 'async' }),
        h('figcaption', {}, `Alternativa ${figure.letter}`))))
}
