import { parentPort, workerData } from 'node:worker_threads'
import { buildSearchIndex, transferablesOf } from './search-index.ts'

/*
 * A worker thread's whole work: the search index of the texts it is given (`workerData`), posted
 * back once, its typed arrays transferred. Started by QuestionSearch.buildOffThread, so that the
 * server's event loop never spends the build's second or so, nor collects its garbage.
 */

const index = buildSearchIndex(workerData as string[])
parentPort!.postMessage(index, transferablesOf(index))
