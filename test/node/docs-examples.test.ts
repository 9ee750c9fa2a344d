import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/realworld';

/**
 * The TypeScript examples of README.md and docs/*.md, type-checked against the sources.
 *
 * Every ```ts block is written to `.docs-check/` (gitignored) as a module of its own and all of them are
 * checked in one `tsc` run with the repository's `paths`, so `ghostlight/...` resolves as it does in tests. A
 * block must therefore be complete: its imports included, and `declare const model: LanguageModel;` for what
 * the example takes as given. A block that cannot be complete is marked with `<!-- fragment -->` on the line
 * just before its fence and is skipped.
 */

const checkFolder = join(projectRoot, '.docs-check');

/**
 * Errors known to be in a doc this test's author could not change, each to be removed as soon as the doc is fixed
 * (the test fails then too, so the entry cannot outlive the error). Anything else in that doc still fails.
 */
const KNOWN_PROBLEMS: Readonly<Record<string, readonly string[]>> = {};
const FENCE = /^(\s*)```(ts|typescript)\s*$/;
const FRAGMENT = '<!-- fragment -->';

interface Block {
  /** The Markdown file, relative to the repository: `docs/workspace.md`. */
  readonly doc: string;
  /** 1-based among the doc's ```ts blocks (fragments included). */
  readonly index: number;
  /** The line of the opening fence, 1-based. */
  readonly line: number;
  readonly code: string;
  readonly fragment: boolean;
  /** The generated file's name inside `.docs-check/`. */
  readonly file: string;
}

function markdownFiles(): string[] {
  const docs = readdirSync(join(projectRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** The ```ts blocks of one Markdown file (indented fences, as in list items, included). */
function extractBlocks(doc: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let start = 0; start < lines.length; start++) {
    const open = FENCE.exec(lines[start]!);
    if (!open) continue;
    const indent = open[1]!;
    const body: string[] = [];
    let end = start + 1;
    while (end < lines.length && lines[end]!.trim() !== '```') body.push(lines[end++]!);
    if (end === lines.length) throw new Error(`${doc}:${start + 1}: unclosed code block`);
    const index = blocks.length + 1;
    const fragment = start > 0 && lines[start - 1]!.trim() === FRAGMENT;
    const code = body.map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n');
    const stem = doc.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-');
    blocks.push({ doc, index, line: start + 1, code: `${code}\n`, fragment, file: `${stem}.block-${index}.ts` });
    start = end;
  }
  return blocks;
}

/** A tsconfig for `.docs-check/`: the repository's base options, and tsconfig.json's lib, types and paths. */
function checkConfig(): object {
  const repository = JSON.parse(readFileSync(join(projectRoot, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: { lib: string[]; types: string[]; paths: Record<string, string[]> };
  };
  const { lib, types, paths } = repository.compilerOptions;
  const moved = Object.fromEntries(
    Object.entries(paths).map(([specifier, targets]) => [specifier, targets.map((target) => target.replace(/^\.\//, '../'))]),
  );
  return {
    extends: '../tsconfig.base.json',
    compilerOptions: { lib, types, paths: moved, moduleDetection: 'force', noEmit: true },
    include: ['*.ts'],
  };
}

interface Diagnostic {
  readonly file: string | undefined;
  readonly line: number;
  readonly text: string;
}

function typecheck(): Diagnostic[] {
  const result = spawnSync(process.execPath, [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', join(checkFolder, 'tsconfig.json'), '--pretty', 'false'], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  const diagnostics: Diagnostic[] = [];
  for (const line of `${result.stdout}${result.stderr}`.split('\n')) {
    const located = /^(.+?)\((\d+),\d+\): (error TS\d+: .*)$/.exec(line);
    if (located) diagnostics.push({ file: join(projectRoot, located[1]!), line: Number(located[2]), text: located[3]! });
    else if (/error TS\d+/.test(line)) diagnostics.push({ file: undefined, line: 0, text: line.trim() });
  }
  if (result.status !== 0 && diagnostics.length === 0) diagnostics.push({ file: undefined, line: 0, text: `tsc exited ${result.status}: ${result.stderr}` });
  return diagnostics;
}

const docs = markdownFiles();
const blocks = docs.flatMap((doc) => extractBlocks(doc, readFileSync(join(projectRoot, doc), 'utf8')));
let diagnostics: Diagnostic[] = [];

describe('the TypeScript examples in README.md and docs/', () => {
  beforeAll(() => {
    rmSync(checkFolder, { recursive: true, force: true });
    mkdirSync(checkFolder, { recursive: true });
    writeFileSync(join(checkFolder, 'tsconfig.json'), `${JSON.stringify(checkConfig(), null, 2)}\n`);
    writeFileSync(join(checkFolder, 'README.md'), 'Generated by test/node/docs-examples.test.ts from the ```ts blocks of README.md and docs/*.md.\n');
    for (const block of blocks) {
      if (!block.fragment) writeFileSync(join(checkFolder, block.file), `// ${block.doc}, block ${block.index} (line ${block.line})\n${block.code}`);
    }
    diagnostics = typecheck();
  }, 60_000);

  it('finds the blocks, and marks only a few as fragments', () => {
    expect(blocks.filter((block) => !block.fragment).length).toBeGreaterThan(20);
    expect(blocks.filter((block) => block.fragment).length).toBeLessThanOrEqual(blocks.length / 4);
  });

  // Errors located in other files (src/) are `npm run typecheck`'s to report; errors with no file are the configuration's.
  it('tsc reports no error without a location (the generated configuration works)', () => {
    expect(diagnostics.filter((diagnostic) => diagnostic.file === undefined).map((diagnostic) => diagnostic.text)).toEqual([]);
  });

  for (const doc of docs) {
    it(`${doc}: every \`\`\`ts block type-checks`, () => {
      const problems: string[] = [];
      for (const block of blocks.filter((candidate) => candidate.doc === doc && !candidate.fragment)) {
        const path = join(checkFolder, block.file);
        for (const diagnostic of diagnostics.filter((candidate) => candidate.file === path)) {
          // The generated file has one header line before the block's first line, which is the fence's next line.
          problems.push(`${doc} block ${block.index} (line ${block.line + diagnostic.line - 1}): ${diagnostic.text}`);
        }
      }
      // tsc reports no type errors at all while any file has a syntax error (TS1xxx): fix those first.
      const syntax = diagnostics.some((diagnostic) => /^error TS1\d{3}:/.test(diagnostic.text)) ? '; syntax errors hide type errors' : '';
      const message = `type errors in the examples of ${doc} (generated files in ${relative(projectRoot, checkFolder)}/${syntax})`;
      const known = KNOWN_PROBLEMS[doc];
      if (!known) expect(problems, message).toEqual([]);
      // Known problems are compared without line numbers, so that editing the doc elsewhere does not break the test.
      else expect(problems.map((problem) => problem.replace(/ \(line \d+\)/, '')), `${message}; once fixed, remove the doc from KNOWN_PROBLEMS`).toEqual(known);
    });
  }
});
