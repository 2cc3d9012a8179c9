/**
 * What a public page says about itself lives in model/siteMeta.ts, a pure room the server imports too
 * (server/portal/ writes the same titles into the HTML it sends): the portal's modules read it here.
 */
export * from '../../model/siteMeta.ts'
