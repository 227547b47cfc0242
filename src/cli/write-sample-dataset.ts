/**
 * Writes a small, invented SAMPLE dataset with the same layout as the real
 * ENEM dataset, so tests and local development don't depend on the real data.
 * Every text here was written for this sample; none is copied from real exams.
 *
 * Usage: npx tsx src/cli/write-sample-dataset.ts [outDir]   (default: data/sample)
 *
 * The output is deterministic: outDir is deleted and recreated, and every name,
 * text and image byte is fixed, so running it twice gives identical bytes.
 *
 * Layout:
 *   exams.json                                       exam summaries, newest year first
 *   official/<year>.json, official/corrections.json  the sample's own official data (below)
 *   official/inep/itens-prova/ITENS_PROVA_2016.csv   the invented INEP item file 2016's table is made from
 *   <year>/details.json                              summary + questions[] ({title, index, discipline, language})
 *   <year>/questions/<index>[-<language>]/details.json
 *   <year>/questions/<dir>/<uuid>.<ext>              files of that question
 * File addresses are https://enem.dev/<path relative to outDir>.
 *
 * Facts tests rely on (the default correct letter of a question is
 * LETTERS[(index - 1 + (language === 'espanhol' ? 2 : 0)) % 5], unless noted):
 *
 * ENEM 2011 — languages [] ; 11 records, indexes 1..12 except 7, all language null.
 *   1–3 linguagens, 4–6 ciencias-humanas, 8–9 ciencias-natureza, 10–12 matematica.
 *   - 2:  context null, files [].
 *   - 3:  only four alternatives A–D (annulled item), correctAlternative "A".
 *   - 4:  alternativesIntroduction null.
 *   - 10: one PNG in context and files (0a1b2c3d-0000-4000-8000-000000000001.png).
 *   - 11: text-only context, files []; every alternative has text null and a PNG
 *         file (A..E = 0a1b2c3d-0000-4000-8000-000000000002.png .. ...006.png).
 *
 * ENEM 2016 — languages [espanhol, ingles] ; 32 records, official data from an invented INEP item file.
 *   91–95 in both languages (linguagens), but 93 is espanhol plus a null-language record in English;
 *   null-language 96–105 linguagens and 136–147 matematica.
 *   official/inep/itens-prova/ITENS_PROVA_2016.csv (invented, INEP's columns): linguagens booklets
 *   9299 AZUL and 9300 AMARELO of one order, keyed like the records but at 100; mathematics booklet
 *   9303 AZUL, agreeing with half of 136–147. official/2016.json and 2016's corrections rows are what
 *   the import makes of it (src/data/sources/inep-official.ts, officialYearFromItems): booklet
 *   9299 for LC (9300 the same order), none for MT (those records keep inep null), 93 labelled ingles
 *   (its sibling is espanhol), 100's key corrected.
 *
 * ENEM 2020 — languages [espanhol, ingles] ; 26 records (21 in the espanhol view).
 *   1–5 in both languages (folders 1-espanhol, 1-ingles, …, 5-ingles; linguagens),
 *   plus a mislabelled null-language record at index 5 (folder 5, linguagens),
 *   then null-language 6..20: 6–10 linguagens, 11–15 ciencias-humanas,
 *   16–18 ciencias-natureza, 19–20 matematica.
 *   - 1-ingles: PNG in context and files (0a1b2c3d-0000-4000-8000-000000000007.png).
 *   - 12: PNG and SVG in context and files
 *         (0a1b2c3d-0000-4000-8000-000000000008.png, 0a1b2c3d-0000-4000-8000-000000000009.svg).
 *   - 16: BMP in context and files (0a1b2c3d-0000-4000-8000-000000000010.bmp).
 *   details.json order: by index, espanhol then ingles, the null index-5 record after 5-ingles.
 *
 * ENEM 2023 — languages [ingles, espanhol] (ingles is the default view) ; 21 records.
 *   1–5 in both languages (linguagens), null-language 6..16: 6–8 linguagens,
 *   9–11 ciencias-humanas, 12–13 ciencias-natureza, 14–15 matematica, 16 linguagens.
 *   - 14: JPEG in context and files (0a1b2c3d-0000-4000-8000-000000000011.jpg).
 *   - 16: linguagens; its context, alternativesIntroduction and alternatives hold raw HTML and
 *         script (<script>alert(1)</script>, <img src=x onerror=alert(1)>) and a Markdown link
 *         to javascript: (HOSTILE_TOPIC), so a page can prove none of it becomes live.
 *   details.json lists each variant pair espanhol then ingles (unlike the languages array).
 *
 * Official data of the sample, in official/ (the format of src/data/official/official-table.ts; the
 * loader applies a dataset's own official/ folder instead of the real exams' data/official):
 *   2011 #6: official area CN; corrections.json turns its discipline ciencias-humanas into
 *            ciencias-natureza (a corrected discipline).
 *   2020 #1 espanhol: key C, as the record (inep only); #1 ingles: key B, the record says A,
 *            corrected (a variant with its own key).
 *   2020 #8: key D, the record says C, corrected (a corrected key).
 *   2020 #9: key X (annulled): the record keeps D, inep.annulled is true.
 *   2020 #10: key E; corrections.json has a row written against "A", but the record already
 *            holds E, so the row is skipped and reported.
 *   2020 #19: key D, as the record; excludedFromScoring true.
 *   Every other record has inep null.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, parse, resolve } from 'node:path'
import { LETTERS, type Alternative, type DatasetExamSummary, type DatasetQuestion, type Letter, type Option, type QuestionSummary } from '../data/record-schemas.ts'
import { solidBmp, solidJpeg, solidPng, tinySvg, type Rgb } from './sample-images.ts'
import type { CorrectionsFile, OfficialPosition, OfficialYear } from '../data/official/official-table.ts'
import { formatTable, officialYearFromItems } from '../data/sources/inep-official.ts'
import { officialTable } from '../data/official/official-table.ts'
import { proposeCorrections } from '../data/official/corrections.ts'
import { parseItensProva } from '../data/official/itens-prova.ts'
import { DEFAULT_APPLICATION, examKey } from '../data/exam-key.ts'
import { examTitle as convertedExamTitle } from '../data/sources/converted-exam.ts'

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

type Discipline = 'ciencias-humanas' | 'ciencias-natureza' | 'linguagens' | 'matematica'
type Language = 'espanhol' | 'ingles'

/** A record as the sample writes it: the dataset's own record type, with the sample's disciplines and languages. */
type Question = DatasetQuestion & { discipline: Discipline, language: Language | null }

