import type { GitObjectKind } from './git-hashes.ts'

/*
 * The public sources `npm run dataset` builds the dataset from (docs/data.md, "Where the data
 * comes from"): each a git repository pinned by commit and by the git
 * hash of every path it is read from, so that a clone and a local copy are checked alike, the
 * latter with no network. `local` is where the path stands in a local copy (`--source NAME=PATH`).
 * INEP's booklets are single files that no one repository holds together: each is pinned on its
 * own, by the public git copy it is fetched from (repository, commit, path) and by its git blob and
 * SHA-256.
 */

export const SOURCE_NAMES = ['dataset', 'ppl', '2024', 'booklets'] as const
export type SourceName = typeof SOURCE_NAMES[number]
/** The sources read from one repository at one commit. */
export type RepositorySourceName = Exclude<SourceName, 'booklets'>

export interface PinnedPath {
  /** The path in the repository (a folder ends in `/`). */
  readonly path: string
  /** The same path in a local copy, relative to the folder given (`.` for the folder itself). */
  readonly local: string
  readonly kind: GitObjectKind
  readonly hash: string
}

/** A source read from one git repository at one commit. */
export interface SourcePin {
  readonly kind: 'repository'
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

/** One file of a source of single files, pinned by the public git copy it is fetched from. */
export interface PinnedFile {
  /** Where a local copy holds it, relative to the folder given: `<year>/<INEP file name>`. */
  readonly local: string
  /** Where its publisher serves it (what it is a copy of). */
  readonly origin: string
  /** The repository, commit and path of the public git copy read. */
  readonly repository: string
  readonly commit: string
  readonly path: string
  readonly blob: string
  readonly sha256: string
}

/** A source of single files, each from its own repository: INEP's booklets. */
export interface FilesPin {
  readonly kind: 'files'
  readonly name: SourceName
  readonly title: string
  /** Who publishes the files, and where: what the data is credited to. */
  readonly publisher: string
  readonly address: string
  readonly files: readonly PinnedFile[]
  /** What a local copy holds, for the usage text. */
  readonly localCopy: string
}

/**
 * Where INEP publishes its booklets and answer keys (docs/data.md). INEP reissued booklets in July
 * 2026 with new covers, so what it serves today may no longer hash to a pin: the pins name the
 * public git copies, whose bytes are the October 2025 ones.
 */
export const INEP_BOOKLETS_ADDRESS = 'https://download.inep.gov.br/enem/provas_e_gabaritos/'

/** A file of ../shared/inep/booklets/SOURCE.md: `<year>/<INEP name>`, from `repository@commit:path`. */
function inepFile (local: string, repository: string, commit: string, repositoryPath: string, blob: string, sha256: string): PinnedFile {
  return { local, origin: `${INEP_BOOKLETS_ADDRESS}${local.slice(local.indexOf('/') + 1)}`, repository: `https://github.com/${repository}`, commit, path: repositoryPath, blob, sha256 }
}

const TODAS_DO_ENEM = 'MatheusVBLima/todas-do-enem-2.0'
const ENEM_QUESTIONS_RAG = 'andrehsc/enem-questions-rag'

export const SOURCE_PINS: Readonly<Record<RepositorySourceName, SourcePin> & Record<'booklets', FilesPin>> = {
  dataset: {
    kind: 'repository',
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
    kind: 'repository',
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
    kind: 'repository',
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
  },
  booklets: {
    kind: 'files',
    name: 'booklets',
    title: 'ENEM 2025, and repairs of 2023, from INEP\'s printed booklets and answer keys',
    publisher: 'INEP',
    address: INEP_BOOKLETS_ADDRESS,
    // ENEM 2025's blue booklets (day 1 CD1, day 2 CD7) and their keys: the exam; 2023 day 2's: repairs of the predecessor's records.
    files: [
      inepFile('2025/2025_PV_impresso_D1_CD1.pdf', TODAS_DO_ENEM, '021c65d6e34e67e90a9dbc4deac374aec0a2a325', 'src/data/provas/2025_PV_impresso_D1_CD1.pdf', 'db11ac8ff4d0488d4e238e945c472bcec3249f7a', 'cdda0ab286292f592573089d54c4c60750b2bbaf77890035a411bcf8bbcf4fac'),
      inepFile('2025/2025_GB_impresso_D1_CD1.pdf', TODAS_DO_ENEM, '021c65d6e34e67e90a9dbc4deac374aec0a2a325', 'src/data/gabaritos/2025_GB_impresso_D1_CD1.pdf', '945443fa104913c01343d5890d7bf024a9681522', '583ac1950cd1927c42c971c270f96c0e33816844084fd5866a13bf94d8e08a81'),
      inepFile('2025/2025_PV_impresso_D2_CD7.pdf', TODAS_DO_ENEM, '4cb11967270c3c44605e71368b13281be616f547', 'extracoes-enem/provas/2025/2025_PV_impresso_D2_CD7.pdf', '40846c693b90c0996962e9b45c7d84b36c5c19ff', 'aa0e95d1b9fd9a3fa2b5fb5e22a6ae6d49e26dc257ac437960a3f2b0936079e6'),
      inepFile('2025/2025_GB_impresso_D2_CD7.pdf', TODAS_DO_ENEM, 'd53995f42d90aa69c579eaeac8f1f9993c3fd1f7', 'src/data/gabaritos/2025_GB_impresso_D2_CD7.pdf', '5c1c156d1e3369744e90a0b4d39002d5baeeaa37', '9e2d470af35378df532173414ec7077c3ce4df38c084a5f1258579fdf9270aef'),
      inepFile('2023/2023_PV_impresso_D2_CD7.pdf', ENEM_QUESTIONS_RAG, '1e3d4ac0f1fc69d4bf361cfa046b34bf41b5b2cb', 'data/downloads/2023/2023_PV_impresso_D2_CD7.pdf', '67faf1626dbce1f66dbb09a0daef2d4bcf39dd0e', '6248d5e099267ab1db3ddf5e46b8cb1a83bb27d387528b9a8755ffba8ced1ba6'),
      inepFile('2023/2023_GB_impresso_D2_CD7.pdf', ENEM_QUESTIONS_RAG, '1e3d4ac0f1fc69d4bf361cfa046b34bf41b5b2cb', 'data/downloads/2023/2023_GB_impresso_D2_CD7.pdf', '0a2eaf71188d5fad5201bbc321b3046146f7d2e2', 'cf40c0c8b19145440132673b11ec682ceef2e047eb1cfa1a2f19a0f908c12410')
    ],
    localCopy: 'a folder laid out <year>/<INEP file name> (2025/2025_PV_impresso_D1_CD1.pdf, …)'
  }
}

/** The second-application years the `ppl` pin covers, oldest first. */
export const PPL_YEARS: readonly number[] = PPL_TREES.map(([year]) => year)
