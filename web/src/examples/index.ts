import type { ExampleInfo } from './example';

/** The examples the playground offers, in order; each loads its agent code on first use. */
export const examples: readonly ExampleInfo[] = [
  {
    id: 'support',
    title: 'Help-center lookup',
    description: 'A support agent with three tools: a help-center lookup, an order-status check that reads the account from the run context (never from the model), and a slow stock check you can stop mid-way.',
    suggestions: ['How long does shipping take?', 'What is your refund policy?', 'Where is order 481?', 'Where is order 482?', 'Is the "blue kettle" in stock?'],
    onWorker: true,
    load: () => import('./help-center').then((module) => module.helpCenterExample),
  },
  {
    id: 'files',
    title: 'File organiser',
    description:
      'Tidies the inbox of your workspace into folders with the filesystem tools (list_files, move_file…) and the virtual shell (mkdir). The workspace lives in this tab (IndexedDB), so the result survives a reload: open the Workspace tab to look.',
    suggestions: ['Organise my inbox into folders.', 'List the files in my notes folder.'],
    onWorker: false,
    load: () => import('./file-organiser').then((module) => module.fileOrganiserExample),
  },
  {
    id: 'sales',
    title: 'Data task in code mode',
    description:
      'The agent writes one JavaScript program that fans out to four slow tool calls with Promise.all, ranks the regions, exports a CSV and draws a chart. The program runs in a QuickJS sandbox in this tab; every call it makes goes through the same tool executor as the model’s own.',
    suggestions: ['Which sales region did best over the last four months?'],
    onWorker: false,
    load: () => import('./data-task').then((module) => module.dataTaskExample),
  },
  {
    id: 'skills',
    title: 'Skills',
    description:
      'The agent sees a short catalog of SKILL.md procedures in its instructions and loads one with the skills tool only when a request needs it, then follows it with its own tools. allowed-tools is shown to the model and grants nothing. The Skills tab lists the catalog.',
    suggestions: ['A customer wants a refund for a kettle bought last week.', 'Order 481 is late: what can we do?'],
    onWorker: false,
    load: () => import('./skills').then((module) => module.skillsExample),
  },
  {
    id: 'planner',
    title: 'Planning with write_todos',
    description:
      'For a request of several steps the agent publishes a plan with the write_todos tool, works through it one step at a time and keeps the plan up to date: the checklist above its answer follows each update. The plan lives in the run state (ghostlight.plan).',
    suggestions: ['Check the shipping policy, then look up order 481, then check whether the "blue kettle" is in stock.'],
    onWorker: false,
    load: () => import('./planner').then((module) => module.plannerExample),
  },
  {
    id: 'research',
    title: 'Research team (subagents)',
    description:
      'A lead agent splits the request into topics and spawns one researcher subagent per topic with spawn_subagent; they run at the same time, each with only its own library tool, and the lead waits for them with wait_for_subagents. Each subagent is a nested card under the call that spawned it: its path, status, its own tool calls and its answer.',
    suggestions: ['Research solar panel prices and wind turbine rivals', 'Follow up on the earlier research'],
    onWorker: true,
    load: () => import('./research').then((module) => module.researchExample),
  },
  { id: 'survey', title: 'Interject while it works', description: 'A slow warehouse survey: five tool calls, one per model turn. While it runs, type a message and press Interject (or Enter): it reaches the model at the next turn with the interjection prefix, the model answers it briefly and carries on, or stops when you ask it to. On the Worker the run lives in its own Durable Object (POST /agents/survey/runs) and the interjection is POST /agents/survey/runs/:runId/interject.', suggestions: ['Survey the warehouses for kettles.'], onWorker: true, workerRoute: 'runs', load: () => import('./interjections').then((module) => module.interjectionsExample) },
  {
    id: 'triage',
    title: 'Structured triage',
    description:
      'Classifies a support request into a checked object (category, urgency, summary). The result schema is a valibot strictObject; the model submits it through a terminal tool, and a wrong shape gets exactly one repair turn.',
    suggestions: ['My delivery is late and it is urgent: how long does shipping take?', 'I was charged twice on my billing statement.', 'How do returns work?'],
    onWorker: false,
    load: () => import('./triage').then((module) => module.triageExample),
  },
  { id: 'investigation', title: 'Graph: parallel specialists', description: 'A Graph (ghostlight/assemblies): triage, then a billing and a shipping specialist at the same time, then a writer that answers from both. The diagram is drawn from graph.toMermaid(); each node lights up while it runs.', suggestions: ['I was charged twice for order 481 and it has not arrived yet.'], onWorker: false, load: () => import('./graph-investigation').then((module) => module.graphInvestigationExample) },
  { id: 'desks', title: 'Swarm: handoffs', description: 'A Swarm (ghostlight/assemblies): triage hands the request to the billing or the shipping desk with handoff_to_agent; only the member that answers streams, and the diagram shows the route taken.', suggestions: ['Why was I charged twice?', 'Where is order 481?'], onWorker: false, load: () => import('./swarm-handoffs').then((module) => module.swarmHandoffsExample) },
  { id: 'refunds', title: 'Approve a refund', description: 'A refund tool that needs a person’s approval above 50 EUR: the run stops waiting, and its card gets Approve and Deny. A denial reaches the model as the tool’s error with your reason. The waiting run is kept in this tab’s IndexedDB.', suggestions: ['Refund 120 EUR for order 481', 'Refund 20 EUR for order 17'], onWorker: false, keepsSessions: true, load: () => import('./approvals').then((module) => module.refundApprovalExample) },
  { id: 'code-refunds', title: 'Approval inside a program', description: 'A code-mode program reads the clock and a random number, looks up an order, then calls issue_refund, which needs approval: the program pauses. Reload the page if you like, then approve: the program is replayed from its journal (same clock and random values) and continues.', suggestions: ['Refund order 481 with a program'], onWorker: false, keepsSessions: true, load: () => import('./approvals').then((module) => module.codeApprovalExample) },
  { id: 'workflow', title: 'Planned workflow', description: 'The offline planner designs a workflow once (its plan is shown as a DAG), the pinned version runs twice with no planner call, then a tool’s schema changes and the third run fails with capability_drift (ghostlight/workflows).', suggestions: ['Plan the follow-up workflow for order 481 and run it.'], onWorker: false, load: () => import('./workflow').then((module) => module.workflowExample) },
];
