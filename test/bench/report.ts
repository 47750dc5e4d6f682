// The two outputs of `npm run bench`: one JSON object per benchmark (the field names, plus
// `bench` and each goal's verdict), or a readable table with the ratios next to the goals.
import type { BenchOptions, BenchResult } from './harness';

export function toJsonLine(result: BenchResult): string {
  return JSON.stringify({
    bench: result.bench,
    ...result.fields,
    goals_met: result.goals.filter((goal) => goal.pass).length,
    goals_total: result.goals.length,
  });
}

export function formatHeader(options: BenchOptions): string {
  return `Kubetide benchmarks: ${options.pods} pods, ${options.events} watch events\n\n`;
}

/** One benchmark's section of the table: its fields, then PASS or MISS for each of its goals. */
export function formatSection(result: BenchResult): string {
  const lines: string[] = [`## ${result.bench}`];
  const width = Math.max(...Object.keys(result.fields).map((name) => name.length));
  for (const [name, value] of Object.entries(result.fields))
    lines.push(`  ${name.padEnd(width)}  ${String(value)}`);
  for (const goal of result.goals)
    lines.push(`  ${goal.pass ? 'PASS' : 'MISS'}  ${goal.goal.padEnd(52)} measured ${goal.measured}`);
  for (const note of result.notes ?? []) lines.push(`  note: ${note}`);
  return `${lines.join('\n')}\n\n`;
}
