/*
 * A record's file addresses as the server serves them. A record names a file by its path in the
 * dataset folder (`https://enem.dev/<path>`), and the file on disk is named exactly so, `%`
 * included: the second applications hold files named `enem2015.2.quest%C3%A3o147.png`. An HTTP
 * client's address is decoded before it is looked up, so the served address escapes every path
 * segment once (`quest%25C3%25A3o147.png`), and decoding it gives the name on disk back. Names
 * without such characters (every name of the regular exams) are left as they are. A query or
 * fragment after the path (`?latex=…`) is not part of the file's name and is kept as written.
 */

/** Prefix of every file address in the source records; what follows it is a path in the dataset folder. */
export const DATASET_FILE_PREFIX = 'https://enem.dev/'

/** Every source address inside a text (a record's Markdown, a `files` entry). */
export const DATASET_ADDRESSES = /https:\/\/enem\.dev\/[^\s)"'<>\]]*/g

/** The path in the dataset folder an address names, without its query or fragment. */
export function addressedPath (address: string): string {
  const path = address.slice(DATASET_FILE_PREFIX.length)
  const end = path.search(/[?#]/)
  return end === -1 ? path : path.slice(0, end)
}

/** `path` escaped once per segment, as it stands in a served address. */
export function escapePath (path: string): string {
  return path.split('/').map((segment) => encodeURIComponent(segment)).join('/')
}

/** The path an escaped address path names once an HTTP server decodes it; null where it does not decode. */
export function decodePath (escaped: string): string | null {
  try {
    return escaped.split('/').map((segment) => decodeURIComponent(segment)).join('/')
  } catch {
    return null
  }
}

/**
 * The text with every source address pointing under `filesBaseUrl` (no trailing slash), each path
 * escaped once per segment.
 * @example servedAddresses('![](https://enem.dev/2015-ppl/questions/1/a%C3.png)', 'http://h/files') === '![](http://h/files/2015-ppl/questions/1/a%25C3.png)'
 */
export function servedAddresses (text: string, filesBaseUrl: string): string {
  return text.replace(DATASET_ADDRESSES, (address) => {
    const path = addressedPath(address)
    return `${filesBaseUrl}/${escapePath(path)}${address.slice(DATASET_FILE_PREFIX.length + path.length)}`
  })
}

/**
 * The dataset path a served address reaches once decoded as the server decodes a request path,
 * or null where it does not decode: what must be a servable file for the address to answer 200.
 */
export function servedPath (address: string): string | null {
  return decodePath(escapePath(addressedPath(address)))
}