/** An image to be written next to a question's details.json. */
interface ImageFile {
  name: string
  data: Buffer
}

/** Invented question text; `right` lands on the correct letter, `wrong` fills the rest in order. */
interface Topic {
  context: string
  introduction: string
  right: string
  wrong: [string, string, string, string]
}

/** Everything that makes one question differ from the default shape. */
interface QuestionSpec {
  index: number
  language: Language | null
  discipline: Discipline
  topic?: Topic
  correct?: Letter
  noContext?: boolean
  noIntroduction?: boolean
  alternativeCount?: 4 | 5
  contextImages?: ImageFile[]
  alternativeImages?: ImageFile[]
}

interface ExamSpec {
  year: number
  /** A second application (its folder is `<year>-ppl`); absent for a regular exam. */
  application?: 'ppl'
  languages: Language[]
  /** In the order they are listed in <year>/details.json. */
  questions: QuestionSpec[]
}

/** A file to write, relative to outDir. */
interface OutputFile {
  path: string
  data: string | Buffer
}

// ---------------------------------------------------------------------------
// Labels (same as the real dataset)
// ---------------------------------------------------------------------------

const DISCIPLINES: Option[] = [
  { label: 'Ciências Humanas e suas Tecnologias', value: 'ciencias-humanas' },
  { label: 'Ciências da Natureza e suas Tecnologias', value: 'ciencias-natureza' },
  { label: 'Linguagens, Códigos e suas Tecnologias', value: 'linguagens' },
  { label: 'Matemática e suas Tecnologias', value: 'matematica' },
]

const LANGUAGE_LABELS: Record<Language, string> = {
  espanhol: 'Espanhol',
  ingles: 'Inglês',
}

const BASE_URL = 'https://enem.dev'

function image (uuid: string, ext: string, data: Buffer): ImageFile {
  return { name: `${uuid}.${ext}`, data }
}

/** Fixed names so tests can refer to them; `n` is the last group of the UUID. */
function sampleUuid (n: string): string {
  return `0a1b2c3d-0000-4000-8000-${n.padStart(12, '0')}`
}

// ---------------------------------------------------------------------------
// Invented texts
// ---------------------------------------------------------------------------

