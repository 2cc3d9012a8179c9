import { promisify } from 'node:util'
import { inflateRaw } from 'node:zlib'

/**
 * An xlsx is a ZIP: a small file can unpack to gigabytes (a "zip bomb"), and the worker's heap limit does not
 * hold the buffers that unpacking makes. So an archive is measured before the workbook reader sees it: its
 * central directory must name few enough members whose sizes add up to no more than the limit, and each member
 * must really unpack to the size it declares — checked by unpacking it with zlib's output bound, on the thread
 * pool, so a member that lies stops at its declared size instead of filling memory.
 */

export interface ArchiveMember {
  name: string
  method: number
  compressedSize: number
  size: number
  localOffset: number
}

export interface ArchiveLimits {
  maxUnpackedBytes: number
  maxArchiveMembers: number
}

export type ArchiveVerdict = 'ok' | 'tooLarge' | 'damaged'

const END_OF_DIRECTORY = 0x06054b50
const DIRECTORY_ENTRY = 0x02014b50
const LOCAL_HEADER = 0x04034b50
/** A ZIP64 archive marks its sizes so; an import has no business being one. */
const ZIP64_MARK = 0xffffffff

const inflate = promisify(inflateRaw) as (buffer: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>

/** The members the central directory names, or null when there is no readable directory. */
export function archiveMembers(bytes: Uint8Array): ArchiveMember[] | null {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  // The end record is the last 22 bytes, or up to 64 KiB earlier when the archive carries a comment.
  let end = -1
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 0xffff); at--) {
    if (data.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at
      break
    }
  }
  if (end < 0) return null
  const count = data.readUInt16LE(end + 10)
  let at = data.readUInt32LE(end + 16)
  const members: ArchiveMember[] = []
  for (let i = 0; i < count; i++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== DIRECTORY_ENTRY) return null
    const nameLength = data.readUInt16LE(at + 28)
    const extraLength = data.readUInt16LE(at + 30)
    const commentLength = data.readUInt16LE(at + 32)
    members.push({
      method: data.readUInt16LE(at + 10),
      compressedSize: data.readUInt32LE(at + 20),
      size: data.readUInt32LE(at + 24),
      localOffset: data.readUInt32LE(at + 42),
      name: data.toString('utf8', at + 46, Math.min(data.length, at + 46 + nameLength)),
    })
    at += 46 + nameLength + extraLength + commentLength
  }
  return members
}

/** Whether the archive unpacks within the limits, measured without ever unpacking more than they allow. */
export async function checkArchive(bytes: Uint8Array, limits: ArchiveLimits): Promise<ArchiveVerdict> {
  const members = archiveMembers(bytes)
  if (!members) return 'damaged'
  if (members.length > limits.maxArchiveMembers) return 'tooLarge'
  if (members.some((m) => m.size === ZIP64_MARK || m.compressedSize === ZIP64_MARK)) return 'tooLarge'
  const declared = members.reduce((sum, member) => sum + member.size, 0)
  if (declared > limits.maxUnpackedBytes) return 'tooLarge'
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  for (const member of members) {
    const header = member.localOffset
    if (header + 30 > data.length || data.readUInt32LE(header) !== LOCAL_HEADER) return 'damaged'
    const start = header + 30 + data.readUInt16LE(header + 26) + data.readUInt16LE(header + 28)
    const packed = data.subarray(start, start + member.compressedSize)
    if (packed.length !== member.compressedSize) return 'damaged'
    if (member.method === 0) {
      if (member.compressedSize !== member.size) return 'damaged'
      continue
    }
    if (member.method !== 8) return 'damaged'
    try {
      // One byte more than declared is enough to catch a member that lies about its size.
      const unpacked = await inflate(packed, { maxOutputLength: member.size + 1 })
      if (unpacked.length !== member.size) return 'damaged'
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? 'tooLarge' : 'damaged'
    }
  }
  return 'ok'
}
