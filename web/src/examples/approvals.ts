import * as v from 'valibot';
import { defineAgent, defineTool } from 'ghostlight';
import type { AskOptions } from 'ghostlight';
import type { DemoRequest, DemoTurn } from 'ghostlight/demo-model';
import type { ExampleAgent } from './example';

/** Sessions in this tab's IndexedDB, so a run waiting for approval survives a reload. */
async function storedSession(name: string): Promise<Partial<AskOptions>> {
  const { IndexedDbSessionStore } = await import('ghostlight/browser');
  return { sessions: new IndexedDbSessionStore({ name: 'playground-approvals' }), sessionId: `playground-${name}` };
}

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Look up an order: its total and status.',
  input: v.strictObject({ order: v.string() }),
  execute: ({ order }) => ({ order, total: order === '481' ? 120 : 35, status: 'delivered' }),
});

const issueRefund = defineTool({
  name: 'issue_refund',
  description: 'Refund an order. Refunds above 50 need a person to approve them.',
  input: v.strictObject({ order: v.string(), amount: v.number() }),
  needsApproval: ({ amount }) => amount > 50,
  execute: ({ order, amount }) => `Refunded ${amount} EUR for order ${order}`,
});

/** The order and amount in "Refund 120 EUR for order 481". */
function refundRequest(text: string): { order: string; amount: number } {
  const order = /order\s+(\w+)/i.exec(text)?.[1] ?? '481';
  const amount = Number(/(\d+(?:\.\d+)?)\s*(?:eur|euro|€)/i.exec(text)?.[1] ?? 120);
  return { order, amount };
}

/** The offline model: call issue_refund with the request's order and amount, then report what happened. */
function refundPolicy(request: DemoRequest): DemoTurn {
  const result = request.toolResults.at(-1);
  if (result) return { text: result.isError ? `The refund was not made: ${result.content} (offline demo model)` : `${result.content}. (offline demo model)` };
  return { text: 'I will issue the refund.', toolCalls: [{ toolName: 'issue_refund', input: refundRequest(request.userText) }] };
}

/** A refund tool that asks a person first: the run stops waiting, the card gets Approve and Deny. */
export const refundApprovalExample: ExampleAgent = {
  respond: refundPolicy,
  askOptions: () => storedSession('refunds'),
  create: (model) => defineAgent({ name: 'refunds', model, instructions: 'Issue refunds the user asks for.', tools: [lookupOrder, issueRefund] }),
};

/** The program the offline model writes: it reads the clock and a random number, looks up the order, then refunds it. */
export const REFUND_PROGRAM = `const ticket = { at: Date.now(), id: Math.floor(Math.random() * 1e6) };
const order = await tools.lookup_order({ order: '481' });
text('ticket ' + ticket.id + ' for order ' + order.order);
const refund = await tools.issue_refund({ order: order.order, amount: order.total });
return { ticket, refund };`;

function codeRefundPolicy(request: DemoRequest): DemoTurn {
  const observation = request.toolResults.find((result) => result.toolName === 'exec');
  if (observation) return { text: `Program result: ${observation.content} (offline demo model)` };
  if (request.tools.some((tool) => tool.name === 'exec')) return { toolCalls: [{ toolName: 'exec', input: { source: REFUND_PROGRAM } }] };
  return { text: 'Code mode is off for this agent. (offline demo model)' };
}

/** A code-mode program that pauses at issue_refund for approval and resumes by replay, even after a reload. */
export const codeApprovalExample: ExampleAgent = {
  respond: codeRefundPolicy,
  askOptions: () => storedSession('code-refunds'),
  create: async (model) => {
    const { codeMode } = await import('ghostlight/code-mode');
    return defineAgent({ name: 'code-refunds', model, instructions: 'Refund orders with a program.', tools: [lookupOrder, issueRefund], capabilities: [codeMode()] });
  },
};
