// `npm run bench [-- name…]`: runs bench/*.bench.ts (or the named ones) and writes each
// section into BENCHMARKS.md between its markers, with the machine and the command.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSection } from './harness';

const benchDir = dirname(fileURLToPath(import.meta.url));
const target = join(benchDir, '..', 'BENCHMARKS.md');
const wanted = process.argv.slice(2);
const files = readdirSync(benchDir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.startsWith(name)))
  .sort();

let document = existsSync(target)
  ? readFileSync(target, 'utf8')
  : '# Benchmarks\n\nFigures from `npm run bench` on the machine named in each section. Each section compares Ghostlight with the real alternative in the same process run, so the ratio matters more than the absolute numbers.\n';
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;

for (const file of files) {
  const module = (await import(join(benchDir, file))) as { bench(): Promise<BenchSection> };
  console.log(`\n== ${file}`);
  const section = await module.bench();
  const body = `<!-- bench:${section.key} -->\n## ${section.title}\n\nCommand: \`npm run bench -- ${file.replace('.bench.ts', '')}\` (${machine})\n\n${section.markdown.trim()}\n<!-- /bench:${section.key} -->`;
  console.log(section.markdown);
  const pattern = new RegExp(`<!-- bench:${section.key} -->[\\s\\S]*?<!-- /bench:${section.key} -->`);
  document = pattern.test(document) ? document.replace(pattern, body) : `${document.trimEnd()}\n\n${body}\n`;
}
writeFileSync(target, document.endsWith('\n') ? document : `${document}\n`);
console.log(`\nWrote ${target}`);
