import { defineTool, defaultCodeEngine } from '../src/index';
import { CodeProgram } from '../src/codemode/code-program';
import { CodeCatalog } from '../src/codemode/code-catalog';
import { resolveCodeLimits } from '../src/codemode/code-limits';
const echo = defineTool({ name: 'echo', description: 'Echo.', input: { type: 'object', additionalProperties: true }, execute: (input) => input });
const engine = defaultCodeEngine(); await engine.ready();
const catalog = new CodeCatalog([echo]); const limits = resolveCodeLimits();
const noop = async (entry: unknown, args: Record<string, unknown>, n: number) => ({ toolCallId: String(n), toolName: 'echo', input: args, status: 'success' as const, value: args, content: '', artifacts: [], caller: 'code' as const });
async function run(source: string) { const p = CodeProgram.start({ engine, source, catalog, limits, dispatch: noop }); const o = await p.done; if (o.status !== 'completed') throw new Error(JSON.stringify(o)); }
for (let i = 0; i < 20; i++) await run('return 1');
for (const [name, src, n] of [['tiny', 'return 1', 1], ['1000 calls', 'for (let i = 0; i < 1000; i++) await tools.echo({ i }); return 1;', 1000]] as const) {
  const s = performance.now(); for (let i = 0; i < 20; i++) await run(src); console.log(name, ((performance.now() - s) / 20 / n * 1000).toFixed(1), 'µs');
}
