import { sql } from 'kysely'
import { expect } from 'vitest'
import { hashPassword } from '../../server/auth/password.ts'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import type { TestApp } from './app.ts'
import { multipart } from './workbook.ts'

/**
 * Calls as a signed-in user makes them, and the ids a test names, for the API tests of issue #21: the
 * portal's header beside the session cookie (server/http/csrf.ts), the host that picks the tenant and the
 * caller's language. Below them, the same with the token as a bearer header (`bearerCalls`), as the tests of
 * the business flows call, and the seeded orders and B/L instructions those tests pick from.
 */
export interface CallOptions {
  host?: string
  language?: string
}

export function caller(t: TestApp) {
  return (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    token: string | null,
    payload?: object,
    options: CallOptions = {},
  ) => {
    const headers: Record<string, string> = { host: options.host ?? 'localhost', resource: '1' }
    if (token) headers.cookie = `b2b_token=${token}`
    if (options.language) headers.language = options.language
    return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
  }
}

/** A seeded row's id by its tenant's code and a column's value (a user by username, a company by name). */
export async function idIn(
  t: TestApp,
  table: 'app_user' | 'company' | 'role',
  column: 'username' | 'name' | 'code',
  value: string,
  tenant = 'demo',
): Promise<number> {
  const { rows } = await sql<{ id: number }>`select r.id from ${sql.table(table)} r
    join tenant on tenant.id = r.tenant_id
    where tenant.code = ${tenant} and ${sql.ref(`r.${column}`)} = ${value}`.execute(t.database.db)
  const row = rows[0]
  if (!row) throw new Error(`no ${table} ${column} = ${value} in ${tenant}`)
  return row.id
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** Who calls: the host that picks the tenant (localhost: demo) and the caller's language (en_US). */
export interface BearerOptions {
  host?: string
  language?: string
}

/**
 * Calls as the API tests of the business flows make them: the token as a bearer header (no cookie, so no
 * portal header either), the body as JSON when there is one. `answer` is the envelope, `ok` expects success
 * and answers its content, `get` is a GET (a download's bytes, a detail), `upload` posts one file as a
 * browser's form does (multipart/form-data, the field `file`).
 */
export function bearerCalls(t: TestApp) {
  const call = (
    method: Method,
    url: string,
    token: string | null | undefined,
    payload?: object,
    { host = 'localhost', language = 'en_US' }: BearerOptions = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { host, language, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(payload ? { payload } : {}),
    })
  const answer = async (
    method: Method,
    url: string,
    token: string | null | undefined,
    payload?: object,
    options?: BearerOptions,
  ) => (await call(method, url, token, payload, options)).json()
  const ok = async (method: Method, url: string, token: string, payload?: object, options?: BearerOptions) => {
    const body = await answer(method, url, token, payload, options)
    expect(body.code, JSON.stringify(body).slice(0, 400)).toBe('0000')
    return body.content
  }
  const get = (url: string, token: string | null, options?: BearerOptions) =>
    call('GET', url, token, undefined, options)
  const upload = (
    url: string,
    token: string,
    file: { name: string; bytes: Buffer; type?: string },
    { host = 'localhost', language = 'en_US' }: BearerOptions = {},
  ) => {
    const body = multipart(file.name, file.bytes, file.type)
    return t.app.inject({
      method: 'POST',
      url,
      headers: { host, language, authorization: `Bearer ${token}`, 'content-type': body.contentType },
      payload: body.payload,
    })
  }
  return { call, answer, ok, get, upload }
}

/** A seeded booking order, read as the database owner (every tenant's), oldest first. */
export interface SeededOrder {
  id: number
  orderNo: string
  tenant: string
  state: string
  loadType: string
}

export async function seededOrders(t: TestApp): Promise<SeededOrder[]> {
  const { rows } = await sql<SeededOrder>`
    select o.id, o.order_no as "orderNo", t.code as tenant, o.state, o.container_load_type as "loadType"
    from booking_order o join tenant t on t.id = o.tenant_id
    order by o.id`.execute(t.database.db)
  return rows
}

/** A seeded B/L instruction with its order and tenant, read as the database owner, oldest first. */
export interface SeededInstruction {
  id: number
  orderId: number
  orderNo: string
  tenant: string
}

export async function seededInstructions(t: TestApp): Promise<SeededInstruction[]> {
  const { rows } = await sql<SeededInstruction>`
    select b.id, o.id as "orderId", o.order_no as "orderNo", t.code as tenant
    from bl_instruction b join booking_order o on o.id = b."order" join tenant t on t.id = b.tenant_id
    order by b.id`.execute(t.database.db)
  return rows
}

/** An envelope as the business-flow tests read it: code, message, content, and its field errors lifted. */
export interface Envelope {
  code: string
  message: string
  content: Record<string, unknown> & { list?: Record<string, unknown>[]; total?: number }
  /** The envelope's content.fieldErrors, lifted for the assertions. */
  fieldErrors?: { field: string; message: string }[]
}

/**
 * Bearer calls that answer the status and the envelope with its field errors lifted (`call`, the caller's
 * language last), and `ok`, which expects success and answers the content: the bills' and finance tests'.
 */
export function envelopeCalls(t: TestApp) {
  const call = async (
    method: 'GET' | 'POST',
    url: string,
    token: string | null,
    payload?: object,
    language = 'en_US',
  ) => {
    const response = await t.app.inject({
      method,
      url,
      headers: { host: 'localhost', language, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(payload ? { payload } : {}),
    })
    const body = response.json() as Envelope
    const fieldErrors = (body.content?.fieldErrors as Envelope['fieldErrors'])?.map(({ field, message }) => ({
      field,
      message,
    }))
    return { status: response.statusCode, body: { ...body, fieldErrors } }
  }
  const ok = async (method: 'GET' | 'POST', url: string, token: string | null, payload?: object) => {
    const { body } = await call(method, url, token, payload)
    expect(body.code, JSON.stringify(body).slice(0, 400)).toBe('0000')
    return body.content
  }
  return { call, ok }
}

/** A new enterprise administrator of an enterprise of the demo tenant, signed in. */
export async function administratorOf(t: TestApp, companyName: string, username: string): Promise<string> {
  const db = t.database.db
  const tenant = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()
  const user = await db
    .insertInto('app_user')
    .values({
      tenant_id: tenant.id,
      company_id: await idIn(t, 'company', 'name', companyName),
      username,
      real_name: '孙海',
      email: `${username}@haitong-autoparts.example`,
      password_hash: await hashPassword(DEMO_PASSWORD),
      company_user_type: 2,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const role = await idIn(t, 'role', 'code', 'EnterpriseAdministrator')
  await db.insertInto('user_role').values({ tenant_id: tenant.id, user_id: user.id, role_id: role }).execute()
  return t.login(username)
}
