// Plot layouts that follow the workbench theme. Exports always use the light (print) theme,
// so a figure saved from the dark UI drops into a paper unchanged.
export type PlotTheme = 'light' | 'dark';

export const PLOT_COLORS: Record<PlotTheme, { bg: string; fg: string; grid: string; zero: string; lines: string[] }> = {
  light: { bg: '#ffffff', fg: '#1b1f24', grid: '#e1e4e8', zero: '#8c959f', lines: ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000'] },
  dark: { bg: '#0d1117', fg: '#e6edf3', grid: '#30363d', zero: '#6e7681', lines: ['#56b4e9', '#e69f00', '#009e73', '#cc79a7', '#f0e442', '#d55e00', '#ffffff'] },
};

type Layout = Record<string, any>;

/**
 * A log axis labels every tick with its whole value ("0.5", "0.02"): Plotly's own labels name only
 * the leading digit between decades ("…1, 5"), so which 5 it is (0.5 or 5) was unclear. An axis
 * that sets its own tickformat keeps it.
 */
const LOG_TICKFORMAT = '~g';

function axis(theme: PlotTheme, a: Layout | undefined): Layout {
  const c = PLOT_COLORS[theme];
  const log = a?.type === 'log' && a.tickformat === undefined ? { tickformat: LOG_TICKFORMAT } : {};
  return { gridcolor: c.grid, zerolinecolor: c.zero, linecolor: c.zero, automargin: true, ...a, ...log, title: typeof a?.title === 'string' ? { text: a.title } : a?.title };
}

/** Merges theme colours into a layout; the caller's own settings win except colours. */
export function themedLayout(theme: PlotTheme, layout: Layout = {}): Layout {
  const c = PLOT_COLORS[theme];
  const out: Layout = {
    margin: { l: 60, r: 20, t: 36, b: 50 },
    ...layout,
    paper_bgcolor: c.bg,
    plot_bgcolor: c.bg,
    font: { family: 'Helvetica, Arial, sans-serif', size: 12, ...layout.font, color: c.fg },
    colorway: c.lines,
    legend: { bgcolor: 'rgba(0,0,0,0)', ...layout.legend },
  };
  if (typeof layout.title === 'string') out.title = { text: layout.title };
  for (const key of Object.keys(layout)) {
    if (/^[xy]axis\d*$/.test(key)) out[key] = axis(theme, layout[key]);
  }
  if (!('xaxis' in layout)) out.xaxis = axis(theme, undefined);
  if (!('yaxis' in layout)) out.yaxis = axis(theme, undefined);
  return out;
}

/** Error bars in the theme's text colour unless a trace sets one (plotly's default #444 vanishes on the dark background). */
export function themedTraces<T extends Record<string, any>>(theme: PlotTheme, data: T[]): T[] {
  const fg = PLOT_COLORS[theme].fg;
  return data.map((t) => {
    const out: Record<string, any> = { ...t };
    for (const k of ['error_y', 'error_x']) if (t[k] && !t[k].color) out[k] = { ...t[k], color: fg };
    return out as T;
  });
}
