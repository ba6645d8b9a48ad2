// A finding's own page (#/finding/<id>): what, where, since when and what to do; the evidence as a table;
// what it has cost so far; the operator's work on it (acknowledge, assign, comment, snooze: operators and
// admins) with its timeline; and the other findings on the same node.

import { getJson, send } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { absolute, gpuLabel, relative } from '/js/format.js';
import { findingsTable } from '/js/findings-table.js';
import { clearProblem, showProblem } from '/js/problems.js';

const SNOOZES = [['1 hour', 1], ['4 hours', 4], ['until tomorrow (24 h)', 24], ['3 days', 72]];

export function mount(root, params, navigate, session) {
  const id = params.argument;
  const canAct = session && (session.role === 'admin' || session.role === 'operator');
  const error = h('p', { class: 'notice error', hidden: true, id: 'finding-error', role: 'alert' });
  const host = h('div', { id: 'finding-page' });
  replace(root, error, host);

  function act(label, attrs, fn) {
    const b = h('button', { type: 'button', ...attrs }, label);
    b.addEventListener('click', async () => {
      clearProblem(error);
      b.disabled = true;
      try {
        render(await fn());
      } catch (e) {
        showProblem(error, e);
      } finally {
        b.disabled = false;
      }
    });
    return b;
  }

  function render(view) {
    const f = view.finding;
    const w = view.workflow;
    const where = f.gpu >= 0 ? `${f.node} GPU ${f.gpu}` : f.node;
    const evidence = Object.entries(f.evidence || {});
    const status = [];
    if (w.acknowledgedBy) status.push(h('span', { class: 'badge sev-info', id: 'finding-acked' }, `acknowledged by ${w.acknowledgedBy}`));
    if (w.assignee) status.push(h('span', { class: 'badge sev-info', id: 'finding-assignee' }, `assigned to ${w.assignee}`));
    if (w.snoozedUntil && Date.parse(w.snoozedUntil) > Date.now()) {
      status.push(h('span', { class: 'badge sev-warning', id: 'finding-snoozed' }, `snoozed until ${absolute(w.snoozedUntil)}`));
    }
    const cost = view.cost;
    const comment = h('textarea', { id: 'finding-comment', rows: 2, maxlength: 2000, placeholder: 'What you found or did' });
    const assignee = h('input', { id: 'finding-assign-to', placeholder: 'user name', value: w.assignee || '' });
    const snoozeFor = h('select', { id: 'finding-snooze-for' }, SNOOZES.map(([label, hours]) => h('option', { value: hours }, label)));
    const actions = canAct ? h('section', { class: 'panel', id: 'finding-actions' },
      h('h2', {}, 'Work on it'),
      h('div', { class: 'form-grid' },
        h('label', {}, 'Comment', comment, h('span', { class: 'hint' }, 'Saved with your name; acknowledging can carry it too.'))),
      h('div', { class: 'form-actions' },
        act('Acknowledge', { id: 'finding-ack', class: 'primary' },
          () => send('POST', `findings/${encodeURIComponent(id)}/acknowledge`, { comment: comment.value.trim() })),
        act('Add comment', { id: 'finding-add-comment' }, () => {
          if (!comment.value.trim()) throw new Error('Write a comment first.');
          return send('POST', `findings/${encodeURIComponent(id)}/comments`, { text: comment.value.trim() });
        })),
      h('div', { class: 'form-grid' },
        h('label', {}, 'Assign to', assignee)),
      h('div', { class: 'form-actions' },
        act('Assign', { id: 'finding-assign' }, () => send('POST', `findings/${encodeURIComponent(id)}/assign`, { assignee: assignee.value.trim() })),
        act('Assign to me', { id: 'finding-assign-me' }, () => send('POST', `findings/${encodeURIComponent(id)}/assign`, { assignee: session.user })),
        w.assignee ? act('Unassign', { id: 'finding-unassign' }, () => send('POST', `findings/${encodeURIComponent(id)}/assign`, { assignee: '' })) : ''),
      h('div', { class: 'form-grid' },
        h('label', {}, 'Snooze notifications for', snoozeFor, h('span', { class: 'hint' }, 'Detection goes on; only alerts stop. It shows as snoozed to everyone.'))),
      h('div', { class: 'form-actions' },
        act('Snooze', { id: 'finding-snooze' }, () => send('POST', `findings/${encodeURIComponent(id)}/snooze`, {
          until: new Date(Date.now() + Number(snoozeFor.value) * 3600_000).toISOString(), comment: comment.value.trim() })),
        w.snoozedUntil ? act('Wake', { id: 'finding-wake' }, () => send('POST', `findings/${encodeURIComponent(id)}/snooze`, { until: null })) : ''))
      : '';

    replace(host,
      h('div', { class: 'page-head' },
        h('h1', {}, h('span', { class: `sev sev-${f.severity}` }, f.severity), ' ', f.kind, ' on ', where),
        h('p', { class: 'muted' }, h('a', { href: '#/findings' }, '← All findings'), ' · ',
          h('a', { href: `#/nodes/${encodeURIComponent(f.node)}` }, `Node ${f.node}`))),
      h('section', { class: 'panel', id: 'finding-summary' },
        h('p', { class: 'lead' }, f.summary),
        f.recommendedAction ? h('p', {}, h('strong', {}, 'Recommended: '), h('span', { class: 'action', id: 'finding-action' }, f.recommendedAction)) : '',
        h('dl', { class: 'facts' },
          h('dt', {}, 'State'), h('dd', { id: 'finding-state', class: 'badges' }, h('span', { class: `state state-${f.state}` }, f.state), ...status),
          h('dt', {}, 'Since'), h('dd', {}, `${absolute(f.firstSeen)} (${relative(f.firstSeen)})`),
          h('dt', {}, f.resolvedAt ? 'Resolved' : 'Last seen'), h('dd', {}, absolute(f.resolvedAt || f.lastSeen)),
          h('dt', {}, 'GPU'), h('dd', { class: 'mono' }, `${gpuLabel(f.gpu)}${f.gpuUuid ? ' · ' + f.gpuUuid : ''}`),
          h('dt', {}, 'Cost so far'), h('dd', { id: 'finding-cost' },
            `${cost.gpuHours.toFixed(cost.gpuHours < 10 ? 3 : 1)} GPU-hours${cost.money != null ? ` · ${cost.money.toFixed(2)} ${cost.currency}` : ''}`),
          h('dt', {}, 'Finding'), h('dd', { class: 'mono small' }, f.id))),
      h('section', { class: 'panel' }, h('h2', {}, 'Evidence'),
        h('table', { class: 'table', id: 'finding-evidence' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Field'), h('th', { scope: 'col' }, 'Value'))),
          h('tbody', {}, evidence.length ? evidence.map(([k, v]) => h('tr', {}, h('th', { scope: 'row', class: 'mono' }, k), h('td', { class: 'mono' }, String(v))))
            : h('tr', { class: 'empty' }, h('td', { colspan: 2 }, 'No evidence recorded.'))))),
      actions,
      h('section', { class: 'panel' }, h('h2', {}, 'Timeline'),
        h('ol', { class: 'timeline', id: 'finding-timeline' }, view.timeline.map((t) => h('li', { data: { event: t.event } },
          h('span', { class: 'nowrap muted', title: absolute(t.at) }, absolute(t.at)), ' ',
          h('strong', {}, t.event), ` by ${t.by}`, t.text ? h('span', {}, `: ${t.text}`) : '')))),
      h('section', { class: 'panel' }, h('h2', {}, `Other findings on ${f.node}`),
        findingsTable('finding-related', view.related, ['kind', 'gpu', 'severity', 'state', 'since', 'summary'], 'None.')));
  }

  async function refresh() {
    try {
      render(await getJson(`findings/${encodeURIComponent(id)}`));
      clearProblem(error);
    } catch (e) {
      showProblem(error, e);
    }
  }

  refresh();
  return {
    refresh,
    onEvent() {},
    onCapacity() {},
    onFinding(f) { if (f && f.id === id) refresh(); },
    unmount() {},
  };
}
