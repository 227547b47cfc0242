/**
 * Where the served questions come from and on what terms, said apart from the code's licence
 * (MIT, which covers this service's code and not the questions). The OpenAPI document's
 * introduction and the question browser's footer show it; docs/data.md's "Licences" says the same.
 */

/** The predecessor's repository, whose `public/` folder is the dataset this service serves. */
export const PREDECESSOR_REPOSITORY = 'https://github.com/yunger7/enem-api'

/** The code's licence, as the OpenAPI document's `info.license` states it. */
export const CODE_LICENSE = { name: 'MIT (this service\'s code only; the questions are INEP\'s: see "Data: origin and terms")', identifier: 'MIT' } as const

/** Markdown, for the reference page. */
export const DATA_PROVENANCE_EN = '**Data: origin and terms.** The MIT licence covers this service\'s code only, not the questions it serves. ' +
  'The questions and their images are INEP\'s (Instituto Nacional de Estudos e Pesquisas Educacionais Anísio Teixeira), from the ENEM exams it published; ' +
  'the texts and pictures a question quotes belong to their authors, credited in the question. ' +
  `The records come from the predecessor's dataset, the \`public/\` folder of [yunger7/enem-api](${PREDECESSOR_REPOSITORY}) (a repository licensed GPL-2.0); ` +
  'answer keys, areas and the item data in `inep` are corrected from INEP\'s published answer keys and item files. ' +
  'This service relicenses none of it: reuse it on the terms of those sources.'

/** Markdown, for the reference page. */
export const DATA_PROVENANCE_PT = '**Dados: origem e termos.** A licença MIT cobre só o código deste serviço, não as questões que ele serve. ' +
  'As questões e suas imagens são do INEP (Instituto Nacional de Estudos e Pesquisas Educacionais Anísio Teixeira), das provas do ENEM que ele publicou; ' +
  'os textos e imagens citados numa questão pertencem a seus autores, indicados na questão. ' +
  `Os registros vêm do conjunto de dados do projeto anterior, a pasta \`public/\` de [yunger7/enem-api](${PREDECESSOR_REPOSITORY}) (repositório sob a licença GPL-2.0); ` +
  'gabaritos, áreas e os dados de item em `inep` são corrigidos a partir dos gabaritos e arquivos de itens publicados pelo INEP. ' +
  'Este serviço não relicencia nada disso: reutilize conforme os termos dessas fontes.'

/** HTML (no markup from outside), for the question browser's footer. */
export const DATA_PROVENANCE_PAGE_HTML = 'As questões e suas imagens são do INEP, das provas do ENEM; os textos e imagens citados numa questão pertencem a seus autores. ' +
  `Os registros vêm de <a href="${PREDECESSOR_REPOSITORY}">yunger7/enem-api</a> (repositório sob a licença GPL-2.0), com gabaritos e áreas corrigidos pelos arquivos publicados pelo INEP. ` +
  'A licença MIT deste servidor cobre só o código, não as questões.'
