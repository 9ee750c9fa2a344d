import { defineAgent } from 'ghostlight';
import { filesystemTools } from 'ghostlight/filesystem-tools';
import { shellTool } from 'ghostlight/shell';
import { sandbox } from 'ghostlight/sandbox';
import { workspace } from 'ghostlight/workspace';
import type { DemoRequest, DemoTurn } from 'ghostlight/demo-model';
import { playgroundWorkspace } from '../playground-workspace';
import type { ExampleAgent } from './example';

const FOLDERS: ReadonlyArray<[RegExp, string]> = [
  [/^invoice/, 'finance'],
  [/^meeting/, 'meetings'],
];

/** Where the offline model files each inbox entry. */
function folderFor(name: string): string {
  return FOLDERS.find(([pattern]) => pattern.test(name))?.[1] ?? 'personal';
}

/** The offline model's plan: organise the inbox, or list a folder the user names. */
function respond(request: DemoRequest): DemoTurn {
  if (!/organi[sz]e|tidy|sort/i.test(request.userText)) return listFolder(request);
  const listing = request.toolResults.find((result) => result.toolName === 'list_files');
  if (!listing) return { toolCalls: [{ toolName: 'list_files', input: { path: 'inbox' } }] };
  const files = listing.content.split('\n').filter((name) => name && !name.endsWith('/'));
  if (listing.isError || files.length === 0) return { text: 'Your inbox is empty: nothing to organise. (Use "Reset files" to bring the samples back.) (offline demo model)' };
  const folders = [...new Set(files.map(folderFor))];
  if (!request.toolResults.some((result) => result.toolName === 'shell')) {
    return { toolCalls: [{ toolName: 'shell', input: { command: ['mkdir', '-p', ...folders] } }] };
  }
  if (!request.toolResults.some((result) => result.toolName === 'move_file')) {
    return { toolCalls: files.map((name) => ({ toolName: 'move_file', input: { source: `inbox/${name}`, destination: `${folderFor(name)}/${name}` } })) };
  }
  const moved = request.toolResults.filter((result) => result.toolName === 'move_file');
  const failed = moved.filter((result) => result.isError);
  const lines = files.map((name) => `- inbox/${name} → ${folderFor(name)}/${name}`);
  return { text: `I organised ${moved.length - failed.length} of ${files.length} files into ${folders.join(', ')}:\n${lines.join('\n')}${failed.length ? `\n${failed.length} moves failed.` : ''}\n(offline demo model)` };
}

/** Lists the folder the user names (`notes`, `finance`…, else the root), then reports it. */
function listFolder(request: DemoRequest): DemoTurn {
  const listing = request.toolResults.find((result) => result.toolName === 'list_files');
  if (listing) return { text: listing.isError ? `I could not list it: ${listing.content}` : `Here is what is there:\n${listing.content || '(nothing)'}\n(offline demo model)` };
  const folder = request.userText.match(/\b(inbox|notes|finance|meetings|personal|artifacts)\b/i)?.[1]?.toLowerCase() ?? '.';
  return { toolCalls: [{ toolName: 'list_files', input: { path: folder } }] };
}

/** An agent that tidies the workspace with the filesystem and shell tools. */
export const fileOrganiserExample: ExampleAgent = {
  respond,
  askOptions: async () => playgroundWorkspace(),
  create: (model) =>
    defineAgent({
      name: 'files',
      model,
      instructions: 'You organise the user’s workspace. Look before you move anything; never delete files.',
      capabilities: [workspace(), sandbox()],
      tools: [filesystemTools(), shellTool()],
    }),
};
