import type { DataCredit } from '../data/dataset/dataset-manifest.ts'

/**
 * Where the served questions come from and on what terms, said apart from the code's licence
 * (MIT, which covers this service's code and not the questions). The OpenAPI document's
 * introduction and the question browser's footer show it; docs/data.md's "Licences" says the same.
 * The sources credited are those of the exams served, read from the manifest.json of a folder
 * `npm run dataset` built (LoadedDataset.credits); a folder without one is credited to the
 * predecessor's dataset, which is what such a folder has been. A source read as its publisher serves
 * it (INEP's booklets, src/data/sources/source-pins.ts) is credited to the publisher at its address.
 */

/** The predecessor's repository, whose `public/` folder is the dataset this service serves. */
export const PREDECESSOR_REPOSITORY = 'https://github.com/yunger7/enem-api'

/** The code's licence, as the OpenAPI document's `info.license` states it. */
export const CODE_LICENSE = { name: 'MIT (this service\'s code only; the questions are INEP\'s: see "Data: origin and terms")', identifier: 'MIT' } as const

/** What a folder without a manifest is credited to. */
const PREDECESSOR_CREDIT: DataCredit = { title: 'the predecessor\'s dataset', repository: PREDECESSOR_REPOSITORY, licence: 'GPL-2.0' }

/** The address a credit links to. */
function addressOf (credit: DataCredit): string {
  return 'publisher' in credit ? credit.address : credit.repository
}

/** The repositories to credit, each once (the predecessor's gives both its dataset and the second applications). */
function creditList (credits: readonly DataCredit[] | null): readonly DataCredit[] {
  const list = credits === null || credits.length === 0 ? [PREDECESSOR_CREDIT] : credits
  return list.filter((credit, at) => list.findIndex((other) => addressOf(other) === addressOf(credit)) === at)
}

/** The repository's name from its address (`yunger7/enem-api`); another address without its scheme. */
function repositoryName (address: string): string {
  return address.replace(/^https?:\/\/(www\.)?(github\.com\/)?/, '').replace(/\/$/, '')
}

function markdownText (text: string): string {
  return text.replace(/[\\[\]*_<>]/g, (character) => `\\${character}`)
}

/** How each language names a repository's licence, and a publisher's own booklets. */
const WORDING = {
  en: { licensed: 'a repository licensed', published: (publisher: string) => `the printed booklets and answer keys ${publisher} publishes` },
  pt: { licensed: 'repositório sob a licença', published: (publisher: string) => `os cadernos de prova e gabaritos publicados pelo ${publisher}` }
}

function markdownCredits (credits: readonly DataCredit[] | null, wording: typeof WORDING.en): string {
  const link = (text: string, address: string) => `[${markdownText(text)}](${address.replace(/[()\s]/g, encodeURIComponent)})`
  return creditList(credits).map((credit) => ('publisher' in credit
    ? `${markdownText(wording.published(credit.publisher))} (${link(repositoryName(credit.address), credit.address)})`
    : `${link(repositoryName(credit.repository), credit.repository)} (${wording.licensed} ${markdownText(credit.licence)})`)).join(', ')
}

/** Markdown, for the reference page. */
export function dataProvenanceEn (credits: readonly DataCredit[] | null): string {
  return '**Data: origin and terms.** The MIT licence covers this service\'s code only, not the questions it serves. ' +
    'The questions and their images are INEP\'s (Instituto Nacional de Estudos e Pesquisas Educacionais Anísio Teixeira), from the ENEM exams it published; ' +
    'the texts and pictures a question quotes belong to their authors, credited in the question. ' +
    `The records come from ${markdownCredits(credits, WORDING.en)}; ` +
    'answer keys, areas and the item data in `inep` are corrected from INEP\'s published answer keys and item files. ' +
    'This service relicenses none of it: reuse it on the terms of those sources.'
}

/** Markdown, for the reference page. */
export function dataProvenancePt (credits: readonly DataCredit[] | null): string {
  return '**Dados: origem e termos.** A licença MIT cobre só o código deste serviço, não as questões que ele serve. ' +
    'As questões e suas imagens são do INEP (Instituto Nacional de Estudos e Pesquisas Educacionais Anísio Teixeira), das provas do ENEM que ele publicou; ' +
    'os textos e imagens citados numa questão pertencem a seus autores, indicados na questão. ' +
    `Os registros vêm de ${markdownCredits(credits, WORDING.pt)}; ` +
    'gabaritos, áreas e os dados de item em `inep` são corrigidos a partir dos gabaritos e arquivos de itens publicados pelo INEP. ' +
    'Este serviço não relicencia nada disso: reutilize conforme os termos dessas fontes.'
}

function escapeHtml (text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/** HTML (every outside text escaped), for the question browser's footer. */
export function dataProvenancePageHtml (credits: readonly DataCredit[] | null): string {
  const sources = creditList(credits).map((credit) => ('publisher' in credit
    ? `${escapeHtml(WORDING.pt.published(credit.publisher))} (<a href="${escapeHtml(credit.address)}">${escapeHtml(repositoryName(credit.address))}</a>)`
    : `<a href="${escapeHtml(credit.repository)}">${escapeHtml(repositoryName(credit.repository))}</a> (${WORDING.pt.licensed} ${escapeHtml(credit.licence)})`))
  return 'As questões e suas imagens são do INEP, das provas do ENEM; os textos e imagens citados numa questão pertencem a seus autores. ' +
    `Os registros vêm de ${sources.join(', ')}, com gabaritos e áreas corrigidos pelos arquivos publicados pelo INEP. ` +
    'A licença MIT deste servidor cobre só o código, não as questões.'
}
