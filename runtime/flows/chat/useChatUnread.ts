import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useClient } from '../../client.tsx'
import { chatSocket } from './socket.ts'

const UNREAD_KEY = ['imUnread'] as const

/**
 * The signed-in user's unread chat messages (the top bar's badge): asked once (imUnreadCount), then kept by
 * the chat socket's `unread` frames, and asked again whenever the window gets focus (a socket that was away).
 */
export function useChatUnread(): number {
  const client = useClient()
  const queryClient = useQueryClient()
  const unread = useQuery({
    queryKey: UNREAD_KEY,
    queryFn: async ({ signal }) => (await client.b2b.imUnreadCount({}, signal)).content.unread,
    refetchOnWindowFocus: 'always',
  })
  useEffect(
    () =>
      chatSocket.subscribe((frame) => {
        if (frame.type === 'unread') queryClient.setQueryData(UNREAD_KEY, frame.unread)
      }),
    [queryClient],
  )
  return unread.data ?? 0
}
