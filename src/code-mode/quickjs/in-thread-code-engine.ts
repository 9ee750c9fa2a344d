import { loadQuickJsVariant } from '#quickjs-variant';
import type { CodeEngine } from '../code-engine.ts';
import { createQuickJsEngine } from './quickjs-engine.ts';

/**
 * The `workerd` and `default` builds of code mode's private `#code-engine` import: QuickJS on the caller's
 * thread. Cloudflare Workers have no worker a request can terminate, so there the builtin bounds and the
 * CPU budget are what stop a program (docs/code-mode.md, "Stopping programs").
 */
export function createDefaultCodeEngine(): CodeEngine {
  return createQuickJsEngine({ variant: loadQuickJsVariant });
}
