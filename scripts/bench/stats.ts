/** Percentiles and the small formatting helpers the bench prints with. */

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export interface Summary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1);
  return { n: sorted.length, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), mean };
}

export const ms = (v: number) => `${v.toFixed(2)} ms`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/** One goal of issue 15 as the bench judged it. */
export interface Goal {
  name: string;
  figure: string;
  met: boolean;
}

export function table(rows: (string | number)[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join("  "))
    .join("\n");
}
