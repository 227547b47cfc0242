import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dataProvenanceEn, dataProvenancePageHtml, dataProvenancePt } from '../../src/http/data-provenance.ts'
import type { DataCredit } from '../../src/data/dataset/dataset-manifest.ts'
import { build } from '../helper.ts'

const server = await build({ after })
const repoFile = (name: string) => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8')

test('the OpenAPI document says the MIT licence covers the code only, and where the questions come from and on what terms, in both languages', async () => {
  const { info } = (await server.request('/v1/openapi.json')).json<{ info: { license: { name: string, identifier: string }, description: string } }>()
  assert.equal(info.license.identifier, 'MIT')
  assert.match(info.license.name, /code only/)
  const english = info.description.slice(info.description.indexOf('## English'))
  const portuguese = info.description.slice(info.description.indexOf('## Português'), info.description.indexOf('## English'))
  for (const [language, text, heading] of [['en', english, 'Data: origin and terms'], ['pt', portuguese, 'Dados: origem e termos']]) {
    assert.ok(text!.includes(heading!), `${language}: ${heading}`)
    assert.match(text!, /INEP/, language)
    assert.match(text!, /\[yunger7\/enem-api\]\(https:\/\/github\.com\/yunger7\/enem-api\)/, language)
    assert.match(text!, /GPL-2\.0/, language)
    assert.match(text!, /MIT/, language)
  }
})

test('the question browser\'s footer says whose the questions are, where the records come from, and that the code\'s licence does not cover them', async () => {
  const page = await server.request('/')
  assert.equal(page.statusCode, 200)
  const footer = /<footer[^>]*>([\s\S]*)<\/footer>/.exec(page.body)?.[1] ?? ''
  assert.match(footer, /do INEP/)
  assert.match(footer, /<a href="https:\/\/github\.com\/yunger7\/enem-api">yunger7\/enem-api<\/a> \(repositório sob a licença GPL-2\.0\)/)
  assert.match(footer, /MIT deste servidor cobre só o código/)
})

test('files a publisher serves (INEP\'s booklets) are credited to the publisher at its address, beside the repositories and their licences', () => {
  const credits: DataCredit[] = [
    { title: 'the predecessor\'s dataset', repository: 'https://github.com/yunger7/enem-api', licence: 'GPL-2.0' },
    { title: 'ENEM 2025, from INEP\'s printed booklets', publisher: 'INEP', address: 'https://download.inep.gov.br/enem/provas_e_gabaritos/' }
  ]
  // Markdown escapes the underscores of the link's text, not of its address.
  const link = '[download.inep.gov.br/enem/provas\\_e\\_gabaritos](https://download.inep.gov.br/enem/provas_e_gabaritos/)'
  assert.ok(dataProvenanceEn(credits).includes(`[yunger7/enem-api](https://github.com/yunger7/enem-api) (a repository licensed GPL-2.0), the printed booklets and answer keys INEP publishes (${link})`), dataProvenanceEn(credits))
  assert.ok(dataProvenancePt(credits).includes(`os cadernos de prova e gabaritos publicados pelo INEP (${link})`), dataProvenancePt(credits))
  assert.ok(dataProvenancePageHtml(credits).includes('os cadernos de prova e gabaritos publicados pelo INEP (<a href="https://download.inep.gov.br/enem/provas_e_gabaritos/">download.inep.gov.br/enem/provas_e_gabaritos</a>)'), dataProvenancePageHtml(credits))
})

test('package.json names the repository and where to report bugs, and the changelog and the OpenAPI document start at its version', async () => {
  const manifest = JSON.parse(repoFile('package.json')) as { version: string, repository?: { url: string }, bugs?: { url: string } }
  assert.match(manifest.repository?.url ?? '', /^git\+https:\/\/.+\.git$/)
  assert.match(manifest.bugs?.url ?? '', /^https:\/\/.+\/issues$/)
  const firstVersion = /^## (?:\[)?(\d+\.\d+\.\d+)/m.exec(repoFile('CHANGELOG.md').replace(/^## Unreleased[\s\S]*?(?=^## \d)/m, ''))?.[1]
  assert.equal(firstVersion, manifest.version, 'the changelog\'s newest release is the current version')
  const { info } = (await server.request('/v1/openapi.json')).json<{ info: { version: string } }>()
  assert.equal(info.version, manifest.version)
})
