import { beforeAll, describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'

/**
 * Chat attachments (issue #27 "attachments through the existing uploads"): a file sent in a conversation is read
 * by that conversation's customer and the tenant's operators, and by nobody else — not a colleague of the same
 * enterprise, not another customer, never another tenant. Uploads keep imMessage.attachment's limits.
 */
const test = setupTestApp()
const { answer, ok, get, upload } = bearerCalls(test)
const ACME = { host: 'acme.localhost' }
const ATTACHMENT = '/api/b2b/file/upload?entity=imMessage&field=attachment'

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(64, 1),
])

let entadmin: string
let entop: string
let personal: string
let opcs: string
let acmeAdmin: string
beforeAll(async () => {
  ;[entadmin, entop, personal, opcs, acmeAdmin] = await Promise.all([
    test.login('entadmin'),
    test.login('entop'),
    test.login('personal'),
    test.login('opcs'),
    test.login('entadmin', 'acme.localhost'),
  ])
})

async function stored(token: string, name: string, bytes: Buffer): Promise<{ uuid: string; name: string }> {
  const response = await upload(ATTACHMENT, token, { name, bytes })
  const body = response.json()
  expect(body.code, JSON.stringify(body).slice(0, 300)).toBe('0000')
  return body.content
}
const download = (token: string, uuid: string, options?: { host: string }) =>
  get(`/api/b2b/file/download?uuid=${uuid}`, token, options)
const send = (token: string, body: object) => ok('POST', '/api/b2b/im/message/send', token, body)

describe('an attachment sent in a conversation', () => {
  it("reaches the conversation's customer and nobody else", async () => {
    const { conversationId } = await ok('POST', '/api/b2b/im/open', entadmin, {
      contextType: 'order',
      contextRef: 'HY-ATTACH',
      customMessage: 'Please send the booking confirmation',
    })
    const file = await stored(opcs, 'booking confirmation.pdf', PDF)
    // Uploaded but not yet sent: the customer cannot read it.
    expect((await download(entadmin, file.uuid)).statusCode).toBe(404)

    const sent = await send(opcs, { conversation: conversationId, attachment: file.uuid })
    expect(sent).toMatchObject({
      text: '',
      attachment: file.uuid,
      attachmentName: 'booking confirmation.pdf',
      attachmentType: 'application/pdf',
      attachmentSize: PDF.length,
    })
    const seen = await ok('POST', '/api/b2b/im/message/history', entadmin, { conversationId })
    expect(seen.list[0]).toMatchObject({ attachment: file.uuid, attachmentName: 'booking confirmation.pdf' })

    const got = await download(entadmin, file.uuid)
    expect(got.statusCode).toBe(200)
    expect(got.headers['content-type']).toBe('application/pdf')
    expect(got.headers['content-disposition']).toMatch(/^attachment; filename="booking confirmation.pdf"/)
    expect(Buffer.compare(got.rawPayload, PDF)).toBe(0)
    const info = await ok('GET', `/api/b2b/file/info?uuids=${file.uuid}`, entadmin)
    expect(info.list.map((f: { name: string }) => f.name)).toEqual(['booking confirmation.pdf'])

    // A colleague of the same enterprise and another customer are other customers: not found, and not listed.
    for (const other of [entop, personal]) {
      const refused = await download(other, file.uuid)
      expect(refused.statusCode).toBe(404)
      expect(refused.json().code).toBe('404')
      expect((await ok('GET', `/api/b2b/file/info?uuids=${file.uuid}`, other)).list).toEqual([])
    }
    // Another tenant never.
    expect((await download(acmeAdmin, file.uuid, ACME)).statusCode).toBe(404)
  })

  it("a customer's attachment reaches the operators, not the customer's colleagues", async () => {
    const { conversationId } = await ok('POST', '/api/b2b/im/open', entadmin, {
      contextType: 'order',
      contextRef: 'HY-ATTACH-2',
    })
    const picture = await stored(entadmin, 'damaged carton.png', PNG)
    const sent = await send(entadmin, {
      conversation: conversationId,
      text: 'See the carton',
      attachment: picture.uuid,
    })
    expect(sent).toMatchObject({ text: 'See the carton', attachmentType: 'image/png' })
    const got = await download(opcs, picture.uuid)
    expect(got.statusCode).toBe(200)
    expect(Buffer.compare(got.rawPayload, PNG)).toBe(0)
    expect((await download(entop, picture.uuid)).statusCode).toBe(404)
  })

  it("takes only the chat field's own uploads that the sender may read", async () => {
    const { conversationId } = await ok('POST', '/api/b2b/im/open', entadmin, {
      contextType: 'order',
      contextRef: 'HY-ATTACH-3',
    })
    // A file uploaded for another field keeps that field's limits: not an attachment.
    const avatar = await upload('/api/b2b/file/upload?entity=userProfile&field=avatar', entadmin, {
      name: 'me.png',
      bytes: PNG,
    })
    const avatarId = avatar.json().content.uuid
    // Another customer's upload, and a text that is no file id at all.
    const theirs = await stored(entop, 'theirs.pdf', PDF)
    for (const attachment of [avatarId, theirs.uuid, 'not-a-file-id']) {
      const refused = await answer(
        'POST',
        '/api/b2b/im/message/send',
        entadmin,
        { conversation: conversationId, attachment },
        { language: 'zh_CN' },
      )
      expect(refused.code).toBe('validation')
      expect(refused.content.fieldErrors[0]).toMatchObject({ field: 'attachment', message: '文件编号不正确' })
    }
    // Refused, so nothing was granted: the colleague's file stays theirs.
    expect((await download(entadmin, theirs.uuid)).statusCode).toBe(404)
  })

  it("refuses a file too large or of a type the field does not take, in the caller's language", async () => {
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024, 7)])
    const tooBig = await upload(ATTACHMENT, entadmin, { name: 'scan.pdf', bytes: big }, { language: 'ja_JP' })
    expect(tooBig.statusCode).toBe(413)
    expect(tooBig.json().message).toBe('ファイルが大きすぎます：scan.pdf は 5 MB を超えています')
    const script = await upload(
      ATTACHMENT,
      entadmin,
      { name: 'invoice.pdf', bytes: Buffer.from('<script>alert(1)</script>') },
      { language: 'es_ES' },
    )
    expect(script.statusCode).toBe(400)
    expect(script.json().message).toBe(
      'invoice.pdf: solo se pueden subir pdf, png, jpg, jpeg, gif, xls, xlsx, doc, docx',
    )
  })
})
