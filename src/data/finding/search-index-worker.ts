import { parentPort, workerData } from 'node:worker_threads'
import { StartUpCache } from '../dataset/start-up-cache.ts'
import { SEARCH_INDEX_KIND, buildSearchIndex, searchIndexBytes, transferablesOf } from './search-index.ts'

/*
 * A worker thread's whole work: the search index of the texts it is given, posted back once, its
 * typed arrays transferred; then, when given a start-up cache, the index kept there for the next
 * start. Started by QuestionSearch.buildOffThread, so that the server's event loop never spends
 * the build's second or so, nor collects its garbage, nor writes the file.
 */

const { texts, cacheDir, cacheKey } = workerData as { texts: string[], cacheDir: string | null, cacheKey: string | null }
const index = buildSearchIndex(texts)
// Made before the arrays are transferred (they are gone from this thread after).
const bytes = cacheDir === null || cacheKey === null ? undefined : searchIndexBytes(index)
parentPort!.postMessage(index, transferablesOf(index))
if (bytes !== undefined) StartUpCache.open(cacheDir).cache.write(SEARCH_INDEX_KIND, cacheKey!, bytes)
