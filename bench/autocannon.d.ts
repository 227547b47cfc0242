/** The part of autocannon's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  interface AutocannonOptions {
    url: string
    connections?: number
    duration?: number
    headers?: Record<string, string>
    /** Requests each connection sends in turn, cycling. */
    requests?: Array<{ path: string }>
  }

  interface AutocannonResult {
    /** Seconds the run lasted. */
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    requests: { total: number }
    /** Bytes read, headers included. */
    throughput: { total: number }
    /** Milliseconds (autocannon records them at 1 ms resolution). */
    latency: { p50: number, p99: number, max: number }
  }

  function autocannon (options: AutocannonOptions): Promise<AutocannonResult>
  export default autocannon
}
