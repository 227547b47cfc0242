/** Longest a step keeps the event loop from requests. */
const STEP_MILLISECONDS = 5

/**
 * Work done a little at a time between requests, after the server listens: `unit` does one small
 * piece of it and answers whether any is left; each turn of the event loop runs pieces for at most
 * STEP_MILLISECONDS. Used for what would otherwise make start-up longer (the search index, the
 * prepared question bodies).
 */
export class BackgroundSteps {
  readonly #unit: () => boolean
  #timer: NodeJS.Immediate | NodeJS.Timeout | undefined
  #settle: (() => void) | undefined

  constructor (unit: () => boolean) {
    this.#unit = unit
  }

  /** Whether a run is under way (or waiting for its delay). */
  get running (): boolean {
    return this.#timer !== undefined
  }

  /** Runs the work from `delayMs` on (a run under way is stopped first); resolves when none is left, or when stopped. */
  start (delayMs = 0): Promise<void> {
    this.stop()
    return new Promise((resolve) => {
      this.#settle = resolve
      const step = (): void => {
        const deadline = performance.now() + STEP_MILLISECONDS
        let more = true
        while (more && performance.now() < deadline) more = this.#unit()
        if (more) this.#timer = setImmediate(step)
        else this.#finish()
      }
      this.#timer = delayMs > 0 ? setTimeout(step, delayMs).unref() : setImmediate(step)
    })
  }

  /** Stops a run (at close); its promise resolves. */
  stop (): void {
    clearTimeout(this.#timer as NodeJS.Timeout | undefined)
    clearImmediate(this.#timer as NodeJS.Immediate | undefined)
    this.#finish()
  }

  #finish (): void {
    this.#timer = undefined
    const settle = this.#settle
    this.#settle = undefined
    settle?.()
  }
}
