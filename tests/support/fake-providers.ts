import { createHash, createHmac } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Loopback servers that speak the providers' APIs as documented, written from the documentation and not
 * from our adapters: Tencent Cloud SMS checks the TC3-HMAC-SHA256 signature against the secret keys it
 * knows and answers SendStatusSet; WeChat hands out access tokens and accepts template messages for them.
 * Each records what arrived; `script` lets a test make the next answers fail.
 */

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

export interface ArrivedSms {
  secretId: string
  body: {
    PhoneNumberSet: string[]
    SmsSdkAppId: string
    SignName: string
    TemplateId: string
    TemplateParamSet: string[]
  }
}

export interface FakeTencentSms {
  url: string
  arrived: ArrivedSms[]
  /** Answers for the next requests, in order: an HTTP status, or a per-number error code. */
  script: ({ status: number } | { code: string; message: string })[]
  refused: string[]
  close(): Promise<void>
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')
const hmac = (k: string | Buffer, s: string) => createHmac('sha256', k).update(s).digest()

/** `keys`: SecretId → SecretKey the fake account holds. */
export async function fakeTencentSms(keys: Record<string, string>): Promise<FakeTencentSms> {
  const fake: FakeTencentSms = { url: '', arrived: [], script: [], refused: [], close: async () => {} }
  const server = createServer(async (request, response) => {
    const payload = await readBody(request)
    const answer = (body: unknown, status = 200) => {
      response.writeHead(status, { 'Content-Type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    const error = (Code: string, Message: string) => {
      fake.refused.push(Code)
      answer({ Response: { Error: { Code, Message }, RequestId: 'fake-request' } })
    }
    const auth = String(request.headers.authorization ?? '')
    const match =
      /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/sms\/tc3_request, SignedHeaders=content-type;host, Signature=([0-9a-f]{64})$/.exec(
        auth,
      )
    if (request.method !== 'POST' || request.url !== '/') return error('UnsupportedOperation', 'POST / only')
    if (request.headers['x-tc-action'] !== 'SendSms' || request.headers['x-tc-version'] !== '2021-01-11')
      return error('InvalidAction', 'SendSms 2021-01-11 only')
    if (!match) return error('AuthFailure.InvalidAuthorization', 'Authorization malformed')
    const [, secretId, date, signature] = match
    const secretKey = keys[secretId as string]
    if (!secretKey) return error('AuthFailure.SecretIdNotFound', 'unknown SecretId')
    const timestamp = String(request.headers['x-tc-timestamp'])
    if (new Date(Number(timestamp) * 1000).toISOString().slice(0, 10) !== date)
      return error('AuthFailure.InvalidAuthorization', 'date does not match timestamp')
    const canonical = [
      'POST',
      '/',
      '',
      `content-type:${request.headers['content-type']}\nhost:${request.headers.host}\n`,
      'content-type;host',
      sha256(payload),
    ].join('\n')
    const toSign = ['TC3-HMAC-SHA256', timestamp, `${date}/sms/tc3_request`, sha256(canonical)].join('\n')
    const key = hmac(hmac(hmac(`TC3${secretKey}`, date as string), 'sms'), 'tc3_request')
    if (createHmac('sha256', key).update(toSign).digest('hex') !== signature)
      return error('AuthFailure.SignatureFailure', 'The provided credentials could not be validated.')
    const next = fake.script.shift()
    if (next && 'status' in next) {
      response.writeHead(next.status)
      return response.end('upstream unavailable')
    }
    const body = JSON.parse(payload) as ArrivedSms['body']
    if (next) {
      fake.refused.push(next.code)
      return answer({
        Response: {
          SendStatusSet: [
            {
              SerialNo: '',
              PhoneNumber: body.PhoneNumberSet[0],
              Fee: 0,
              Code: next.code,
              Message: next.message,
              IsoCode: 'CN',
            },
          ],
          RequestId: 'fake-request',
        },
      })
    }
    fake.arrived.push({ secretId: secretId as string, body })
    answer({
      Response: {
        SendStatusSet: [
          {
            SerialNo: `2640:${fake.arrived.length}`,
            PhoneNumber: body.PhoneNumberSet[0],
            Fee: 1,
            SessionContext: '',
            Code: 'Ok',
            Message: 'send success',
            IsoCode: 'CN',
          },
        ],
        RequestId: 'fake-request',
      },
    })
  })
  fake.url = await listen(server)
  fake.close = () => new Promise((resolve) => server.close(() => resolve()))
  return fake
}

export interface ArrivedTemplate {
  appId: string
  body: { touser: string; template_id: string; url?: string; data: Record<string, { value: string }> }
}

export interface FakeWechat {
  url: string
  arrived: ArrivedTemplate[]
  tokenRequests: string[]
  /** openids that follow the account; any other gets 43004. */
  followers: Set<string>
  templates: Set<string>
  /** Answers for the next template sends: an errcode, or an HTTP status. */
  script: ({ errcode: number; errmsg: string } | { status: number })[]
  /** Expires every token handed out so far (the platform's 42001 on their next use). */
  expireTokens(): void
  close(): Promise<void>
}

/** `accounts`: appid → secret. */
export async function fakeWechat(accounts: Record<string, string>): Promise<FakeWechat> {
  const live = new Map<string, string>() // token → appid
  let issued = 0
  const fake: FakeWechat = {
    url: '',
    arrived: [],
    tokenRequests: [],
    followers: new Set(),
    templates: new Set(),
    script: [],
    expireTokens: () => live.clear(),
    close: async () => {},
  }
  const server = createServer(async (request, response) => {
    const url = new URL(String(request.url), 'http://fake')
    const answer = (body: unknown) => {
      response.writeHead(200, { 'Content-Type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    if (request.method === 'GET' && url.pathname === '/cgi-bin/token') {
      const appid = String(url.searchParams.get('appid'))
      fake.tokenRequests.push(appid)
      if (url.searchParams.get('grant_type') !== 'client_credential')
        return answer({ errcode: 40002, errmsg: 'invalid grant_type' })
      if (!(appid in accounts)) return answer({ errcode: 40013, errmsg: 'invalid appid' })
      if (accounts[appid] !== url.searchParams.get('secret'))
        return answer({ errcode: 40125, errmsg: 'invalid appsecret' })
      issued += 1
      const token = `TOKEN_${appid}_${issued}`
      live.set(token, appid)
      return answer({ access_token: token, expires_in: 7200 })
    }
    if (request.method === 'POST' && url.pathname === '/cgi-bin/message/template/send') {
      const body = JSON.parse(await readBody(request)) as ArrivedTemplate['body']
      const token = String(url.searchParams.get('access_token'))
      const appId = live.get(token)
      if (!appId)
        return answer(
          token.startsWith('TOKEN_')
            ? { errcode: 42001, errmsg: 'access_token expired' }
            : { errcode: 40001, errmsg: 'invalid credential, access_token is invalid or not latest' },
        )
      const next = fake.script.shift()
      if (next && 'status' in next) {
        response.writeHead(next.status)
        return response.end()
      }
      if (next) return answer(next)
      if (!fake.templates.has(body.template_id)) return answer({ errcode: 40037, errmsg: 'invalid template_id' })
      if (!fake.followers.has(body.touser)) return answer({ errcode: 43004, errmsg: 'require subscribe' })
      fake.arrived.push({ appId, body })
      return answer({ errcode: 0, errmsg: 'ok', msgid: 200228332 + fake.arrived.length })
    }
    response.writeHead(404)
    response.end()
  })
  fake.url = await listen(server)
  fake.close = () => new Promise((resolve) => server.close(() => resolve()))
  return fake
}
