import { ApiProblem, getExams } from './api.ts'
import type { View } from './addresses.ts'
import { h, replaceChildren } from './dom.ts'
import { examLabel, examOptions } from './exam-options.ts'
import { levelPracticeOrSetup, levelPracticeSetup } from './level-practice.ts'
import { examScreen } from './exam-view.ts'
import { savedScrollPosition, startNavigation } from './navigation.ts'
import { questionScreen } from './question-view.ts'
import { practiceScreen, practiceSetupScreen } from './practice-view.ts'
import type { Screen } from './screen.ts'
import { homeScreen, searchScreen } from './search-view.ts'

/*
 * The question browser (served at `/` by src/http/routes/question-browser.ts): a small client of
 * the public API. Each view is built off-screen and swapped in whole once its data has arrived; a
 * view superseded by a newer navigation is dropped.
 */

const SITE_NAME = 'Questões do ENEM'

const main = document.getElementById('conteudo')!
let current: AbortController | undefined

async function screenOf (view: View, signal: AbortSignal): Promise<Screen> {
  const options = examOptions(await getExams())
  switch (view.kind) {
    case 'home': return homeScreen(options)
    case 'search': return await searchScreen(options, view.filters, view.page, signal)
    case 'exam': return await examScreen(options, view.year, view.application, view.language, signal)
    case 'question': return await questionScreen(options, view.year, view.application, view.index, view.language, signal)
    case 'practice-setup': return practiceSetupScreen(options, view.year)
    case 'practice': return await practiceScreen(options, view.year, view.application, view.discipline, view.language, signal)
    case 'level-practice-setup': return await levelPracticeSetup(options, view)
    case 'level-practice': return await levelPracticeOrSetup(options, view, signal)
  }
}

/** What the address asked for that the server does not hold, in the page's words (the API's 404 message is English). */
function notFoundText (view: View): string {
  switch (view.kind) {
    case 'question':
      return `O acervo não tem a questão ${view.index} da prova ${examLabel({ title: `ENEM ${view.year}`, application: view.application })}${view.language === undefined ? '' : ' nessa língua estrangeira'}.`
    case 'exam':
    case 'practice':
      return `O acervo não tem a prova ${examLabel({ title: `ENEM ${view.year}`, application: view.application })}.`
    default:
      return 'O servidor não tem o que este endereço pede.'
  }
}

function problemScreen (view: View, error: unknown): Screen {
  const notFound = error instanceof ApiProblem && error.status === 404
  const message = error instanceof Error ? error.message : String(error)
  return {
    title: notFound ? 'Não encontrado' : 'Erro',
    content: [
      h('h1', { tabindex: -1 }, notFound ? 'Não encontrado' : 'Algo deu errado'),
      h('p', { role: 'alert' }, notFound ? notFoundText(view) : message),
      h('p', {}, h('a', { href: './' }, 'Voltar ao início'))
    ]
  }
}

async function show (view: View, { restoring }: { restoring: boolean }): Promise<void> {
  current?.abort()
  const controller = new AbortController()
  current = controller
  main.setAttribute('aria-busy', 'true')
  let screen: Screen
  try {
    screen = await screenOf(view, controller.signal)
  } catch (error) {
    if (controller.signal.aborted) return
    screen = problemScreen(view, error)
  }
  if (controller.signal.aborted) return
  replaceChildren(main, screen.content)
  main.removeAttribute('aria-busy')
  document.title = screen.title === SITE_NAME ? SITE_NAME : `${screen.title} · ${SITE_NAME}`
  if (restoring) {
    window.scrollTo(0, savedScrollPosition())
  } else {
    // A new view: start at its top, and tell assistive technology where the page now is.
    window.scrollTo(0, 0)
    main.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true })
  }
}

startNavigation((view, how) => {
  show(view, how).catch((error: unknown) => console.error(error))
})
