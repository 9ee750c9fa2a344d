import * as v from 'valibot';
import { defineAgent, defineTool, ToolError } from 'ghostlight';
import type { Agent } from 'ghostlight';
import type { LanguageModel } from 'ai';

const helpCenter: Record<string, string> = {
  refunds: 'Refunds are available within 30 days of purchase.',
  shipping: 'Standard shipping takes three to five business days.',
  returns: 'Returns are free for unworn items; print the label from your order page.',
};

const orders: Record<string, { status: string; accountId: string }> = {
  '481': { status: 'shipped on Monday, arriving Thursday', accountId: 'acct-1' },
  '482': { status: 'waiting for payment', accountId: 'acct-2' },
};

/** Looks up a help-center entry by topic. */
export const helpCenterLookup = defineTool({
  name: 'help_center_lookup',
  description: 'Look up a help center entry by topic (refunds, shipping or returns).',
  input: v.strictObject({ topic: v.picklist(['refunds', 'shipping', 'returns']) }),
  execute: ({ topic }) => helpCenter[topic],
});

/** Looks up an order, for the account the application authenticated (never the model's say-so). */
export const orderStatus = defineTool({
  name: 'order_status',
  description: 'Look up the status of an order by its number for the current customer.',
  input: v.strictObject({ order_number: v.pipe(v.string(), v.regex(/^\d+$/)) }),
  execute: ({ order_number }, binding) => {
    const order = orders[order_number];
    const accountId = binding.run.invocation.context.accountId ?? 'acct-1';
    if (!order || order.accountId !== accountId) throw new ToolError(`No order ${order_number} on this account`);
    return { order_number, status: order.status };
  },
});

/** Checks warehouse stock; deliberately slow (a remote system), and it stops when the run is cancelled. */
export const checkStock = defineTool({
  name: 'check_stock',
  description: 'Check whether a product is in stock in the warehouse (slow: it asks the warehouse system).',
  input: v.strictObject({ product: v.pipe(v.string(), v.minLength(1)) }),
  execute: ({ product }, binding) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve({ product, inStock: product.length % 2 === 0, warehouse: 'Lyon' }), 1_500);
      binding.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(binding.signal.reason);
      }, { once: true });
    }),
});

/** The demo agent `npm start` serves: a help-center assistant with two tools. */
export function createSupportAgent(model: LanguageModel): Agent {
  return defineAgent({
    name: 'support',
    model,
    instructions: 'You are a customer support assistant. Check the help center or the order status before answering.',
    tools: [helpCenterLookup, orderStatus, checkStock],
  });
}
