import path from 'node:path'

/**
 * The dataset folders a value of ENEM_DATA_DIR names: one, or several separated by `:` (the PATH
 * separator), each resolved; empty items are dropped.
 * @example dataFolders('/srv/enem-data:/srv/enem-ppl') // ['/srv/enem-data', '/srv/enem-ppl']
 */
export function dataFolders (value: string): string[] {
  return value.split(path.delimiter).filter((item) => item !== '').map((item) => path.resolve(item))
}
