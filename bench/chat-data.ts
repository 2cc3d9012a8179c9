import { type Kysely, sql } from 'kysely'
import { hashSecret, newSecret } from '../server/auth/tokens.ts'

/**
 * The chat bench's people (bench/chat.ts): in the demo tenant, `customers` enterprise users made like entadmin
 * (its company and roles) and `operators` customer-service staff made like opcs (the chat desk), each with a
 * signed-in session, and one conversation per customer, assigned round robin to the operators. Written in bulk
 * by SQL on the owner's connection — the rows the sign-in and the open call would write, without a thousand of
 * each call — so the setup takes seconds.
 */

export interface ChatPerson {
  userId: number
  /** The session token (the b2b_token cookie). */
  token: string
}
export interface ChatCustomer extends ChatPerson {
  conversationId: number
  /** The index in `operators` of the conversation's operator. */
  operator: number
}
export interface ChatPeople {
  tenantId: number
  customers: ChatCustomer[]
  operators: ChatPerson[]
}

type Dynamic = Kysely<Record<string, Record<string, unknown>>>

export async function makeChatPeople(db: Kysely<never>, counts: { customers: number; operators: number }) {
  const dyn = db as unknown as Dynamic
  const { rows: tenants } = await sql<{ id: number }>`select id from tenant where code = 'demo'`.execute(db)
  const tenantId = tenants[0]?.id as number
  const copy = async (template: string, prefix: string, label: string, count: number) => {
    await sql`
      insert into app_user (tenant_id, company_id, username, real_name, password_hash, company_user_type, state)
      select tenant_id, company_id, ${prefix} || lpad(g::text, 4, '0'), ${label} || ' ' || g, password_hash,
        company_user_type, state
      from app_user, generate_series(1, ${count}::int) g where tenant_id = ${tenantId} and username = ${template}`.execute(
      db,
    )
    await sql`
      insert into user_role (tenant_id, user_id, role_id)
      select u.tenant_id, u.id, r.role_id from app_user u
      join user_role r on r.user_id = (select id from app_user where tenant_id = ${tenantId} and username = ${template})
      where u.tenant_id = ${tenantId} and u.username like ${`${prefix}%`}`.execute(db)
    const { rows } = await sql<{ id: number; company_id: number | null }>`
      select id, company_id from app_user where tenant_id = ${tenantId} and username like ${`${prefix}%`}
      order by username`.execute(db)
    const people = rows.map((row) => ({ userId: row.id, companyId: row.company_id, token: newSecret() }))
    await dyn
      .insertInto('session')
      .values(
        people.map((p) => ({
          tenant_id: tenantId,
          user_id: p.userId,
          token_hash: hashSecret(p.token),
          expires_at: sql`now() + interval '1 day'`,
          user_agent: 'bench/chat.ts',
        })),
      )
      .execute()
    return people
  }
  const operators = await copy('opcs', 'chatop', 'Chat operator', counts.operators)
  const customers = await copy('entadmin', 'chatcu', 'Chat customer', counts.customers)
  const at = new Date()
  const inserted = await dyn
    .insertInto('im_conversation')
    .values(
      customers.map((c, i) => ({
        tenant_id: tenantId,
        customer: c.userId,
        customer_company: c.companyId,
        context_type: 'none',
        context_ref: '',
        open_key: `${c.userId}:none:`,
        state: 2,
        operator: operators[i % operators.length]?.userId,
        tags: JSON.stringify([]),
        customer_unread: 0,
        operator_unread: 0,
        created_by: c.userId,
        created_at: at,
        updated_at: at,
      })),
    )
    .returning(['id', 'customer'])
    .execute()
  const conversationOf = new Map(inserted.map((row) => [row.customer as number, row.id as number]))
  return {
    tenantId,
    operators: operators.map(({ userId, token }) => ({ userId, token })),
    customers: customers.map(({ userId, token }, i) => ({
      userId,
      token,
      conversationId: conversationOf.get(userId) as number,
      operator: i % operators.length,
    })),
  } satisfies ChatPeople
}
