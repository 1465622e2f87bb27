// plotly.js-dist-min ships no types; this declares only what the workbench uses.
declare module 'plotly.js-dist-min' {
  export type Datum = number | string | null;
  export interface Figure {
    data: Record<string, unknown>[];
    layout?: Record<string, unknown>;
  }
  export interface ToImageOptions {
    format: 'png' | 'svg' | 'jpeg' | 'webp';
    width: number;
    height: number;
    scale?: number;
  }
  export interface PlotlyStatic {
    react(el: HTMLElement, data: Record<string, unknown>[], layout?: Record<string, unknown>, config?: Record<string, unknown>): Promise<HTMLElement>;
    purge(el: HTMLElement): void;
    toImage(figure: HTMLElement | Figure, opts: ToImageOptions): Promise<string>;
    Plots: { resize(el: HTMLElement): Promise<void> | void };
  }
  const Plotly: PlotlyStatic;
  export default Plotly;
}
