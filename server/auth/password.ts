import { randomBytes } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'

/** OWASP's argon2id baseline: 19 MiB of memory, 2 passes, one lane. */
// algorithm 2 is Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax).
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return hash(password, options)
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false)
}

let dummy: Promise<string> | undefined

/**
 * A login for an account that does not exist verifies the password against this hash of a random secret
 * (same parameters as every stored hash), so it takes as long as a wrong password for one that does: the time
 * of the answer tells nothing either (issue #17, finding 2: 4 ms against 18–20 ms).
 */
export async function verifyAgainstNobody(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(32).toString('base64url'))
  await verifyPassword(await dummy, password)
  return false
}