const TOPICS: Record<Discipline | Language, Topic[]> = {
  linguagens: [
    {
      context: 'Na crônica, o narrador observa a feira do bairro numa manhã de sábado e transforma pequenos gestos dos feirantes em retratos da vida urbana.',
      introduction: 'No texto, a descrição da feira contribui para',
      right: 'valorizar o cotidiano como matéria literária.',
      wrong: ['denunciar a precariedade do comércio informal.', 'defender a substituição das feiras por mercados.', 'ironizar o hábito de comprar alimentos frescos.', 'registrar dados econômicos sobre o bairro.'],
    },
    {
      context: 'Cartaz de uma campanha escolar: **"Leia mais. Um livro abre portas que nenhuma chave abre."**',
      introduction: 'O cartaz emprega linguagem figurada com o objetivo de',
      right: 'incentivar o hábito da leitura.',
      wrong: ['vender livros de uma editora específica.', 'criticar o ensino de literatura nas escolas.', 'informar o horário de funcionamento da biblioteca.', 'explicar o funcionamento de fechaduras.'],
    },
    {
      context: 'Em uma conversa por mensagens, dois amigos usam abreviações como "vc", "tb" e "blz" para combinar um passeio.',
      introduction: 'O uso dessas abreviações revela que',
      right: 'a linguagem se adapta à situação comunicativa.',
      wrong: ['a norma-padrão deixou de ser ensinada.', 'os falantes desconhecem a ortografia oficial.', 'a escrita digital é sempre incompreensível.', 'as mensagens exigem linguagem formal.'],
    },
  ],
  'ciencias-humanas': [
    {
      context: 'A expansão das ferrovias no Brasil do século XIX esteve ligada ao escoamento da produção de café do interior paulista até o porto de Santos.',
      introduction: 'Esse processo evidencia a relação entre',
      right: 'infraestrutura de transporte e economia agroexportadora.',
      wrong: ['industrialização pesada e mercado interno.', 'reforma agrária e pequena propriedade.', 'urbanização planejada e turismo.', 'mineração de ouro e ocupação do litoral.'],
    },
    {
      context: 'Nas grandes cidades, a impermeabilização do solo por asfalto e concreto reduz a infiltração da água da chuva.',
      introduction: 'Uma consequência direta desse fenômeno é o(a)',
      right: 'aumento da frequência de enchentes urbanas.',
      wrong: ['elevação do nível dos lençóis freáticos.', 'redução das ilhas de calor.', 'diminuição do escoamento superficial.', 'ampliação das áreas de várzea preservadas.'],
    },
    {
      context: 'A Constituição de 1988 ampliou direitos sociais e políticos e ficou conhecida como "Constituição Cidadã".',
      introduction: 'Essa denominação se relaciona ao(à)',
      right: 'ampliação da participação política e das garantias individuais.',
      wrong: ['restrição do voto aos alfabetizados.', 'fortalecimento do poder moderador.', 'suspensão das eleições diretas.', 'centralização do poder nas Forças Armadas.'],
    },
  ],
  // fotossíntese and "efeito estufa" are there for the search examples of the README and docs/api.md (test/readme.test.ts).
  'ciencias-natureza': [
    {
      context: 'Ao deixar uma garrafa de água gelada sobre a mesa, formam-se gotas na sua superfície externa.',
      introduction: 'Esse fenômeno ocorre porque',
      right: 'o vapor de água do ar se condensa ao tocar a superfície fria.',
      wrong: ['a água atravessa as paredes da garrafa.', 'o vidro libera água quando resfriado.', 'o gelo derrete dentro da garrafa e transborda.', 'o ar frio evapora a água da mesa.'],
    },
    {
      context: 'Em uma cadeia alimentar de um lago, algas, que produzem seu alimento por fotossíntese, servem de alimento a pequenos crustáceos, que são comidos por peixes.',
      introduction: 'Nessa cadeia, as algas ocupam o nível de',
      right: 'produtores.',
      wrong: ['consumidores primários.', 'consumidores secundários.', 'decompositores.', 'parasitas.'],
    },
    {
      context: 'Uma lâmpada de 10 W permanece acesa durante 5 horas por dia. Parte da energia elétrica vem de usinas térmicas, que emitem gases do efeito estufa.',
      introduction: 'A energia elétrica consumida diariamente pela lâmpada é de',
      right: '50 Wh.',
      wrong: ['2 Wh.', '15 Wh.', '100 Wh.', '500 Wh.'],
    },
  ],
  matematica: [
    {
      context: 'Uma loja oferece desconto de 20% em uma camiseta que custa R$ 50,00.',
      introduction: 'O preço da camiseta com o desconto é',
      right: 'R$ 40,00.',
      wrong: ['R$ 30,00.', 'R$ 45,00.', 'R$ 48,00.', 'R$ 70,00.'],
    },
    {
      context: 'Um terreno retangular mede 12 m de frente por 25 m de fundo.',
      introduction: 'A área desse terreno, em metro quadrado, é',
      right: '300.',
      wrong: ['37.', '74.', '150.', '600.'],
    },
    {
      context: 'Em uma turma de 40 estudantes, 24 preferem futebol e os demais preferem vôlei.',
      introduction: 'A probabilidade de um estudante escolhido ao acaso preferir vôlei é',
      right: '40%.',
      wrong: ['16%.', '24%.', '60%.', '75%.'],
    },
  ],
  ingles: [
    {
      context: '> Our school garden needs you! Come on Saturday, bring gloves and help us plant new trees.',
      introduction: 'O cartaz tem como objetivo',
      right: 'convidar voluntários para uma atividade na escola.',
      wrong: ['vender mudas de árvores.', 'proibir a entrada no jardim.', 'anunciar o fechamento da escola.', 'ensinar técnicas de jardinagem.'],
    },
    {
      context: '> I used to take the bus every day. Now I ride my bike and arrive at work in a better mood.',
      introduction: 'Segundo o texto, a mudança de hábito trouxe ao autor',
      right: 'mais bem-estar no trajeto para o trabalho.',
      wrong: ['economia com o combustível do carro.', 'atrasos frequentes no emprego.', 'problemas de saúde.', 'dificuldade para encontrar ônibus.'],
    },
  ],
  espanhol: [
    {
      context: '> La biblioteca del barrio abrirá también los domingos para que las familias puedan leer juntas.',
      introduction: 'A notícia informa que a biblioteca vai',
      right: 'ampliar seus dias de funcionamento.',
      wrong: ['fechar aos domingos.', 'cobrar pelo empréstimo de livros.', 'mudar de endereço.', 'atender apenas estudantes.'],
    },
    {
      context: '> En mi ciudad, el mercado central es el lugar donde se mezclan sabores, idiomas y historias.',
      introduction: 'No texto, o mercado central é apresentado como um espaço de',
      right: 'encontro entre diferentes culturas.',
      wrong: ['conflito entre comerciantes.', 'venda exclusiva de produtos importados.', 'acesso restrito a turistas.', 'abandono e decadência.'],
    },
  ],
}

