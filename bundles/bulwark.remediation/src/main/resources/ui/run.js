// One remediation run: the finding that started it, the policy version it follows, each step with what it did,
// what it recorded and the evidence it kept; approve or cancel it.

import { getJson, send } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { relative, absolute } from '/js/format.js';
import { clearProblem, showProblem, confirmButton } from '/js/problems.js';
import { runBadge } from '/ui/bulwark.remediation/remediation.js';

const STEP_CLASS = { done: 'subsystem-up', 'would-run': 'subsystem-up', running: 'subsystem-degraded', waiting: 'subsystem-degraded',
  failed: 'subsystem-down', skipped: 'target-unknown', pending: 'target-unknown', cancelled: 'target-unknown' };

export function mount(root, params, navigate, session) {
  const id = params.argument || '';
  const role = session && session.role;
  const canAct = role === 'admin' || role === 'operator';
  const error = h('p', { class: 'notice error', hidden: true, id: 'run-error', role: 'alert' });
  const body = h('div', { id: 'run' });
  replace(root, h('p', {}, h('a', { href: '#/remediation' }, '← Remediation')), error, body);
  let run = null;

  function kv(pairs) {
    return h('dl', { class: 'facts' }, Object.entries(pairs).filter(([, v]) => v !== '' && v !== undefined)
      .flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, String(v))]));
  }

  function render() {
    const r = run;
    const actions = [];
    if (canAct && r.state === 'awaiting-approval') {
      actions.push(r.approvalKillsJobs
        ? confirmButton('Approve the step', `Confirm: jobs on ${r.hostname} will be killed`, { id: 'run-approve', class: 'danger' }, () => act('approve'))
        : confirmButton('Approve the step', 'Confirm approve', { id: 'run-approve' }, () => act('approve')));
    }
    if (canAct && ['held', 'running', 'awaiting-approval'].includes(r.state)) {
      actions.push(confirmButton('Cancel the run', 'Confirm cancel', { id: 'run-cancel' }, () => act('cancel')));
    }
    replace(body,
      h('div', { class: 'page-head' }, h('h1', {}, `Run on ${r.hostname}`), runBadge(r)),
      h('p', {}, r.findingSummary),
      r.approvalKillsJobs ? h('p', { class: 'notice error', id: 'run-kills-jobs', role: 'alert' },
        `No scheduler drains ${r.hostname}: approving step ${r.current + 1} (${r.steps[r.current].step}) kills any job still running on it.`) : '',
      r.held ? h('p', { class: r.state === 'succeeded' ? 'notice' : 'notice error', id: 'run-held' }, r.held) : '',
      kv({ Run: r.id, Node: r.node, Machine: r.machine || '(none linked)', Policy: `${r.policy} v${r.policyVersion} (${r.mode})`,
        Finding: `${r.findingKind} ${r.findingId}`, 'Started by': r.startedBy, Created: absolute(r.created), Updated: `${absolute(r.updated)} (${relative(r.updated)})` }),
      h('div', { class: 'row-actions' }, actions),
      h('ol', { class: 'steps', id: 'run-steps' }, r.steps.map((s, i) => h('li', { data: { step: s.step, status: s.status }, class: i === r.current ? 'current' : '' },
        h('div', {}, h('strong', {}, s.step), s.optional ? h('span', { class: 'muted small' }, ' (optional)') : '', ' ',
          h('span', { class: `badge ${STEP_CLASS[s.status] || ''}` }, s.status.replace(/-/g, ' ')),
          s.started ? h('span', { class: 'muted small' }, ` ${absolute(s.started)}${s.ended ? ' → ' + absolute(s.ended) : ''}${s.attempts > 1 ? `, ${s.attempts} checks` : ''}`) : ''),
        s.detail ? h('div', { class: 'small step-detail' }, s.detail) : '',
        Object.keys(s.parameters).length ? h('div', { class: 'muted small' }, 'parameters: ' + Object.entries(s.parameters).map(([k, v]) => `${k}=${v}`).join(', ')) : '',
        Object.keys(s.evidence).length ? h('details', {}, h('summary', {}, 'evidence'), kv(s.evidence)) : ''))));
  }

  async function act(what) {
    try {
      run = await send('POST', `remediation/runs/${encodeURIComponent(id)}/${what}`, what === 'cancel' ? { reason: 'cancelled from the run page' }
        : { step: run.current, jobsMayBeKilled: run.approvalKillsJobs === true });
      clearProblem(error);
      render();
    } catch (e) {
      showProblem(error, e);
    }
  }

  async function refresh() {
    try {
      run = await getJson(`remediation/runs/${encodeURIComponent(id)}`);
      clearProblem(error);
      render();
    } catch (e) {
      showProblem(error, e);
    }
  }

  function onEvent(topic, data) {
    if (topic === 'remediation' && data && data.id === id) {
      run = data;
      render();
    }
  }

  refresh();
  const timer = setInterval(refresh, 15000);
  return { refresh, onEvent, unmount() { clearInterval(timer); } };
}
