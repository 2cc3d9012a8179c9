import type { Manifest } from '../model/resolve.ts'

/** The route table's progress: built vs planned, per area, and the planned routes. Last line: routes built: N/M. */
export function coverageReport(manifest: Manifest): string {
  const lines: string[] = []
  const areas = new Map<string, { built: number; total: number }>()
  for (const screen of manifest.screens) {
    const a = areas.get(screen.area) ?? { built: 0, total: 0 }
    a.total++
    if (screen.status === 'built') a.built++
    areas.set(screen.area, a)
  }
  const width = Math.max(...[...areas.keys()].map((k) => k.length), 4)
  lines.push(`${'area'.padEnd(width)}  built / total`)
  for (const [area, { built, total }] of [...areas.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`${area.padEnd(width)}  ${String(built).padStart(5)} / ${total}`)
  }
  const planned = manifest.screens.filter((s) => s.status === 'planned')
  lines.push('', `planned (${planned.length}):`)
  for (const s of planned) lines.push(`  ${s.route.padEnd(40)} ${s.area}`)
  const built = manifest.screens.length - planned.length
  lines.push('', `routes built: ${built}/${manifest.screens.length}`)
  return lines.join('\n')
}