/**
 * 2011/11 needs a text whose answer is a graph, since its alternatives are
 * images; its right/wrong texts are therefore never used.
 */
const GRAPH_TOPIC: Topic = {
  context: 'Um reservatório vazio começa a ser enchido com vazão constante até ficar completamente cheio, e então a torneira é fechada.',
  introduction: 'O gráfico que melhor representa o volume de água no reservatório em função do tempo é',
  right: '',
  wrong: ['', '', '', ''],
}

/** 2023/16: markup and script that must stay inert text wherever the record is shown. */
const HOSTILE_TOPIC: Topic = {
  context: 'Leia o comentário deixado num fórum: <script>alert(1)</script> "Adorei o texto!" <img src=x onerror=alert(1)> Mais detalhes: [clique](javascript:alert(1)).',
  introduction: 'O trecho <b onmouseover=alert(1)>em destaque</b> mostra que o comentário',
  right: 'mistura texto comum com código que não deve ser executado.',
  wrong: ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '[clique](javascript:alert(1))', '<a href="javascript:alert(1)">link</a>'],
}

// ---------------------------------------------------------------------------
// Exam specs
// ---------------------------------------------------------------------------

type DisciplineRanges = [from: number, to: number, discipline: Discipline][]

function disciplineOf (ranges: DisciplineRanges, index: number): Discipline {
  const range = ranges.find(([from, to]) => index >= from && index <= to)
  if (range === undefined) throw new Error(`No discipline for index ${index}`)
  return range[2]
}

/** Null-language questions from..to (minus `skip`), disciplines taken from `ranges`. */
function plainQuestions (from: number, to: number, ranges: DisciplineRanges, skip: number[] = []): QuestionSpec[] {
  const specs: QuestionSpec[] = []
  for (let index = from; index <= to; index++) {
    if (!skip.includes(index)) specs.push({ index, language: null, discipline: disciplineOf(ranges, index) })
  }
  return specs
}

/** Foreign-language variants 1..count, each index listed in `order`. */
function languageVariants (count: number, order: Language[]): QuestionSpec[] {
  return Array.from({ length: count }, (_, i) => i + 1).flatMap((index) =>
    order.map((language): QuestionSpec => ({ index, language, discipline: 'linguagens' }))
  )
}

function folderName ({ index, language }: { index: number, language: Language | null }): string {
  return language === null ? String(index) : `${index}-${language}`
}

/** Merges per-question features, keyed by folder name, into the base specs. */
function withFeatures (specs: QuestionSpec[], features: Record<string, Partial<QuestionSpec>>): QuestionSpec[] {
  const unknown = Object.keys(features).filter((key) => !specs.some((spec) => folderName(spec) === key))
  if (unknown.length > 0) throw new Error(`Features for unknown questions: ${unknown.join(', ')}`)
  return specs.map((spec) => ({ ...spec, ...features[folderName(spec)] }))
}

