/*
 * Costly work on the event loop shared among clients by turns. Node reads every socket that is
 * ready in one pass of its loop and runs each request's handler as it reads it: one address with 32
 * connections of costly calls (MCP tool calls of 50 questions, each a few hundred microseconds,
 * milliseconds on a cold cache) had its 32 handlers run back to back in each pass, and another
 * address's request, read in the next pass, waited for all of them: up to 0.6 s on a fresh server
 * (issue 45). Here such work runs at once while the loop's current pass has spent less than its
 * budget on it; past that it waits, and runs in later passes, a budget's worth per pass, one piece
 * of each waiting client in turn. Between passes Node reads the sockets again, so any other request
 * waits for at most about two budgets, whatever one client sends, provided no single piece is
 * itself long: a caller splits long work into pieces (src/mcp/mcp-endpoint.ts runs a call's cold
 * questions one per turn).
 */

/** Costly work one pass of the event loop may run before the rest waits for the next pass. */
export const TURN_BUDGET_MS = 5

export class FairTurns {
  readonly #budgetMs: number
  readonly #now: () => number
  /** What this pass of the loop has spent; set back to 0 by an immediate, after the pass's reads. */
  #spentMs = 0
  #resetScheduled = false
  /** Work waiting, by client, in the order the clients came: each pass takes one piece of each in turn. */
  readonly #waiting = new Map<string, Array<() => void>>()
  #drainScheduled = false
  /** How many turns are running now, one inside another (work a turn's work asks turns for). */
  #depth = 0

  /** `now`: the clock work is timed by (a test's own, to spend time without waiting). */
  constructor (budgetMs = TURN_BUDGET_MS, now: () => number = () => performance.now()) {
    this.#budgetMs = budgetMs
    this.#now = now
  }

  /** Clients with work waiting. */
  get waitingClients (): number {
    return this.#waiting.size
  }

  /**
   * Runs `work` for `client`: at once (its value, or its exception) while this pass has budget left
   * and no one waits; otherwise later, in `client`'s turn (a promise of its value). Work asked for
   * while a turn runs is part of that turn: it runs at once, timed only by the turn that holds it
   * (the fast path's turn of a POST /mcp body holds the endpoint's first step, which asks for its own).
   */
  run<T> (client: string, work: () => T): T | Promise<T> {
    if (this.#depth > 0) return work()
    if (this.#waiting.size === 0 && this.#spentMs < this.#budgetMs) return this.#timed(work)
    return new Promise<T>((resolve, reject) => {
      let queue = this.#waiting.get(client)
      if (queue === undefined) {
        queue = []
        this.#waiting.set(client, queue)
      }
      queue.push(() => {
        try {
          resolve(this.#timed(work))
        } catch (error) {
          reject(error)
        }
      })
      this.#scheduleDrain()
    })
  }

  #timed<T> (work: () => T): T {
    const startedAt = this.#now()
    this.#depth++
    try {
      return work()
    } finally {
      this.#depth--
      this.#spentMs += this.#now() - startedAt
      this.#scheduleReset()
    }
  }

  #scheduleReset (): void {
    if (this.#resetScheduled) return
    this.#resetScheduled = true
    setImmediate(() => {
      this.#resetScheduled = false
      this.#spentMs = 0
    })
  }

  #scheduleDrain (): void {
    if (this.#drainScheduled) return
    this.#drainScheduled = true
    // After the pass's reads and the reset (queued first, when work ran this pass).
    setImmediate(() => {
      this.#drainScheduled = false
      this.#drain()
    })
  }

  /** One pass's turns: a piece of each waiting client's work in turn, until the budget is spent. */
  #drain (): void {
    while (this.#waiting.size > 0 && this.#spentMs < this.#budgetMs) {
      for (const [client, queue] of this.#waiting) {
        queue.shift()!()
        // Deleted and, if more waits, put back last: the next turn is the next client's.
        this.#waiting.delete(client)
        if (queue.length > 0) this.#waiting.set(client, queue)
        if (this.#spentMs >= this.#budgetMs) break
      }
    }
    if (this.#waiting.size > 0) this.#scheduleDrain()
  }
}
