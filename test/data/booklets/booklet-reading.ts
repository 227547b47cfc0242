import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { openPdf } from '../../../src/data/booklets/page-marks.ts'
import { readBooklet, type BookletReading } from '../../../src/data/booklets/read-booklet.ts'

/** INEP's booklets beside the project (../shared/inep/booklets): only the project's machines have them. */
export const BOOKLETS = fileURLToPath(new URL('../../../../shared/inep/booklets/', import.meta.url))

const readings = new Map<string, BookletReading>()

/** A booklet (`<year>/<file>` under BOOKLETS) read whole, once per test file. */
export function bookletReading (file: string): BookletReading {
  let found = readings.get(file)
  if (found === undefined) {
    const pdf = openPdf(readFileSync(`${BOOKLETS}${file}`), file)
    try {
      found = readBooklet(pdf)
    } finally {
      pdf.close()
    }
    readings.set(file, found)
  }
  return found
}