function exam2011 (): ExamSpec {
  const ranges: DisciplineRanges = [[1, 3, 'linguagens'], [4, 6, 'ciencias-humanas'], [8, 9, 'ciencias-natureza'], [10, 12, 'matematica']]
  // Distinct colours so that every PNG has distinct bytes.
  const alternativeColours: Rgb[] = [[220, 60, 60], [60, 160, 60], [60, 90, 220], [230, 180, 40], [150, 70, 190]]
  return {
    year: 2011,
    languages: [],
    questions: withFeatures(plainQuestions(1, 12, ranges, [7]), {
      2: { noContext: true },
      3: { alternativeCount: 4, correct: 'A' },
      4: { noIntroduction: true },
      10: { contextImages: [image(sampleUuid('1'), 'png', solidPng([30, 120, 200]))] },
      11: {
        topic: GRAPH_TOPIC,
        alternativeImages: alternativeColours.map((colour, i) => image(sampleUuid(String(i + 2)), 'png', solidPng(colour))),
      },
    }),
  }
}

function exam2020 (): ExamSpec {
  const ranges: DisciplineRanges = [[5, 10, 'linguagens'], [11, 15, 'ciencias-humanas'], [16, 18, 'ciencias-natureza'], [19, 20, 'matematica']]
  // The real 2020 exam also has a null-language record at index 5 beside its variants.
  const questions = [...languageVariants(5, ['espanhol', 'ingles']), ...plainQuestions(5, 20, ranges)]
  return {
    year: 2020,
    languages: ['espanhol', 'ingles'],
    questions: withFeatures(questions, {
      '1-ingles': { contextImages: [image(sampleUuid('7'), 'png', solidPng([240, 120, 30]))] },
      12: {
        contextImages: [
          image(sampleUuid('8'), 'png', solidPng([20, 20, 20])),
          image(sampleUuid('9'), 'svg', tinySvg()),
        ],
      },
      16: { contextImages: [image(sampleUuid('10'), 'bmp', solidBmp([200, 30, 120]))] },
    }),
  }
}

function exam2023 (): ExamSpec {
  const ranges: DisciplineRanges = [[6, 8, 'linguagens'], [9, 11, 'ciencias-humanas'], [12, 13, 'ciencias-natureza'], [14, 15, 'matematica'], [16, 16, 'linguagens']]
  return {
    year: 2023,
    languages: ['ingles', 'espanhol'],
    // details.json deliberately lists espanhol first, unlike the languages array.
    questions: withFeatures([...languageVariants(5, ['espanhol', 'ingles']), ...plainQuestions(6, 16, ranges)], {
      14: { contextImages: [image(sampleUuid('11'), 'jpg', solidJpeg(176))] },
      16: { topic: HOSTILE_TOPIC },
    }),
  }
}

/**
 * 2020-ppl, the second application of 2020: the same layout on a small scale, so that every
 * endpoint's `application` has an exam to name. Its texts and keys are shifted from the regular
 * exam's, so no record repeats one of 2020's.
 */
function exam2020ppl (): ExamSpec {
  const ranges: DisciplineRanges = [[6, 7, 'linguagens'], [8, 9, 'ciencias-humanas'], [10, 10, 'matematica']]
  const questions = [...languageVariants(2, ['espanhol', 'ingles']), ...plainQuestions(6, 10, ranges)]
  return {
    year: 2020,
    application: 'ppl',
    languages: ['espanhol', 'ingles'],
    questions: withFeatures(questions.map((spec) => ({
      ...spec,
      topic: cyclic(TOPICS[spec.language ?? spec.discipline], spec.index + PPL_SHIFT),
      correct: cyclic(LETTERS, LETTERS.indexOf(defaultCorrect(spec)) + PPL_SHIFT),
    })), {
      8: { contextImages: [image(sampleUuid('12'), 'png', solidPng([90, 200, 160]))] },
    }),
  }
}

/** How far 2020-ppl's topics and keys are shifted from the regular exam's. */
const PPL_SHIFT = 3

/**
 * 2016: official data from an invented INEP item file alone (itensProva2016): the foreign-language
 * positions 91–95 with a null-language record at 93 beside its espanhol sibling (the language rule
 * labels it ingles), linguagens 96–105, and matematica 136–147, which no booklet agrees with.
 */
