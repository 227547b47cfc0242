import type { QuestionRecord } from './api.ts'
import { h } from './dom.ts'
import { imageAddresses, normalizedAddress } from './markdown.ts'

/*
 * A record's `files` that its text does not already show. Most records embed their figures in
 * `context` and list them in `files` too; others (many second-application records) hold a figure
 * in `files` alone, the map or chart the statement asks about, which the page must then show itself.
 */

/** The record's files that no image of its statement, introduction or alternatives shows, in order. */
export function filesNotShown (question: QuestionRecord): string[] {
  const shown = new Set([
    ...imageAddresses(question.context ?? ''),
    ...imageAddresses(question.alternativesIntroduction ?? ''),
    ...question.alternatives.flatMap((alternative) => [
      ...imageAddresses(alternative.text ?? ''),
      ...(alternative.file === null ? [] : [normalizedAddress(alternative.file)])
    ])
  ])
  return [...new Set(question.files)].filter((file) => !shown.has(normalizedAddress(file)))
}

/** The record's files its text does not show, at the width of the statement; null when there are none. */
export function questionFigures (question: QuestionRecord, className = 'question-files'): HTMLElement | null {
  const files = filesNotShown(question)
  if (files.length === 0) return null
  return h('div', { class: className },
    files.map((file, at) => h('img', {
      src: file,
      alt: `Figura ${files.length === 1 ? '' : `${at + 1} `}da questão ${question.index}`,
      loading: 'lazy',
      decoding: 'async'
    })))
}
