import type { GitObjectKind } from './git-hashes.ts'

/*
 * The public sources `npm run dataset` builds the dataset from (docs/data.md, "Where the data
 * comes from"): each a git repository pinned by commit and by the git
 * hash of every path it is read from, so that a clone and a local copy are checked alike, the
 * latter with no network. `local` is where the path stands in a local copy (`--source NAME=PATH`).
 */

export const SOURCE_NAMES = ['dataset', 'ppl', '2024'] as const
export type SourceName = typeof SOURCE_NAMES[number]

export interface PinnedPath {
  /** The path in the repository (a folder ends in `/`). */
  readonly path: string
  /** The same path in a local copy, relative to the folder given (`.` for the folder itself). */
  readonly local: string
  readonly kind: GitObjectKind
  readonly hash: string
}

export interface SourcePin {
  readonly name: SourceName
  readonly title: string
  /** The repository's public address. */
  readonly repository: string
  /** The ref the commit was taken from (what a clone fetches when the commit itself cannot be). */
  readonly ref: string
  readonly commit: string
  /** SPDX identifier of the repository's licence. */
  readonly licence: string
  readonly read: readonly PinnedPath[]
  /** What a local copy holds, for the usage text. */
  readonly localCopy: string
}

const PREDECESSOR = 'https://github.com/yunger7/enem-api'

const PPL_TREES: ReadonlyArray<[number, string]> = [
  [2011, 'e7feee30043787e4efb64a7ef47033b26daa2211'],
  [2012, '6e1c59074d0d63befb1cec5af49b1881add39546'],
  [2013, '00ca210b5d32107c130805d923eddad901cf0e4a'],
  [2014, '10b1a26b40faaba561ca2e5e0968b56eeb2176b8'],
  [2015, 'dbccb2b3de5ca39e02905678850629a820450fbf'],
  [2016, 'c3ea34ba4056d9297f69f778b27bb49e2d383b55'],
  [2017, 'a05303d965c19d60d4fcdac22831dd7ccee5b931']
]

/** The folder of a second application in the `ppl` source. */
export function pplFolder (year: number): string {
  return `${year}-segunda-aplicacao`
}

export const SOURCE_PINS: Readonly<Record<SourceName, SourcePin>> = {
  dataset: {
    name: 'dataset',
    title: 'ENEM 2009–2023, the predecessor\'s dataset',
    repository: PREDECESSOR,
    ref: 'refs/heads/main',
    commit: 'fbe74ce609631a4a9b8dd1b930e376625b29d6a9',
    licence: 'GPL-2.0',
    read: [{ path: 'public/', local: '.', kind: 'tree', hash: '1c8a841093df03c1aba6416108f7a2f28b83437e' }],
    localCopy: 'the folder public/ is'
  },
  ppl: {
    name: 'ppl',
    title: 'ENEM second applications (PPL) 2011–2017, the predecessor\'s pull request 7',
    repository: PREDECESSOR,
    ref: 'refs/pull/7/head',
    commit: 'a6f6c6c48b773616202dfb5badf66b1cbc80d7af',
    licence: 'GPL-2.0',
    read: [
      { path: 'public/exams.json', local: 'exams.json', kind: 'blob', hash: 'e49d7ca3f5b0282e9fef0443c41b7ef9499d626a' },
      ...PPL_TREES.map(([year, hash]): PinnedPath => ({ path: `public/${pplFolder(year)}/`, local: pplFolder(year), kind: 'tree', hash }))
    ],
    localCopy: 'a folder holding exams.json and the <year>-segunda-aplicacao/ folders'
  },
  2024: {
    name: '2024',
    title: 'ENEM 2024, piresramon/gpt-4-enem (maritaca-ai/enem)',
    repository: 'https://github.com/piresramon/gpt-4-enem',
    ref: 'refs/heads/main',
    commit: 'cbba7fdd735845bb45ac80d5090baae1b949d782',
    licence: 'MIT',
    read: [
      { path: 'data/enem/2024.jsonl', local: '2024.jsonl', kind: 'blob', hash: 'bb6e7c4d2d21d97ba0ea106b7f2ac8713d1c8585' },
      { path: 'data/figures/2024/', local: 'figures/2024', kind: 'tree', hash: 'a6d98808bf5144e3c3a85cda5b6f26cfa8f2643d' }
    ],
    localCopy: 'a folder holding 2024.jsonl and figures/2024/'
  }
}

/** The second-application years the `ppl` pin covers, oldest first. */
export const PPL_YEARS: readonly number[] = PPL_TREES.map(([year]) => year)
