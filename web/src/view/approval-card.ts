import { h } from '../dom';
import type { ApprovalView } from '../view-event';
import { jsonView } from './json-view';

/**
 * The card of a call waiting for the user's approval: the tool, the
 * arguments it will run with (an answer cannot change them), and Approve and
 * Deny (with an optional reason).
 */
export function approvalCard(approval: ApprovalView, answer: (approved: boolean, reason: string | undefined) => void): HTMLElement {
  const reason = h('input', { type: 'text', class: 'reason', placeholder: 'Reason (optional)', 'aria-label': `Reason for ${approval.toolName}` });
  const status = h('span', { class: 'status running', role: 'status' }, 'waiting for your approval');
  const decide = (approved: boolean) => {
    for (const button of card.querySelectorAll('button')) button.setAttribute('disabled', '');
    card.dataset.status = approved ? 'approved' : 'denied';
    status.textContent = approved ? 'approved' : 'denied';
    answer(approved, reason.value.trim() || undefined);
  };
  const card = h(
    'article',
    { class: 'tool-card approval', 'data-tool': approval.toolName, 'data-approval-id': approval.approvalId, 'data-status': 'waiting', 'aria-label': `Approval of ${approval.toolName}` },
    h('header', {}, h('span', { class: 'tool-name' }, approval.toolName), h('span', { class: 'badge' }, 'needs approval'), status),
    h('details', { open: true }, h('summary', {}, 'Arguments'), jsonView(approval.input, `Arguments of ${approval.toolName}`)),
    h('div', { class: 'actions' },
      reason,
      h('button', { type: 'button', class: 'approve primary-outline', onclick: () => decide(true) }, 'Approve'),
      h('button', { type: 'button', class: 'deny', onclick: () => decide(false) }, 'Deny'),
    ),
  );
  return card;
}
