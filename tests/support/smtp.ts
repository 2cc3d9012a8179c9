import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  messageId: string
  to: string
  subject: string
  text: string
  html: string
  parsed: ParsedMail
}

export interface TestSmtp {
  url: string
  port: number
  received: ReceivedMail[]
  /** Connections refused or rejected so far. */
  refusals: number
  close(): Promise<void>
}

/**
 * A real SMTP server on a loopback port in the test process (the `smtp-server` package); every mail it
 * accepts is parsed with mailparser. `refuse` answers every recipient with that SMTP reply instead
 * (e.g. 451 for a mailbox that is busy, 550 for one that does not exist).
 */
export async function startSmtp(options: { refuse?: { code: number; message: string } } = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = []
  const state = { refusals: 0 }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    onRcptTo(_address, _session, callback) {
      if (!options.refuse) return callback()
      state.refusals++
      const error = new Error(options.refuse.message) as Error & { responseCode: number }
      error.responseCode = options.refuse.code
      callback(error)
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            messageId: parsed.messageId ?? '',
            to: Array.isArray(parsed.to) ? (parsed.to[0]?.text ?? '') : (parsed.to?.text ?? ''),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            parsed,
          })
          callback()
        })
        .catch(callback)
    },
  })
  // A client killed mid-session (the crash tests' SIGKILL) resets its connection: smtp-server reports that as an
  // 'error' event, which without a listener is an uncaught exception in the test's process.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as { port: number }).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    get refusals() {
      return state.refusals
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
