import type { ImConversationRow, ImMessageRow } from '../../../generated/content.ts'

/**
 * The chat's WebSocket (screens/chat.yaml imSocket, server/realtime/chatHub.ts): one per tab, shared by the
 * chat page and the top bar's unread badge. Signed in by the session cookie; reopened with a growing wait
 * (0.5 s doubling to 15 s) after a drop, and every listener told so it can resume from the last id it saw.
 */

/** Frames the server sends (chatHub.ts). */
export type ChatFrame =
  | { type: 'message'; message: ImMessageRow; conversation: ImConversationRow }
  | { type: 'delivered'; conversationId: number; messageId: number }
  | { type: 'read'; conversationId: number; upTo: number; side: number }
  | { type: 'assigned' | 'closed'; conversation: ImConversationRow }
  | { type: 'unread'; unread: number }
  | { type: 'ack'; ref: string | null; id?: number }
  | { type: 'error'; ref: string | null; code: string; message: string }
  | { type: 'resume'; ref: string | null; conversationId: number; list: ImMessageRow[]; hasMore: boolean }

type Listener = (frame: ChatFrame) => void
type OpenListener = () => void

const SOCKET_PATH = '/api/b2b/im/socket'
const FIRST_WAIT_MS = 500
const LONGEST_WAIT_MS = 15_000

class ChatSocket {
  private socket: WebSocket | null = null
  private readonly listeners = new Set<Listener>()
  private readonly openListeners = new Set<OpenListener>()
  private wait = FIRST_WAIT_MS
  private timer: ReturnType<typeof setTimeout> | undefined
  connected = false

  /** Listens to frames (and to each (re)opening); opens the socket with the first listener, closes it with the last. */
  subscribe(listener: Listener, onOpen?: OpenListener): () => void {
    this.listeners.add(listener)
    if (onOpen) this.openListeners.add(onOpen)
    this.connect()
    return () => {
      this.listeners.delete(listener)
      if (onOpen) this.openListeners.delete(onOpen)
      if (!this.listeners.size) this.disconnect()
    }
  }

  send(frame: object): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false
    this.socket.send(JSON.stringify(frame))
    return true
  }

  private connect(): void {
    if (this.socket || this.timer) return
    const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${SOCKET_PATH}`
    const socket = new WebSocket(url)
    this.socket = socket
    socket.onopen = () => {
      this.wait = FIRST_WAIT_MS
      this.connected = true
      for (const listener of this.openListeners) listener()
    }
    socket.onmessage = (event) => {
      let frame: ChatFrame
      try {
        frame = JSON.parse(String(event.data)) as ChatFrame
      } catch {
        return
      }
      for (const listener of this.listeners) listener(frame)
    }
    socket.onclose = () => {
      this.socket = null
      this.connected = false
      if (!this.listeners.size) return
      // Another try after a growing wait; the page's listeners resume when it opens.
      this.timer = setTimeout(() => {
        this.timer = undefined
        this.connect()
      }, this.wait)
      this.wait = Math.min(this.wait * 2, LONGEST_WAIT_MS)
    }
  }

  private disconnect(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    const socket = this.socket
    this.socket = null
    this.connected = false
    if (socket) {
      socket.onclose = null
      socket.close()
    }
  }
}

export const chatSocket = new ChatSocket()
