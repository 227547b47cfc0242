import { parentPort } from 'node:worker_threads'
import { answerOf, type TableRequest } from './kernel-tables.ts'

/*
 * A worker thread's whole work: reading the kernel's TCP tables for KernelSendQueues, one request
 * at a time. Linux writes such a table by walking every bucket of its connection hash (a quarter of
 * a million on a machine with memory to spare), milliseconds per read however few connections there
 * are: done on the event loop, each read held every request behind it (bench/results.md).
 */

parentPort!.on('message', (request: TableRequest) => {
  parentPort!.postMessage(answerOf(request))
})
