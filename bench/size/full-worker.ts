// Size budget entry (scripts/bundle-sizes.mjs): a Worker with every capability: a workspace with its sandbox,
// filesystem tools and the shell, code mode, skills, artifacts, an MCP server's tools, Durable Object sessions,
// HTTP. Budget: 205 KiB gzip of JavaScript (the QuickJS wasm is counted apart; 200 until the hardening of issue 19).
import * as v from 'valibot';
import { defineAgent, defineTool } from 'ghostlight';
import type { LanguageModel } from 'ai';
import { artifacts } from 'ghostlight/artifacts';
import { DurableObjectSessionStore } from 'ghostlight/cloudflare';
import type { DurableObjectNamespaceLike } from 'ghostlight/cloudflare';
import { codeMode } from 'ghostlight/code-mode';
import { manageContext } from 'ghostlight/context';
import { filesystemTools } from 'ghostlight/filesystem-tools';
import { createAgentApp } from 'ghostlight/http';
import { mcpToolset } from 'ghostlight/mcp';
import { sandbox } from 'ghostlight/sandbox';
import { shellTool } from 'ghostlight/shell';
import { bundledSkillSource, skills } from 'ghostlight/skills';
import { subagents } from 'ghostlight/subagents';
import { writeTodos } from 'ghostlight/todos';
import { workspace } from 'ghostlight/workspace';

export { SessionDurableObject } from 'ghostlight/cloudflare';

const lookup = defineTool({
  name: 'help_center_lookup',
  description: 'Look up a help center entry by topic.',
  input: v.strictObject({ topic: v.picklist(['refunds', 'shipping']) }),
  execute: ({ topic }) => (topic === 'refunds' ? 'Refunds within 30 days.' : 'Ships in 3 to 5 days.'),
});

const guides = bundledSkillSource({ 'refunds/SKILL.md': '---\nname: refunds\ndescription: Refund rules.\n---\nQuote the window.\n' });

export default {
  fetch(request: Request, env: { MODEL: LanguageModel; SESSIONS: DurableObjectNamespaceLike; MCP_URL: string }): Response | Promise<Response> {
    const researcher = defineAgent({ name: 'researcher', model: env.MODEL, tools: [lookup] });
    const agent = defineAgent({
      name: 'analyst',
      model: env.MODEL,
      tools: [lookup, filesystemTools(), shellTool(), writeTodos(), mcpToolset({ connection: { url: env.MCP_URL } })],
      capabilities: [
        workspace(),
        sandbox({ policy: { files: { root: 'read_write' } } }),
        artifacts(),
        skills({ paths: [guides] }),
        subagents([{ kind: 'researcher', agent: researcher, description: 'Researches one topic' }]),
        manageContext(),
        codeMode(),
      ],
    });
    return createAgentApp({
      agents: [agent],
      sessions: new DurableObjectSessionStore(env.SESSIONS),
      auth: (incoming) => ({ actorId: incoming.headers.get('x-user') ?? 'anonymous' }),
    }).fetch(request);
  },
};