function exam2016 (): ExamSpec {
  const variants = [91, 92, 93, 94, 95].flatMap((index) => (['espanhol', 'ingles'] as const).map((language): QuestionSpec =>
    index === 93 && language === 'ingles'
      ? { index, language: null, discipline: 'linguagens', topic: cyclic(TOPICS.ingles, index) }
      : { index, language, discipline: 'linguagens' }))
  return {
    year: 2016,
    languages: ['espanhol', 'ingles'],
    questions: [
      ...variants,
      ...plainQuestions(96, 105, [[96, 105, 'linguagens']]),
      ...plainQuestions(136, 147, [[136, 147, 'matematica']]),
    ],
  }
}

// ---------------------------------------------------------------------------
// Building records and files
// ---------------------------------------------------------------------------

/** Cycles through `items`; keeps the lookup total even under noUncheckedIndexedAccess. */
function cyclic<T> (items: readonly T[], position: number): T {
  const item = items[position % items.length]
  if (item === undefined) throw new Error('Cannot pick from an empty list')
  return item
}

function defaultCorrect ({ index, language }: QuestionSpec): Letter {
  // Shifting espanhol makes the two variants of an index differ.
  return cyclic(LETTERS, index - 1 + (language === 'espanhol' ? 2 : 0))
}

function topicOf (spec: QuestionSpec): Topic {
  return spec.topic ?? cyclic(TOPICS[spec.language ?? spec.discipline], spec.index)
}

function buildAlternatives (spec: QuestionSpec, correct: Letter, topic: Topic, fileUrl: (image: ImageFile) => string): Alternative[] {
  const letters = LETTERS.slice(0, spec.alternativeCount ?? 5)
  const wrong = [...topic.wrong]
  return letters.map((letter, i) => {
    const isCorrect = letter === correct
    const picture = spec.alternativeImages?.[i]
    if (picture !== undefined) return { letter, text: null, file: fileUrl(picture), isCorrect }
    const text = isCorrect ? topic.right : wrong.shift() ?? null
    return { letter, text, file: null, isCorrect }
  })
}

function buildContext (spec: QuestionSpec, topic: Topic, imageUrls: string[]): string | null {
  if (spec.noContext === true) return null
  // Like the real data: each image appears inline as Markdown after the text.
  return [topic.context, ...imageUrls.map((url) => `![](${url})`)].join('\n\n')
}

/** The exam's folder: `<year>`, or `<year>-ppl` for a second application. */
function examFolder (exam: ExamSpec): string {
  return examKey(exam.year, exam.application ?? DEFAULT_APPLICATION)
}

/** The exam's title, as the converter names converted exams. */
function examTitle (exam: ExamSpec): string {
  return convertedExamTitle({ year: exam.year, application: exam.application ?? DEFAULT_APPLICATION })
}

function buildQuestion (exam: ExamSpec, spec: QuestionSpec): { question: Question, files: OutputFile[] } {
  const year = exam.year
  const folder = `${examFolder(exam)}/questions/${folderName(spec)}`
  const fileUrl = (picture: ImageFile): string => `${BASE_URL}/${folder}/${picture.name}`
  const topic = topicOf(spec)
  const correct = spec.correct ?? defaultCorrect(spec)
  const contextImages = spec.contextImages ?? []
  const contextUrls = contextImages.map(fileUrl)
  const question: Question = {
    title: `Questão ${spec.index} - ${examTitle(exam)}`,
    index: spec.index,
    year,
    language: spec.language,
    discipline: spec.discipline,
    context: buildContext(spec, topic, contextUrls),
    // Only context images: alternative images are referenced from the alternatives alone.
    files: contextUrls,
    correctAlternative: correct,
    alternativesIntroduction: spec.noIntroduction === true ? null : topic.introduction,
    alternatives: buildAlternatives(spec, correct, topic, fileUrl),
  }
  const images = [...contextImages, ...(spec.alternativeImages ?? [])]
  return {
    question,
    files: [
      { path: `${folder}/details.json`, data: toJson(question) },
      ...images.map((picture) => ({ path: `${folder}/${picture.name}`, data: picture.data })),
    ],
  }
}

function summaryOf (exam: ExamSpec): DatasetExamSummary {
  return {
    title: examTitle(exam),
    year: exam.year,
    ...(exam.application === undefined ? {} : { application: exam.application }),
    disciplines: DISCIPLINES,
    languages: exam.languages.map((value) => ({ label: LANGUAGE_LABELS[value], value })),
  }
}

function examFiles (exam: ExamSpec): OutputFile[] {
  const built = exam.questions.map((spec) => buildQuestion(exam, spec))
  const questions: QuestionSummary[] = built.map(({ question }) => ({
    title: question.title,
    index: question.index,
    discipline: question.discipline,
    language: question.language,
  }))
  return [
    { path: `${examFolder(exam)}/details.json`, data: toJson({ ...summaryOf(exam), questions }) },
    ...built.flatMap(({ files }) => files),
  ]
}

