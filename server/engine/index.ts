import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import type { Manifest } from '../manifest.ts'

/** The generic engine: list, detail, create, update, delete and transition endpoints from the manifest. */
export function registerEngine(_api: FastifyInstance, _manifest: Manifest, _db: Kysely<DB>): void {}
