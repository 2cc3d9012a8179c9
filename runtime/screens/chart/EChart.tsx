import { BarChart, LineChart, PieChart } from 'echarts/charts'
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components'
import * as echarts from 'echarts/core'
import { SVGRenderer } from 'echarts/renderers'
import { useEffect, useRef } from 'react'
import type { ChartDef } from '../../../model/chart.ts'

/*
 * Apache ECharts, tree-shaken to what a chart screen draws (issue #28): line, bar and pie, their grid, legend,
 * tooltip and the aria component (the description a screen reader reads, and decal patterns so series differ by
 * more than colour), drawn as SVG. Only this module imports echarts, and ChartScreen loads it lazily: no other
 * page of the portal carries it.
 */
echarts.use([
  BarChart,
  LineChart,
  PieChart,
  AriaComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  SVGRenderer,
])

/** Line symbols, one per series in turn, so a line is told by its marks as well as by its colour. */
const SYMBOLS = ['circle', 'rect', 'triangle', 'diamond', 'pin', 'arrow', 'roundRect'] as const

export interface EChartProps {
  type: ChartDef['type']
  /** Along the axis: the days, or a grouped chart's categories (their labels). */
  points: string[]
  /** The points are a grouped chart's categories (a pie then shares them out), not days. */
  grouped: boolean
  series: { key: string; label: string; values: number[]; total: number }[]
  /** The chart's name for a screen reader. */
  title: string
}

export default function EChart({ type, points, grouped, series, title }: EChartProps) {
  const element = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const host = element.current
    if (!host) return
    const chart = echarts.init(host, undefined, { renderer: 'svg' })
    const common = {
      aria: { enabled: true, label: { description: title }, decal: { show: true } },
      tooltip: { trigger: type === 'pie' ? ('item' as const) : ('axis' as const) },
      legend: { type: 'scroll' as const, top: 0 },
    }
    chart.setOption(
      type === 'pie'
        ? {
            ...common,
            series: [
              {
                type: 'pie',
                radius: ['35%', '65%'],
                // A grouped chart's pie: the first series' share per category; else each series' total.
                data:
                  grouped && series.length === 1
                    ? points.map((name, i) => ({ name, value: series[0]?.values[i] ?? 0 }))
                    : series.map((s) => ({ name: s.label, value: s.total })),
              },
            ],
          }
        : {
            ...common,
            grid: { left: 48, right: 24, top: 40, bottom: 32 },
            xAxis: { type: 'category', data: points, axisLabel: { hideOverlap: true } },
            yAxis: { type: 'value' },
            series: series.map((s, i) => ({
              name: s.label,
              type,
              data: s.values,
              ...(type === 'line' ? { symbol: SYMBOLS[i % SYMBOLS.length], symbolSize: 7 } : {}),
            })),
          },
    )
    const resize = () => chart.resize()
    window.addEventListener('resize', resize)
    return () => {
      window.removeEventListener('resize', resize)
      chart.dispose()
    }
  }, [type, points, grouped, series, title])
  return <div ref={element} data-testid="chart" style={{ width: '100%', height: 360 }} />
}
