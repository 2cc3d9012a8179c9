import { registerChannel } from './channels.ts'
import { createMailChannel } from './mail/channel.ts'

/** Registers the channels this folder implements (mail); other modules register theirs (sms, wechat). */
export function registerBuiltInChannels(): void {
  registerChannel('mail', createMailChannel())
}
