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
  /**
   * Set when the file is not INEP's bytes but a re-save of them by a web tool (its text layer and fonts
   * kept, its images recompressed): what made it, and INEP's own file. Its reading repairs a record only
   * after it agrees with the transcription on the day's other records (booklet-readings.ts).
   */
  readonly resave?: string
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
function inepFile (local: string, repository: string, commit: string, repositoryPath: string, blob: string, sha256: string, resave?: string): PinnedFile {
  return { local, origin: `${INEP_BOOKLETS_ADDRESS}${local.slice(local.indexOf('/') + 1)}`, repository: `https://github.com/${repository}`, commit, path: repositoryPath, blob, sha256, ...(resave === undefined ? {} : { resave }) }
}

/** What SOURCE.md says of the 2014–2016 booklets here: a re-save by iLovePDF of INEP's file, whose blob is named. */
const iLovePdf = (inepBlob: string) => `a re-save, not INEP's bytes (producer iLovePDF): text layer and fonts kept, images recompressed; INEP's own file is git blob ${inepBlob}…`

const TODAS_DO_ENEM = 'MatheusVBLima/todas-do-enem-2.0'
const ENEM_QUESTIONS_RAG = 'andrehsc/enem-questions-rag'
const PROJETO_INTEGRADOR = 'tudosobreoenem/projetointegrador'
const ESTUDO_ENEM = 'Juanzitooh/estudo_enem'
const PROVAS_DO_ENEM = 'wgustavo-dev/provas-do-enem'
const TODAS_EXTRACOES = '4cb11967270c3c44605e71368b13281be616f547'
const INTEGRADOR_COMMIT = 'dfdcf35fd86bbbb3c5b6d49a8ac1752ecefee122'
const ESTUDO_COMMIT = 'e500976a611cc0c26f9e0e02597bd4c9883c7321'
const RAG_COMMIT = '1e3d4ac0f1fc69d4bf361cfa046b34bf41b5b2cb'

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
    title: 'ENEM 2025, and the print of 2009, 2010, 2014–2016, 2018, 2021 and 2023, from INEP\'s printed booklets and answer keys',
    publisher: 'INEP',
    address: INEP_BOOKLETS_ADDRESS,
    // ENEM 2025's blue booklets (day 1 CD1, day 2 CD7) and their keys: the exam. The others are exams the
    // predecessor's transcription gives: their print is compared with it record by record (booklet-readings.ts).
    // Blue where a copy could be had; 2018 and 2021 day 2 yellow (CD5), found in the blue numbering through ITENS_PROVA.
    files: [
      inepFile('2009/2009_PV_impresso_D1_CD1.pdf', TODAS_DO_ENEM, TODAS_EXTRACOES, 'extracoes-enem/provas/2009/dia1_caderno1_azul.pdf', 'c57b35a541d68495b4d7ea30afbc8ecd219ee11f', '0fe000974a0b5b30a543860695fc1fc9f8639705069de0e344574c6146ec3921'),
      inepFile('2009/2009_PV_impresso_D2_CD7.pdf', TODAS_DO_ENEM, TODAS_EXTRACOES, 'extracoes-enem/provas/2009/dia2_caderno7_azul.pdf', 'ee287b8935afef4442cdb46c12d5fc355eb0b919', '1006d00bbd419de56cfdea13adc1a696ed227b05e8a654ac8951244ea13494de'),
      // INEP's answer-marked prints ("com gabarito"): the key's letter marked on the page.
      inepFile('2010/2010_PV_impresso_D1_CD1.pdf', PROJETO_INTEGRADOR, INTEGRADOR_COMMIT, 'dia1_caderno1_azul_com_gab.pdf', 'ada29dc73b423865bb016e0339868f4f330107f4', '656c1275eecd713f4c19b1d6f637f9ebb79d2d1b744c617ec779e0c9ceaf1ad3'),
      inepFile('2010/2010_PV_impresso_D2_CD7.pdf', PROJETO_INTEGRADOR, INTEGRADOR_COMMIT, 'dia2_caderno7_azul_com_gab.pdf', 'ebeede3078372ea294ef28a6b2cc2edbcd091b7d', '371af7d1705c31555697c727a7a7abd32feccb7b0b9e7f9112823fe359e5cc85'),
      inepFile('2014/2014_PV_impresso_D1_CD1.pdf', PROJETO_INTEGRADOR, INTEGRADOR_COMMIT, '2014_PV_impresso_D1_CD1.pdf', '6479a734eb2170be525cc0eff4d46087aab7e88d', '952b73501d74d38ecf4aee873583b724dfa8fa538ef956ba51eb12fb74cec327', iLovePdf('8e9b254e')),
      inepFile('2014/2014_PV_impresso_D2_CD7.pdf', PROJETO_INTEGRADOR, INTEGRADOR_COMMIT, '2014_PV_impresso_D2_CD7.pdf', 'e2163b477f7e3481ee1c73f63219ed78e9dce3f6', '23bb63d804ce4f3fa8cd218e5740131af562e5c09603ff2c29a39b17c9b1c36e', iLovePdf('26e9ca1f')),
      inepFile('2015/2015_PV_impresso_D1_CD1.pdf', PROJETO_INTEGRADOR, INTEGRADOR_COMMIT, '2015_PV_impresso_D1_CD1.pdf', 'a7ef5b94c1c492e84729cdd59bf81d8ca3ab0f88', 'ea1f13290f352ae45f0edbbd81accc810cfc6d122462df40e76e29a17f8bbe9a', iLovePdf('fa379416')),
      inepFile('2015/2015_GB_impresso_D1_CD1.pdf', ESTUDO_ENEM, ESTUDO_COMMIT, 'questoes/provas_anteriores/2015_dia1_gabarito.pdf', 'a8f6ace5633590c0718ab79d02f9df225d416b9a', 'b490b4267becb240f20e524b31c9c07c1883e1977f832c118544e64f039c5091'),
      inepFile('2015/2015_PV_impresso_D2_CD7.pdf', PROJETO_INTEGRADOR, INTEGRADOR_COMMIT, '2015_PV_impresso_D2_CD7.pdf', '6080971b1abad827496b7b8d005037aadda7ecfd', 'f4050f7c9cdf683a9002ff3a2a16779ca24729064b2da33c077d63ecac124e52', 'a re-save, not INEP\'s bytes (producer iLovePDF): text layer and fonts kept, images recompressed'),
      inepFile('2016/2016_PV_impresso_D1_CD1.pdf', PROJETO_INTEGRADOR, INTEGRADOR_COMMIT, '2016_PV_impresso_D1_CD1.pdf', '080d31fc853fdf5bab79df8c963bddd594645f5c', '3407d3bbc58ee1fddd5e59bc13c9aef07aa25c5777349e028d115d8147fe57d9', iLovePdf('b3db14da')),
      inepFile('2016/2016_GB_impresso_D1_CD1.pdf', ESTUDO_ENEM, ESTUDO_COMMIT, 'questoes/provas_anteriores/2016_dia1_gabarito.pdf', '9b7948478b2213141234823279854ba44f2b6e2a', '67f330f99e7106ba78737a6ea963c5b27d0635530b9e22778a4660064447505f'),
      inepFile('2016/2016_PV_impresso_D2_CD7.pdf', PROJETO_INTEGRADOR, INTEGRADOR_COMMIT, '2016_PV_impresso_D2_CD7.pdf', '4f70aef52d2f169d688996e72b315dd52b4f2168', '1912d3e74536fde94fe21a2a0e6021988b942cd3be9275355c345af002b8d13e', 'a re-save, not INEP\'s bytes (producer iLovePDF): text layer and fonts kept, images recompressed'),
      inepFile('2018/2018_PV_impresso_D2_CD5.pdf', PROVAS_DO_ENEM, '8a94eba310f8a9bd3e030543e1d7644a889daa71', '2018_PV_impresso_D2_CD5.pdf', 'f50d6dca58529d1cdaa0552f30ed7c5a5c0b8bd3', '79345b9540b7b584858fefbe4a7c50064dc385b04be288b9828ade11b288492d'),
      inepFile('2018/2018_GB_impresso_D2_CD5.pdf', ESTUDO_ENEM, ESTUDO_COMMIT, 'questoes/provas_anteriores/2018_dia2_gabarito.pdf', '16e6ebfcdd6f4057f101cf7b461c7e605e15a7c7', 'c056f8867b4c4d7afc28ff15ace88d2a2f9c4aa2462507f90b460e38af0f6133'),
      inepFile('2021/2021_PV_impresso_D2_CD5.pdf', ENEM_QUESTIONS_RAG, RAG_COMMIT, 'data/downloads/2021/2021_PV_impresso_D2_CD5.pdf', '3ea4464cd8e9b756542a9883da4666a2b42f9bed', '508fc9db2d39df289b8a399044516af78bda3793fd398eed39c7ab0f2a393c48'),
      inepFile('2023/2023_PV_impresso_D2_CD7.pdf', ENEM_QUESTIONS_RAG, RAG_COMMIT, 'data/downloads/2023/2023_PV_impresso_D2_CD7.pdf', '67faf1626dbce1f66dbb09a0daef2d4bcf39dd0e', '6248d5e099267ab1db3ddf5e46b8cb1a83bb27d387528b9a8755ffba8ced1ba6'),
      inepFile('2023/2023_GB_impresso_D2_CD7.pdf', ENEM_QUESTIONS_RAG, RAG_COMMIT, 'data/downloads/2023/2023_GB_impresso_D2_CD7.pdf', '0a2eaf71188d5fad5201bbc321b3046146f7d2e2', 'cf40c0c8b19145440132673b11ec682ceef2e047eb1cfa1a2f19a0f908c12410'),
      inepFile('2025/2025_PV_impresso_D1_CD1.pdf', TODAS_DO_ENEM, '021c65d6e34e67e90a9dbc4deac374aec0a2a325', 'src/data/provas/2025_PV_impresso_D1_CD1.pdf', 'db11ac8ff4d0488d4e238e945c472bcec3249f7a', 'cdda0ab286292f592573089d54c4c60750b2bbaf77890035a411bcf8bbcf4fac'),
      inepFile('2025/2025_GB_impresso_D1_CD1.pdf', TODAS_DO_ENEM, '021c65d6e34e67e90a9dbc4deac374aec0a2a325', 'src/data/gabaritos/2025_GB_impresso_D1_CD1.pdf', '945443fa104913c01343d5890d7bf024a9681522', '583ac1950cd1927c42c971c270f96c0e33816844084fd5866a13bf94d8e08a81'),
      inepFile('2025/2025_PV_impresso_D2_CD7.pdf', TODAS_DO_ENEM, TODAS_EXTRACOES, 'extracoes-enem/provas/2025/2025_PV_impresso_D2_CD7.pdf', '40846c693b90c0996962e9b45c7d84b36c5c19ff', 'aa0e95d1b9fd9a3fa2b5fb5e22a6ae6d49e26dc257ac437960a3f2b0936079e6'),
      inepFile('2025/2025_GB_impresso_D2_CD7.pdf', TODAS_DO_ENEM, 'd53995f42d90aa69c579eaeac8f1f9993c3fd1f7', 'src/data/gabaritos/2025_GB_impresso_D2_CD7.pdf', '5c1c156d1e3369744e90a0b4d39002d5baeeaa37', '9e2d470af35378df532173414ec7077c3ce4df38c084a5f1258579fdf9270aef')
    ],
    localCopy: 'a folder laid out <year>/<INEP file name> (2025/2025_PV_impresso_D1_CD1.pdf, …)'
  }
}

/** The second-application years the `ppl` pin covers, oldest first. */
export const PPL_YEARS: readonly number[] = PPL_TREES.map(([year]) => year)
