import type { EngineRegistry } from '../../engine/index.ts'
import { nextDailyNo } from '../orders/numbering.ts'
import { autoQuote } from './autoQuote.ts'
import { customerQuoteRows } from './display.ts'
import { quoteReviewer, quoteReviewGate, quoteReviewSubmit } from './review.ts'
import { quoteTotals } from './totals.ts'

/** Quotes (schemas/quote.yaml, schemas/inquiry.yaml): what the engine runs for them. */
export function register(engine: EngineRegistry): void {
  /** quote: line amounts, subtotals per currency, the total in the quote's currency; the inquiry's customer. */
  engine.derivation('quoteTotals', quoteTotals)
  /** inquiry, after create: automatic quotes from the tenant's quote configuration where a rate matches. */
  engine.effect('autoQuote', autoQuote)
  /** quote send: with the site's review on, only an approved quote is sent. */
  engine.effect('quoteReviewGate', quoteReviewGate)
  /** quote submit: only where the site asks for reviews. */
  engine.effect('quoteReviewSubmit', quoteReviewSubmit)
  /** quote approve / decline: a second operator, not the quote's author or its submitter. */
  engine.effect('quoteReviewer', quoteReviewer)
  /** quote rows a customer is answered (their reject's answer): only what the site's display modes show. */
  engine.answer('quote', customerQuoteRows)
  /** QT, the tenant's day and a daily sequence. */
  engine.numbering('quoteNo', (trx, tenantId, _record, at) => nextDailyNo(trx, tenantId, 'QT', at))
}
