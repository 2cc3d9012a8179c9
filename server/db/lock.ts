import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'

/**
 * PGlite does not lock its data directory, and two processes writing one directory corrupt it.
 * We hold a pid file created with O_EXCL; a file left by a dead process is taken over.
 * (A pid file rather than proper-lockfile's mtime heartbeat: a crashed server's lock is freed at
 * once instead of after a stale timeout, and no timer keeps the event loop busy.)
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Another Waybill server (pid ${pid}) is using the data directory ${dataDir}. ` +
        'Stop it first, or start this one with another DATA_DIR.',
    )
  }
}

export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true })
  const file = join(dataDir, 'waybill.pid')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => rmSync(file, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = Number(readFileSync(file, 'utf8').trim())
      if (holder && holder !== process.pid && isAlive(holder)) throw new DataDirLockedError(dataDir, holder)
      rmSync(file, { force: true })
    }
  }
  throw new Error(`Could not lock ${dataDir}`)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