function datasetFiles (exams: ExamSpec[]): OutputFile[] {
  // Newest year first, the regular exam before the second application.
  const newestFirst = [...exams].sort((a, b) => b.year - a.year || (a.application === undefined ? 0 : 1) - (b.application === undefined ? 0 : 1))
  return [
    { path: 'exams.json', data: toJson(newestFirst.map(summaryOf)) },
    ...newestFirst.flatMap(examFiles),
  ]
}

// ---------------------------------------------------------------------------
// Official data of the sample (invented, like every record)
// ---------------------------------------------------------------------------

const SAMPLE_SOURCE = 'invented for the sample (src/cli/write-sample-dataset.ts)'

function officialPosition (index: number, language: Language | null, area: OfficialPosition['area'], key: OfficialPosition['key'], excludedFromScoring = false): OfficialPosition {
  return {
    index,
    language,
    area,
    key,
    item: 900000 + index * 10 + (language === 'ingles' ? 1 : 0),
    skill: (index % 30) + 1,
    excludedFromScoring,
    irt: key === 'X' || excludedFromScoring ? null : { a: 1.5, b: index / 10, c: 0.2 },
    booklet: null,
    sources: { key: [SAMPLE_SOURCE], area: [SAMPLE_SOURCE], item: SAMPLE_SOURCE },
  }
}

const ITENS_PROVA_HEADER = 'CO_POSICAO;SG_AREA;CO_ITEM;TX_GABARITO;CO_HABILIDADE;IN_ITEM_ABAN;TX_MOTIVO_ABAN;NU_PARAM_A;NU_PARAM_B;NU_PARAM_C;TX_COR;CO_PROVA;TP_LINGUA;IN_ITEM_ADAPTADO'
/** Where the sample's invented item file is written, and named in its table's sources. */
const SAMPLE_INEP_FOLDER = 'official/inep'
const SAMPLE_ITENS_PROVA_2016 = 'itens-prova/ITENS_PROVA_2016.csv'
/** The index of 2016's linguagens position whose invented INEP key differs from the record's (a corrected key). */
const CORRECTED_2016_INDEX = 100

/**
 * An invented ITENS_PROVA file for 2016, in INEP's columns: two linguagens booklets of one order
 * (9299 AZUL and 9300 AMARELO) whose keys are the records' (but at CORRECTED_2016_INDEX), with
 * the English item at 93 keyed like the null-language record there; and a mathematics booklet
 * (9303 AZUL) that agrees with only half of the records at 136–147.
 */
function shiftedLetter (letter: Letter): Letter {
  return cyclic(LETTERS, LETTERS.indexOf(letter) + 1)
}

function itensProva2016 (records: readonly Question[]): string {
  const keyOf = (index: number, language: Language | null): Letter | undefined =>
    records.find((record) => record.index === index && record.language === language)?.correctAlternative ??
    (language === 'ingles' ? records.find((record) => record.index === index && record.language === null)?.correctAlternative : undefined)
  const shifted = shiftedLetter
  const row = (position: number, area: string, index: number, language: Language | null, key: Letter, colour: string, booklet: number) => {
    const item = 990000 + index * 10 + (language === 'ingles' ? 1 : language === 'espanhol' ? 2 : 0)
    const irt = [1 + (index % 7) / 10, (index % 11) / 5 - 1, 0.15 + (index % 3) / 100].map((value) => value.toFixed(5)).join(';')
    const tpLingua = language === 'ingles' ? '0.0' : language === 'espanhol' ? '1.0' : ''
    return `${position};${area};${item};${key};${(index % 30) + 1}.0;0;;${irt};${colour};${booklet};${tpLingua};0`
  }
  const lines = [ITENS_PROVA_HEADER]
  for (const [booklet, colour] of [[9299, 'AZUL'], [9300, 'AMARELO']] as const) {
    for (let slot = 1; slot <= 45; slot++) {
      const index = 90 + slot
      if (slot <= 5) {
        for (const language of ['ingles', 'espanhol'] as const) lines.push(row(slot, 'LC', index, language, keyOf(index, language) ?? 'A', colour, booklet))
      } else {
        const key = keyOf(index, null) ?? 'A'
        lines.push(row(slot, 'LC', index, null, index === CORRECTED_2016_INDEX ? shifted(key) : key, colour, booklet))
      }
    }
  }
  for (let slot = 1; slot <= 45; slot++) {
    const index = 135 + slot
    const key = keyOf(index, null)
    lines.push(row(135 + slot, 'MT', index, null, key === undefined ? 'B' : slot % 2 === 0 ? shifted(key) : key, 'AZUL', 9303))
  }
  return `${lines.join('\n')}\n`
}

