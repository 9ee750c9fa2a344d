import { argumentsFor, planDemoTurn } from './demo-policy.ts';
import type { DemoRequest, DemoTurn } from './demo-policy.ts';

const RESULT_TOOL_HINT = /final structured result/i;

/**
 * How the offline demo model answers an agent with a result schema: when the
 * request forces a tool (the `tool` strategy), it calls the named tool or the
 * one that submits the final structured result once it has what it looked up;
 * when it asks for JSON (the `provider` strategy), it writes JSON that fits.
 * Values come from the schema and the user's words. Returns nothing when the
 * request is not about a structured result.
 */
export function planStructuredTurn(request: DemoRequest): DemoTurn | undefined {
  const choice = request.toolChoice;
  if (choice && typeof choice === 'object') {
    const tool = request.tools.find((candidate) => candidate.name === choice.toolName);
    return tool ? { toolCalls: [{ toolName: tool.name, input: argumentsFor(tool.inputSchema, request.userText) }] } : undefined;
  }
  if (choice === 'required') {
    const resultTool = request.tools.find((tool) => RESULT_TOOL_HINT.test(tool.description));
    if (!resultTool) return undefined;
    if (request.toolResults.length === 0) {
      // Look things up first with the ordinary tools, as a model would; submit afterwards.
      const lookup = planDemoTurn({ ...request, toolChoice: undefined, tools: request.tools.filter((tool) => tool !== resultTool) });
      if (lookup.toolCalls?.length) return lookup;
    }
    return { toolCalls: [{ toolName: resultTool.name, input: argumentsFor(resultTool.inputSchema, request.userText) }] };
  }
  if (request.responseSchema && (request.toolResults.length > 0 || request.tools.length === 0)) {
    return { text: JSON.stringify(argumentsFor(request.responseSchema, request.userText)) };
  }
  return undefined;
}
