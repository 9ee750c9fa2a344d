import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPlayground, screenshotDir, send } from './playground-harness';

describe('the playground, served by the Worker, in Chromium', () => {
  let playground: Awaited<ReturnType<typeof openPlayground>> | undefined;
  let page: Page;

  beforeAll(async () => {
    playground = await openPlayground('worker');
    page = playground.page;
  }, 120_000);

  afterAll(async () => {
    await playground?.close();
  });

  it('runs the help-center agent in this tab with the offline model: a tool card, then the answer', async () => {
    await page.click('button[data-example="support"]');
    const turn = await send(page, 'How long does shipping take?');
    const card = turn.locator('.tool-card[data-tool="help_center_lookup"]');
    await expect(card.getAttribute('data-status')).resolves.toBe('success');
    await expect(card.locator('.tool-result').innerText()).resolves.toContain('three to five business days');
    await expect(turn.getAttribute('data-outcome')).resolves.toBe('completed');
    await expect(turn.locator('p.text').innerText()).resolves.toContain('three to five business days');
    await expect(page.locator('.timeline').innerText()).resolves.toMatch(/tool finished \(success\)/);
    await page.screenshot({ path: join(screenshotDir, 'help-center-in-tab.png') });
  });

  it('shows a refused call as an error card and the agent recovering', async () => {
    const turn = await send(page, 'Where is order 482?');
    const card = turn.locator('.tool-card[data-tool="order_status"]');
    await expect(card.getAttribute('data-status')).resolves.toBe('error');
    await expect(card.locator('.tool-result').innerText()).resolves.toContain('No order 482 on this account');
  });

  it('stops a run mid-way with the Stop button', async () => {
    const turns = page.locator('.message.assistant');
    const before = await turns.count();
    await page.fill('#prompt', 'Is the "blue kettle" in stock?');
    await page.click('button.primary');
    const card = turns.nth(before).locator('.tool-card[data-tool="check_stock"]');
    await card.waitFor();
    await expect(card.getAttribute('data-status')).resolves.toBe('running');
    await page.screenshot({ path: join(screenshotDir, 'stopping.png') });
    await page.click('button:has-text("Stop")');
    await turns.nth(before).and(page.locator('[data-outcome]')).waitFor();
    await expect(turns.nth(before).getAttribute('data-outcome')).resolves.toBe('cancelled');
    await expect(card.getAttribute('data-status')).resolves.toBe('abandoned');
    await expect(card.locator('.status').innerText()).resolves.toBe('stopped');
    await expect(turns.nth(before).locator('.outcome').innerText()).resolves.toContain('Run cancelled');
  });

  it('runs the same agent on the Worker over AG-UI', async () => {
    await page.check('input[value="worker"]');
    const turn = await send(page, 'Where is order 481?');
    const card = turn.locator('.tool-card[data-tool="order_status"]');
    await expect(card.getAttribute('data-status')).resolves.toBe('success');
    await expect(card.locator('.tool-result').innerText()).resolves.toContain('shipped on Monday');
    await expect(page.locator('.timeline').innerText()).resolves.toContain('the Worker (AG-UI)');
    await page.screenshot({ path: join(screenshotDir, 'help-center-on-worker.png') });
    await page.check('input[value="tab"]');
  });

  it('draws the run as a waterfall in the Trace tab, for a run in the tab and for a run on the Worker', async () => {
    const operations = () => page.locator('.trace-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-operation')));
    await page.click('button[data-example="support"]');
    await send(page, 'How long does shipping take?');
    await page.click('button[role="tab"][data-tab="trace"]');
    await page.locator('.trace-row').first().waitFor();
    expect(await operations()).toEqual(expect.arrayContaining(['run', 'agent', 'agent_turn', 'model', 'tool']));
    expect((await operations())[0]).toBe('run');
    await expect(page.locator('.trace > .hint').innerText()).resolves.toContain('this tab');
    await expect(page.locator('.trace-row[data-operation="tool"] .trace-label').first().innerText()).resolves.toBe('tool help_center_lookup');
    await page.screenshot({ path: join(screenshotDir, 'trace-in-tab.png') });

    await page.check('input[value="worker"]');
    await send(page, 'Where is order 481?');
    await page.waitForFunction(() => document.querySelector('.trace > .hint')?.textContent?.includes('the Worker'));
    await expect(page.locator('.trace > .hint').innerText()).resolves.toMatch(/trace [0-9a-f]{32}/);
    expect(await operations()).toEqual(expect.arrayContaining(['run', 'agent_turn', 'model', 'tool']));
    await expect(page.locator('.trace-row[data-operation="tool"] .trace-label').first().innerText()).resolves.toBe('tool order_status');
    await page.screenshot({ path: join(screenshotDir, 'trace-on-worker.png') });
    await page.check('input[value="tab"]');
    await page.click('button[role="tab"][data-tab="timeline"]');
  });

  it('shows the checked object of a structured agent as JSON', async () => {
    await page.click('button[data-example="triage"]');
    const turn = await send(page, 'My delivery is late and it is urgent: how long does shipping take?');
    const json = JSON.parse(await turn.locator('.structured pre').innerText()) as Record<string, unknown>;
    expect(json).toEqual({ category: 'delivery', urgent: true, summary: 'My delivery is late and it is urgent: how long does shipping take?' });
    await expect(turn.locator('.tool-card[data-tool="help_center_lookup"]').getAttribute('data-status')).resolves.toBe('success');
    await page.screenshot({ path: join(screenshotDir, 'structured-result.png') });
  });

  it('solves the data task in one code-mode program: source, nested calls from code, output, a CSV rendered inline', async () => {
    await page.click('button[data-example="sales"]');
    const turn = await send(page, 'Which sales region did best over the last four months?');
    const program = turn.locator('.program-card');
    await expect(program.getAttribute('data-status')).resolves.toBe('completed');
    await expect(program.locator('pre.code').innerText()).resolves.toContain('Promise.all');
    await expect(program.locator('.tool-card[data-tool="region_sales"]').count()).resolves.toBe(4);
    await expect(program.locator('.tool-card[data-tool="region_sales"] .badge').first().innerText()).resolves.toBe('from code');
    await expect(program.locator('.program-output').innerText()).resolves.toBe('Best region: south (835k)');
    const table = turn.locator('.artifact[data-media-type="text/csv"] table');
    await expect(table.locator('tbody tr').count()).resolves.toBe(4);
    await expect(table.locator('tbody tr').first().innerText()).resolves.toMatch(/south\s+835/);
    await expect(turn.locator('p.text').innerText()).resolves.toContain('1. south: 835k');
    const chart = turn.locator('.artifact[data-media-type="image/svg+xml"] img');
    await expect(chart.evaluate((image: HTMLImageElement) => image.decode().then(() => image.naturalWidth))).resolves.toBe(460);
    await page.screenshot({ path: join(screenshotDir, 'code-mode-program.png'), fullPage: true });
  });

  it('organises the workspace with the filesystem and shell tools, and the files survive a reload', async () => {
    await page.click('button[data-example="files"]');
    const turn = await send(page, 'Organise my inbox into folders.');
    await expect(turn.locator('.tool-card[data-tool="list_files"]').getAttribute('data-status')).resolves.toBe('success');
    await expect(turn.locator('.tool-card[data-tool="shell"]').getAttribute('data-status')).resolves.toBe('success');
    await expect(turn.locator('.tool-card[data-tool="move_file"][data-status="success"]').count()).resolves.toBe(5);
    await expect(turn.locator('p.text').innerText()).resolves.toContain('I organised 5 of 5 files');

    const tree = async () => {
      await page.click('button[role="tab"][data-tab="workspace"]');
      await page.waitForSelector('.tree [data-path]');
      return page.locator('.tree [data-path]').evaluateAll((items) => items.map((item) => item.getAttribute('data-path')));
    };
    const expected = ['finance', 'finance/invoice-481.csv', 'inbox', 'meetings', 'meetings/meeting-2026-11-20.md', 'meetings/meeting-2026-11-27.md', 'notes', 'notes/welcome.md', 'personal', 'personal/groceries.txt', 'personal/trip-ideas.md'];
    expect((await tree()).sort()).toEqual(expected);
    await page.click('.tree [data-path="finance/invoice-481.csv"] button');
    await expect(page.locator('.viewer table tbody tr').count()).resolves.toBe(2);
    await page.screenshot({ path: join(screenshotDir, 'workspace.png') });

    await page.reload();
    await page.waitForSelector('#prompt');
    expect((await tree()).sort()).toEqual(expected);
    await page.click('button[role="tab"][data-tab="timeline"]');
  });

  it('discovers a skill, loads it with the skills tool and follows it with its tools; the Skills tab lists the catalog', async () => {
    await page.click('button[data-example="skills"]');
    const turn = await send(page, 'A customer wants a refund for a kettle bought last week.');
    const skill = turn.locator('.tool-card[data-tool="skills"]');
    await expect(skill.getAttribute('data-status')).resolves.toBe('success');
    await expect(skill.locator('.tool-result').textContent()).resolves.toContain('Allowed tools: help_center_lookup');
    await expect(skill.locator('.tool-result').textContent()).resolves.toContain('references/policy.md');
    await expect(turn.locator('.tool-card[data-tool="help_center_lookup"]').getAttribute('data-status')).resolves.toBe('success');
    await expect(turn.locator('p.text').innerText()).resolves.toContain('Following the refund_guide skill');
    await page.click('button[role="tab"][data-tab="skills"]');
    await page.waitForSelector('.skill-list [data-skill]');
    await expect(page.locator('.skill-list [data-skill]').evaluateAll((items) => items.map((item) => item.getAttribute('data-skill')))).resolves.toEqual(['refund_guide', 'shipping_delay']);
    await page.screenshot({ path: join(screenshotDir, 'skills.png') });
    await page.click('button[role="tab"][data-tab="timeline"]');
  });

  it('shows the write_todos plan as a live checklist that follows each update, keyless with the offline model', async () => {
    await page.click('button[data-example="planner"]');
    const turns = page.locator('.message.assistant');
    const before = await turns.count();
    await page.fill('#prompt', 'Check the shipping policy, then look up order 481, then check whether the "blue kettle" is in stock.');
    await page.click('button.primary');
    const turn = turns.nth(before);
    // Live: while the slow stock check runs, the third step is the one in progress and the first two are done.
    await turn.locator('.plan li[data-todo="step-3"][data-status="in_progress"]').waitFor({ timeout: 20_000 });
    await expect(turn.locator('.plan li[data-status="completed"]').count()).resolves.toBe(2);
    await expect(turn.locator('.plan .plan-progress').textContent()).resolves.toBe(' 2/3');
    await page.screenshot({ path: join(screenshotDir, 'plan-in-progress.png') });
    await turn.and(page.locator('[data-outcome]')).waitFor({ timeout: 20_000 });
    await expect(turn.getAttribute('data-outcome')).resolves.toBe('completed');
    await expect(turn.locator('.plan li').evaluateAll((items) => items.map((item) => [item.querySelector('.todo-title')?.textContent, item.getAttribute('data-status')]))).resolves.toEqual([
      ['Check the shipping policy', 'completed'],
      ['Look up order 481', 'completed'],
      ['Check whether the "blue kettle" is in stock', 'completed'],
    ]);
    await expect(turn.locator('.plan').count()).resolves.toBe(1);
    await expect(turn.locator('.tool-card[data-tool="check_stock"]').getAttribute('data-status')).resolves.toBe('success');
    await expect(turn.locator('p.text').innerText()).resolves.toContain('All 3 steps of the plan are done');
    await expect(page.locator('.timeline').innerText()).resolves.toContain('plan updated (3/3 done)');
    await page.screenshot({ path: join(screenshotDir, 'plan-done.png') });
  });

  it('fans work out to two researcher subagents at once and shows them as nested cards, in this tab and on the Worker', async () => {
    await page.click('button[data-example="research"]');
    for (const where of ['tab', 'worker'] as const) {
      await page.check(`input[value="${where}"]`);
      const turn = await send(page, 'Research solar panel prices and wind turbine rivals', { timeout: 40_000 });
      await expect(turn.getAttribute('data-outcome')).resolves.toBe('completed');
      const spawns = turn.locator('.tool-card[data-tool="spawn_subagent"]');
      await expect(spawns.count()).resolves.toBe(2);
      const cards = turn.locator('.tool-card[data-tool="spawn_subagent"] .subagent-card');
      await expect(cards.evaluateAll((items) => items.map((item) => item.getAttribute('data-subagent')))).resolves.toEqual(['/root/solar_panel_prices', '/root/wind_turbine_rivals']);
      await expect(cards.evaluateAll((items) => items.map((item) => item.getAttribute('data-status')))).resolves.toEqual(['idle', 'idle']);
      await expect(cards.first().locator('.subagent-calls li[data-status="success"] .tool-name').innerText()).resolves.toBe('research_library');
      await expect(cards.first().locator('.subagent-response').innerText()).resolves.toContain('Module prices fell');
      await expect(cards.nth(1).locator('.subagent-response').innerText()).resolves.toContain('turbine makers consolidate');
      await expect(turn.locator('.tool-card[data-tool="wait_for_subagents"]').first().getAttribute('data-status')).resolves.toBe('success');
      await expect(turn.locator('p.text').last().innerText()).resolves.toContain('Here is what my 2 subagents found');
      await expect(page.locator('.timeline').innerText()).resolves.toContain('subagent /root/wind_turbine_rivals turn finished');
      await page.screenshot({ path: join(screenshotDir, `research-team-${where}.png`) });
    }
    await page.check('input[value="tab"]');
  });

  it('runs the keyless Graph example: its toMermaid() diagram lights up node by node, the specialists in one fan-out', async () => {
    await page.click('button[data-example="investigation"]');
    const turn = await send(page, 'I was charged twice for order 481 and it has not arrived yet.');
    await expect(turn.getAttribute('data-outcome')).resolves.toBe('completed');
    const states = await turn.locator('svg.assembly-diagram g.node').evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-node'), node.getAttribute('data-state')]));
    expect(states).toEqual([
      ['triage', 'completed'],
      ['billing', 'completed'],
      ['shipping', 'completed'],
      ['writer', 'completed'],
      ['start', 'idle'],
      ['finish', 'completed'],
    ]);
    await expect(turn.locator('p.text').last().innerText()).resolves.toContain('Here is what the specialists found');
    await expect(turn.locator('p.text').last().innerText()).resolves.not.toContain('Needs a billing check');
    const timeline = await page.locator('.timeline').innerText();
    expect(timeline).toContain('fan-out triage → billing, shipping');
    expect(timeline).toContain('fan-in billing, shipping → writer');
    await page.screenshot({ path: join(screenshotDir, 'graph-investigation.png') });
  });

  it('runs the Swarm example: triage hands off to the billing desk, whose answer alone streams', async () => {
    await page.click('button[data-example="desks"]');
    const turn = await send(page, 'Why was I charged twice?');
    await expect(turn.getAttribute('data-outcome')).resolves.toBe('completed');
    const states = await turn.locator('svg.assembly-diagram g.node').evaluateAll((nodes) => Object.fromEntries(nodes.map((node) => [node.getAttribute('data-node'), node.getAttribute('data-state')])));
    expect(states).toMatchObject({ triage: 'completed', billing: 'completed', shipping: 'idle' });
    const text = await turn.innerText();
    expect(text).toContain('billing desk');
    expect(text).not.toContain('Routing your request');
    await expect(page.locator('.timeline').innerText()).resolves.toContain('handoff triage → billing');
    await page.screenshot({ path: join(screenshotDir, 'swarm-handoffs.png') });
  });

  it('interjects into a slow run while it works: answered at the next model turn, in this tab and on the Worker', async () => {
    await page.click('button[data-example="survey"]');
    const turns = page.locator('.message.assistant');
    const interjectOnce = async (message: string) => {
      const before = await turns.count();
      await page.fill('#prompt', 'Survey the warehouses for kettles.');
      await page.click('button.primary');
      const turn = turns.nth(before);
      await turn.locator('.tool-card[data-tool="survey_next_warehouse"]').first().waitFor();
      await page.fill('#prompt', message);
      await page.click('button.interject');
      await turn.locator('.interjection[data-status="answered"]').waitFor({ timeout: 20_000 });
      await turn.and(page.locator('[data-outcome]')).waitFor({ timeout: 30_000 });
      return turn;
    };
    const local = await interjectOnce('Riga is closed on Fridays.');
    await expect(local.getAttribute('data-outcome')).resolves.toBe('completed');
    await expect(local.locator('.interjection p').innerText()).resolves.toBe('Riga is closed on Fridays.');
    const text = await local.innerText();
    expect(text).toContain('Noted: "Riga is closed on Fridays.". Carrying on with the survey.');
    expect(text).toContain('Survey done (offline demo model): Lyon 5, Oslo 5, Porto 12, Riga 5, Turin 12 kettles.');
    await expect(local.locator('.tool-card[data-tool="survey_next_warehouse"]').count()).resolves.toBe(5);
    await page.screenshot({ path: join(screenshotDir, 'interjection-in-tab.png') });

    // On the Worker: the tab posts to /agents/survey/runs/:runId/interject; asking to stop ends the survey early.
    await page.check('input[value="worker"]');
    const remote = await interjectOnce('Please stop now.');
    await expect(remote.getAttribute('data-outcome')).resolves.toBe('completed');
    await expect(remote.innerText()).resolves.toContain('Stopping the survey as you asked ("Please stop now.").');
    expect(await remote.locator('.tool-card[data-tool="survey_next_warehouse"]').count()).toBeLessThan(5);
    await expect(page.locator('.timeline').innerText()).resolves.toContain('interjection answered');
    await page.screenshot({ path: join(screenshotDir, 'interjection-on-worker.png') });
    await page.check('input[value="tab"]');
  });

  it('plans a workflow with the offline planner, shows its DAG, runs the version twice and shows drift after a schema change', async () => {
    await page.click('button[data-example="workflow"]');
    const turn = await send(page, 'Plan the follow-up workflow for order 481 and run it.', { timeout: 40_000 });
    await expect(turn.getAttribute('data-outcome')).resolves.toBe('completed');
    const cards = turn.locator('.tool-card');
    await expect(cards.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-tool')))).resolves.toEqual([
      'plan_workflow',
      'run_workflow',
      'run_workflow',
      'change_tool_schema',
      'run_workflow',
    ]);
    const plan = await cards.nth(0).locator('.tool-result').innerText();
    expect(plan).toContain('level 1: lookupOrder [tool.call lookupOrder]');
    expect(plan).toContain('level 2: customerProfile [tool.call customerProfile] ← lookupOrder  ·  shippingEstimate [tool.call shippingEstimate] ← lookupOrder');
    await expect(cards.nth(1).locator('.tool-result').innerText()).resolves.toContain('Run 1 of version sha256:');
    await expect(cards.nth(2).locator('.tool-result').innerText()).resolves.toContain('planner not called: completed');
    await expect(cards.nth(4).locator('.tool-result').innerText()).resolves.toContain('failed (capability_drift: Tool shippingEstimate no longer matches the capability snapshot');
    await page.screenshot({ path: join(screenshotDir, 'planned-workflow.png') });
  });

  it('is accessible (axe-core: no serious or critical violations) and usable on a narrow screen', async () => {
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
    const violations = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> } }).axe;
      const result = await axe.run();
      return result.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => `${violation.id}: ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);
    });
    expect(violations).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.reload();
    await page.waitForSelector('#prompt');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to the message box');
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => location.hash)).resolves.toBe('#prompt');
    await page.screenshot({ path: join(screenshotDir, 'narrow-screen.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 860 });
  });
});
