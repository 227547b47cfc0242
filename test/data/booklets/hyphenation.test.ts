import { test } from 'node:test'
import assert from 'node:assert/strict'
import { hyphenJoin, joinHyphenated } from '../../../src/data/booklets/hyphenation.ts'
import { wordListOf } from '../../../src/data/booklets/word-list.ts'

/*
 * A line's final hyphen, as 2010 day 1 question 87 breaks "cana-" / "de-açúcar" and 2010 day 2's
 * English 95 "cartões-" / "postais": the word list keeps a compound's hyphen and drops a syllable break's.
 */

const words = wordListOf('cana\nde\naçúcar\ncartões\npostais\nprincipalmente\nrestos\nvegetais\najudá\nla\neditores\nchefes\n')

test('a syllable break loses its hyphen; a compound broken at its own hyphen keeps it', () => {
  assert.equal(joinHyphenated(['restos vegetais da cana-', 'de-açúcar'], words), 'restos vegetais da cana-de-açúcar')
  assert.equal(joinHyphenated(['cartões-', 'postais'], words), 'cartões-postais')
  assert.equal(joinHyphenated(['prin-', 'cipalmente'], words), 'principalmente')
  assert.equal(joinHyphenated(['editores-', '-chefes'], words), 'editores-chefes')
  assert.equal(joinHyphenated(['ajudá-', 'la'], words), 'ajudá-la')
})

test('without a word list a lower-case continuation joins as a syllable break; a capital or no hyphen is no break', () => {
  assert.equal(hyphenJoin('cartões-', 'postais', null), 'drop')
  assert.equal(hyphenJoin('Norte-', 'Sul', words), null)
  assert.equal(hyphenJoin('cana', 'de', words), null)
})
