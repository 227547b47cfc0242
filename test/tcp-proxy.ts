import net, { type AddressInfo, type Server, type Socket } from 'node:net'

/**
 * A TCP forwarder a test controls, to put between the app and Redis: `cut()` makes Redis vanish
 * (open connections dropped, new ones refused), `restore()` brings it back on the same port, and
 * `hold()` stalls what clients send until `release()`, to keep a request in flight.
 */
export class TcpProxy {
  readonly #target: { host: string, port: number }
  /** Client-side sockets, each with its upstream twin. */
  readonly #connections = new Map<Socket, Socket>()
  #server: Server | undefined
  #port = 0
  #held: Array<() => void> | undefined
  #heldBytes = 0
  #onHeld: (() => void) | undefined

  private constructor (target: { host: string, port: number }) {
    this.#target = target
  }

  /** @example const proxy = await TcpProxy.start({ host: '127.0.0.1', port: 6379 }) */
  static async start (target: { host: string, port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target)
    await proxy.#listen(0)
    return proxy
  }

  get port (): number {
    return this.#port
  }

  /** Connections from clients currently open through the proxy. */
  get openConnections (): number {
    return this.#connections.size
  }

  async cut (): Promise<void> {
    const server = this.#server
    this.#server = undefined
    for (const [client, upstream] of this.#connections) {
      client.destroy()
      upstream.destroy()
    }
    this.#connections.clear()
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  async restore (): Promise<void> {
    await this.#listen(this.#port)
  }

  /** Stops forwarding what clients send; resolves `whenHeld` once something arrives while held. */
  hold (): void {
    this.#held = []
    this.#heldBytes = 0
  }

  /** Resolves when a client has sent something that is being held. */
  whenHeld (): Promise<void> {
    if (this.#heldBytes > 0) return Promise.resolve()
    return new Promise((resolve) => { this.#onHeld = resolve })
  }

  release (): void {
    const held = this.#held ?? []
    this.#held = undefined
    for (const forward of held) forward()
  }

  async close (): Promise<void> {
    this.release()
    await this.cut()
  }

  async #listen (port: number): Promise<void> {
    const server = net.createServer((client) => this.#connect(client))
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => resolve())
    })
    this.#server = server
    this.#port = (server.address() as AddressInfo).port
  }

  #connect (client: Socket): void {
    const upstream = net.connect(this.#target.port, this.#target.host)
    this.#connections.set(client, upstream)
    const drop = () => {
      client.destroy()
      upstream.destroy()
      this.#connections.delete(client)
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
    client.on('data', (chunk: Buffer) => {
      if (this.#held === undefined) {
        upstream.write(chunk)
        return
      }
      this.#held.push(() => upstream.write(chunk))
      this.#heldBytes += chunk.length
      this.#onHeld?.()
      this.#onHeld = undefined
    })
    upstream.pipe(client)
  }
}
