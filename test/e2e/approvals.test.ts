import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPlayground, screenshotDir, send } from './playground-harness';

/** Waits for the next assistant turn after `before` to end, and returns it. */
async function turnAfter(page: Page, before: number) {
  const turn = page.locator('.message.assistant').nth(before);
  await turn.and(page.locator('[data-outcome]')).waitFor({ timeout: 20_000 });
  return turn;
}

describe('approvals in the playground (Chromium, offline model)', () => {
  let playground: Awaited<ReturnType<typeof openPlayground>> | undefined;
  let page: Page;

  beforeAll(async () => {
    playground = await openPlayground('approvals');
    page = playground.page;
  }, 120_000);

  afterAll(async () => {
    await playground?.close();
  });

  it('stops a refund above 50 for approval; Approve runs it and the run completes', async () => {
    await page.click('button[data-example="refunds"]');
    const turn = await send(page, 'Refund 120 EUR for order 481');
    await expect(turn.getAttribute('data-outcome')).resolves.toBe('waiting');
    const card = turn.locator('.tool-card.approval[data-tool="issue_refund"]');
    await expect(card.locator('.tool-result, details').first().innerText()).resolves.toContain('120');
    await page.screenshot({ path: join(screenshotDir, 'approval-waiting.png') });
    const before = await page.locator('.message.assistant').count();
    await card.locator('button.approve').click();
    const resumed = await turnAfter(page, before);
    await expect(resumed.getAttribute('data-outcome')).resolves.toBe('completed');
    await expect(resumed.locator('p.text').innerText()).resolves.toContain('Refunded 120 EUR for order 481');
  });

  it('gives a denial with its reason to the model', async () => {
    const turn = await send(page, 'Refund 90 EUR for order 482');
    const card = turn.locator('.tool-card.approval');
    await card.locator('input.reason').fill('Outside the refund window');
    const before = await page.locator('.message.assistant').count();
    await card.locator('button.deny').click();
    const resumed = await turnAfter(page, before);
    await expect(resumed.locator('p.text').innerText()).resolves.toContain('The user denied the issue_refund call: Outside the refund window');
  });

  it('pauses a program at a call that needs approval, and after a reload approves it and replays the program', async () => {
    await page.click('button[data-example="code-refunds"]');
    const turn = await send(page, 'Refund order 481 with a program', { timeout: 30_000 });
    await expect(turn.getAttribute('data-outcome')).resolves.toBe('waiting');
    await turn.locator('.tool-card.approval[data-tool="issue_refund"]').waitFor();
    await page.reload();
    await page.waitForSelector('#prompt');
    await page.click('button[data-example="code-refunds"]');
    const card = page.locator('.tool-card.approval[data-tool="issue_refund"]');
    await card.waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(screenshotDir, 'approval-after-reload.png') });
    const before = await page.locator('.message.assistant').count();
    await card.locator('button.approve').click();
    const resumed = await turnAfter(page, before);
    await expect(resumed.getAttribute('data-outcome')).resolves.toBe('completed');
    await expect(resumed.locator('p.text').innerText()).resolves.toContain('Refunded 120 EUR for order 481');
  });
});
