/** What the generated validators import: kept free of ajv so the portal's bundle stays small. */
export { formats } from './formats.ts'
export { keywords } from './keywords.ts'