function officialFiles (exam2016Spec: ExamSpec, exam2020pplSpec: ExamSpec): OutputFile[] {
  const records2016 = exam2016Spec.questions.map((spec) => buildQuestion(exam2016Spec, spec).question)
  const records2020ppl = exam2020pplSpec.questions.map((spec) => buildQuestion(exam2020pplSpec, spec).question)
  const keyOf2020ppl = (index: number, language: Language | null): Letter =>
    records2020ppl.find((record) => record.index === index && record.language === language)!.correctAlternative
  const itemFile = itensProva2016(records2016)
  const year2016 = officialYearFromItems(parseItensProva(itemFile, 2016, SAMPLE_ITENS_PROVA_2016), records2016)
  const years: OfficialYear[] = [
    { year: 2011, areaOrder: null, booklets: [], positions: [officialPosition(6, null, 'CN', 'A')], disagreements: [], notes: [] },
    {
      year: 2020,
      areaOrder: null,
      booklets: [],
      positions: [
        officialPosition(1, 'espanhol', 'LC', 'C'),
        officialPosition(1, 'ingles', 'LC', 'B'),
        officialPosition(8, null, 'LC', 'D'),
        officialPosition(9, null, 'LC', 'X'),
        officialPosition(10, null, 'LC', 'E'),
        officialPosition(19, null, 'MT', 'D', true),
      ],
      disagreements: [],
      notes: [],
    },
    year2016,
    {
      // Like 2020's table: keys as the records' (inep only), a corrected key, an annulled item.
      year: 2020,
      application: 'ppl',
      areaOrder: null,
      booklets: [],
      positions: [
        officialPosition(1, 'espanhol', 'LC', keyOf2020ppl(1, 'espanhol')),
        officialPosition(1, 'ingles', 'LC', keyOf2020ppl(1, 'ingles')),
        officialPosition(6, null, 'LC', shiftedLetter(keyOf2020ppl(6, null))),
        officialPosition(7, null, 'LC', 'X'),
        officialPosition(10, null, 'MT', keyOf2020ppl(10, null)),
      ],
      disagreements: [],
      notes: [],
    },
  ]
  const row = (year: number, index: number, language: Language | null, field: 'correctAlternative' | 'discipline', inDataset: string, served: string) =>
    ({ year, index, language, field, inDataset, served, source: SAMPLE_SOURCE })
  const corrections: CorrectionsFile = {
    dataset: 'sample',
    rows: [
      row(2011, 6, null, 'discipline', 'ciencias-humanas', 'ciencias-natureza'),
      row(2020, 1, 'ingles', 'correctAlternative', 'A', 'B'),
      row(2020, 8, null, 'correctAlternative', 'C', 'D'),
      row(2020, 10, null, 'correctAlternative', 'A', 'E'),
      // 2016's rows are what the import computes from the invented item file.
      ...proposeCorrections(officialTable('', [year2016], []), records2016),
      // 2020-ppl's key correction, a row of its application.
      { year: 2020, application: 'ppl', index: 6, language: null, field: 'correctAlternative', inDataset: keyOf2020ppl(6, null), served: shiftedLetter(keyOf2020ppl(6, null)), source: SAMPLE_SOURCE },
    ],
  }
  return [
    ...years.map((year) => ({ path: `official/${year.year}${year.application === undefined ? '' : `-${year.application}`}.json`, data: formatTable(year) })),
    { path: 'official/corrections.json', data: formatTable(corrections) },
    { path: `${SAMPLE_INEP_FOLDER}/${SAMPLE_ITENS_PROVA_2016}`, data: itemFile },
  ]
}

function toJson (value: unknown): string {
  return JSON.stringify(value, null, 4)
}

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

/** Guards the recursive delete against an outDir that would wipe the project or the disk. */
function assertSafeToDelete (outDir: string): void {
  if (outDir === parse(outDir).root || outDir === process.cwd()) {
    throw new Error(`Refusing to delete ${outDir}`)
  }
}

function writeDataset (outDir: string, files: OutputFile[]): void {
  assertSafeToDelete(outDir)
  // Recreate from scratch so stale files from older runs never survive.
  rmSync(outDir, { recursive: true, force: true })
  for (const file of files) {
    const target = join(outDir, file.path)
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, file.data)
  }
}

function main (): void {
  const outDir = resolve(process.argv[2] ?? 'data/sample')
  const files = [...datasetFiles([exam2011(), exam2016(), exam2020(), exam2020ppl(), exam2023()]), ...officialFiles(exam2016(), exam2020ppl())]
  writeDataset(outDir, files)
  console.log(`Wrote ${files.length} files to ${outDir}`)
}

main()
