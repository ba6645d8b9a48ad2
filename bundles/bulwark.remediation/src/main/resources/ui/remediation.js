// Remediation: the runs that take bad nodes out of service, repair them and bring them back, live; what holds
// runs back (the isolation limits, the kill switch, the circuit breaker); and the policies that say what each
// kind of finding gets. Operators approve, cancel and pull the kill switch; admins change policies and limits.

import { getJson, send } from '/js/api.js';
import { h, replace, debounce } from '/js/dom.js';
import { relative, absolute } from '/js/format.js';
import { clearProblem, showProblem, confirmButton } from '/js/problems.js';

const PAGE = 200;
const ACTIVE = new Set(['held', 'running', 'awaiting-approval']);

export function runBadge(run) {
  const cls = run.state === 'succeeded' ? 'subsystem-up'
    : run.state === 'running' || run.state === 'awaiting-approval' ? 'subsystem-degraded'
      : run.state === 'held' ? 'target-unknown' : run.state === 'cancelled' ? 'target-unknown' : 'subsystem-down';
  const label = run.state === 'succeeded' && run.mode === 'dry-run' ? 'dry-run shown' : run.state.replace(/-/g, ' ');
  return h('span', { class: `badge ${cls}`, data: { state: run.state } }, label);
}

export function currentStep(run) {
  const s = run.steps[run.current];
  if (!s) return run.held || '';
  return `${s.step}: ${s.detail || s.status}`;
}

export function mount(root, params, navigate, session) {
  const role = session && session.role;
  const canAct = role === 'admin' || role === 'operator';
  const isAdmin = role === 'admin';
  const error = h('p', { class: 'notice error', hidden: true, id: 'remediation-error', role: 'alert' });
  const banner = h('div', { id: 'remediation-banner' });
  const summary = h('div', { class: 'capacity-stats', id: 'remediation-summary' });
  const search = h('input', { id: 'runs-search', type: 'search', placeholder: 'node, finding, policy, state…', 'aria-label': 'Filter runs', value: params.q || '' });
  const count = h('span', { class: 'muted', id: 'runs-count' });
  const runsHost = h('div', { class: 'table-wrap', id: 'runs' });
  const policiesHost = h('div', { class: 'table-wrap', id: 'policies' });
  const guardHost = h('div', { id: 'guardrails' });
  let runs = [];
  let overview = null;
  let policies = [];
  let limit = PAGE;

  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'Remediation'), count),
    h('p', { class: 'muted' }, 'A finding that matches a policy becomes a run: the node is drained in its scheduler, repaired '
      + '(GPU reset, power cycle through its BMC), re-validated and returned to service, or handed to a person with the '
      + 'evidence. Every step is stored before it is acted on and audited.'),
    error, banner, summary,
    h('section', { class: 'panel' }, h('h2', {}, 'Runs'), h('div', { class: 'filters' }, search), runsHost),
    h('section', { class: 'panel' }, h('h2', {}, 'Guardrails'), guardHost),
    h('section', { class: 'panel' }, h('h2', {}, 'Policies'), policiesHost));

  search.addEventListener('input', debounce(() => { limit = PAGE; renderRuns(); }, 150));

  function act(label, confirmLabel, id, fn) {
    return confirmButton(label, confirmLabel, { id }, async () => {
      try { await fn(); clearProblem(error); await refresh(); } catch (e) { showProblem(error, e); }
    });
  }

  function renderBanner() {
    const g = overview.guardrails;
    const parts = [];
    if (g.killSwitch) {
      parts.push(h('p', { class: 'notice error', id: 'kill-switch-on', role: 'status' },
        'The kill switch is on: no step is carried out anywhere and no run starts. ',
        isAdmin ? act('Turn the kill switch off', 'Confirm: resume automation', 'kill-switch-off', () => send('POST', 'remediation/kill-switch', { on: false })) : ''));
    }
    if (g.breakerOpen) {
      parts.push(h('p', { class: 'notice error', id: 'breaker-open', role: 'status' },
        `The circuit breaker is open after ${g.failuresInARow} failed runs in a row: automation waits for an admin. `,
        isAdmin ? act('Reset the breaker', 'Confirm reset', 'breaker-reset', () => send('POST', 'remediation/breaker/reset', {})) : ''));
    }
    const dry = policies.filter((p) => p.enabled && p.mode === 'dry-run').length;
    if (dry > 0 && dry === policies.filter((p) => p.enabled).length) {
      parts.push(h('p', { class: 'notice', id: 'all-dry-run' }, 'Every policy is in dry-run: runs show what would be done and touch nothing. '
        + 'An admin sets a policy to automatic or approve-destructive below.'));
    }
    replace(banner, parts);
  }

  function renderSummary() {
    const c = overview.runs;
    const card = (id, label, value, note) => h('div', { class: 'stat', id }, h('div', { class: 'stat-label' }, label),
      h('div', { class: 'stat-value' }, String(value)), note ? h('div', { class: 'muted small' }, note) : '');
    replace(summary,
      card('isolated', 'Nodes isolated', `${overview.isolated} of ${overview.isolationLimit}`, `at most ${overview.guardrails.maxIsolatedPercent}% of the fleet`),
      card('runs-running', 'Running', c.running + c['awaiting-approval'], c['awaiting-approval'] ? `${c['awaiting-approval']} awaiting approval` : ''),
      card('runs-held', 'Held back', c.held, c.held ? 'by a guardrail' : ''),
      card('runs-failed', 'Failed or escalated', c.failed + c.escalated, 'to a person'),
      card('runs-succeeded', 'Succeeded', c.succeeded, 'repaired and back in service'),
      card('runs-dry', 'Dry runs', c['dry-run'] || 0, 'plans shown, nothing done'),
      card('schedulers', 'Schedulers', overview.schedulers.length ? overview.schedulers.join(', ') : 'none', ''),
      h('div', { class: 'stat' }, canAct && !overview.guardrails.killSwitch
        ? act('Kill switch: stop all automation', 'Confirm: stop everything', 'kill-switch', () => send('POST', 'remediation/kill-switch', { on: true }))
        : h('span', { class: 'muted' }, overview.guardrails.killSwitch ? 'kill switch on' : '')));
  }

  function visibleRuns() {
    const q = search.value.trim().toLowerCase();
    return runs.filter((r) => !q || [r.id, r.node, r.hostname, r.findingKind, r.findingSummary, r.policy, r.state, r.held]
      .join(' ').toLowerCase().includes(q))
      .sort((a, b) => (ACTIVE.has(b.state) - ACTIVE.has(a.state)) || b.created.localeCompare(a.created));
  }

  function renderRuns() {
    const rows = visibleRuns();
    count.textContent = `${rows.filter((r) => ACTIVE.has(r.state)).length} active, ${rows.length} runs`;
    const table = h('table', { class: 'table', id: 'runs-table' },
      h('thead', {}, h('tr', {}, ['Run', 'Node', 'Finding', 'Policy', 'State', 'Step or reason', 'Updated', ''].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows.slice(0, limit).map((r) => h('tr', { data: { run: r.id, node: r.node, state: r.state } },
        h('td', { class: 'nowrap' }, h('a', { href: `#/remediation-run/${encodeURIComponent(r.id)}`, title: r.id }, absolute(r.created))),
        h('td', {}, h('a', { href: `#/node/${encodeURIComponent(r.node)}` }, r.hostname)),
        h('td', { title: r.findingSummary }, r.findingKind),
        h('td', {}, `${r.policy} v${r.policyVersion}`, r.mode === 'automatic' ? '' : h('span', { class: 'muted small' }, ` ${r.mode}`)),
        h('td', {}, runBadge(r)),
        h('td', { class: 'small run-step' }, r.state === 'held' || r.state === 'escalated' || r.state === 'failed' ? r.held : currentStep(r)),
        h('td', { title: absolute(r.updated) }, relative(r.updated)),
        h('td', { class: 'row-actions' }, canAct && r.state === 'awaiting-approval'
          ? act('Approve', r.approvalKillsJobs ? `Confirm: jobs on ${r.hostname} will be killed` : 'Confirm approve', `approve-${r.id}`,
            () => send('POST', `remediation/runs/${encodeURIComponent(r.id)}/approve`, { step: r.current, jobsMayBeKilled: r.approvalKillsJobs === true })) : '',
        canAct && ACTIVE.has(r.state)
          ? act('Cancel', 'Confirm cancel', `cancel-${r.id}`, () => send('POST', `remediation/runs/${encodeURIComponent(r.id)}/cancel`, { reason: 'cancelled from the Remediation page' })) : '')))));
    const more = rows.length > limit ? h('button', { type: 'button', id: 'runs-more', onclick: () => { limit += PAGE; renderRuns(); } }, `Show ${Math.min(PAGE, rows.length - limit)} more`) : '';
    replace(runsHost, rows.length ? table : h('p', { class: 'muted', id: 'runs-empty' }, 'No run yet: no finding has matched an enabled policy.'), more);
  }

  function renderGuardrails() {
    const g = overview.guardrails;
    const item = (label, value) => h('li', {}, h('strong', {}, `${label}: `), value);
    const list = h('ul', { class: 'small', id: 'guardrails-list' },
      item('Isolated at once', `at most ${g.maxIsolatedPercent}% of the fleet (${overview.isolationLimit} node(s) now)`
        + (g.maxIsolatedPerRack ? `, ${g.maxIsolatedPerRack} per rack` : '')),
      item('Scheduler partitions keep', `${g.minAvailablePerPool} available node(s)`),
      item('Flap suppression', `${g.flapRuns} run(s) within ${g.flapWindowMinutes} min send the node to a person`),
      item('Cooldown', `${g.cooldownMinutes} min between runs on a node`),
      item('Circuit breaker', `opens after ${g.breakerFailures} failed runs in a row (${g.failuresInARow} now)`),
      item('Maintenance windows', g.windows.length ? g.windows.map((w) => `${w.start}–${w.end}`).join(', ') : 'destructive steps may start at any time'));
    if (!isAdmin) { replace(guardHost, list); return; }
    const num = (id, label, value) => h('label', {}, label, h('input', { id: `g-${id}`, type: 'number', min: 0, value }));
    const form = h('form', { id: 'guardrails-form' }, h('div', { class: 'form-grid' },
      num('maxIsolatedPercent', '% of fleet', g.maxIsolatedPercent), num('maxIsolatedPerRack', 'per rack', g.maxIsolatedPerRack),
      num('minAvailablePerPool', 'kept per partition', g.minAvailablePerPool), num('flapRuns', 'flap runs', g.flapRuns),
      num('flapWindowMinutes', 'flap window (min)', g.flapWindowMinutes), num('cooldownMinutes', 'cooldown (min)', g.cooldownMinutes),
      num('breakerFailures', 'breaker after failures', g.breakerFailures)),
    h('button', { type: 'submit', id: 'guardrails-save' }, 'Save limits'));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const body = {};
      for (const k of ['maxIsolatedPercent', 'maxIsolatedPerRack', 'minAvailablePerPool', 'flapRuns', 'flapWindowMinutes', 'cooldownMinutes', 'breakerFailures']) {
        body[k] = Number(form.querySelector(`#g-${k}`).value);
      }
      try { await send('PUT', 'remediation/guardrails', body); clearProblem(error); await refresh(); } catch (err) { showProblem(error, err); }
    });
    replace(guardHost, list, form);
  }

  function renderPolicies() {
    const table = h('table', { class: 'table', id: 'policies-table' },
      h('thead', {}, h('tr', {}, ['Policy', 'Answers', 'Ladder', 'Mode', 'Version', ''].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, policies.map((p) => h('tr', { data: { policy: p.id } },
        h('td', { title: p.description }, h('strong', {}, p.name), h('div', { class: 'muted small' }, p.id + (p.enabled ? '' : ' (disabled)'))),
        h('td', { class: 'small' }, p.kinds.join(', ') + (p.xids.length ? ` (XID ${p.xids.join(', ')})` : '')),
        h('td', { class: 'small' }, p.steps.map((s) => s.step + (s.optional ? '?' : '')).join(' → '),
          p.recurrenceSteps.length ? h('div', { class: 'muted' }, 'again: ' + p.recurrenceSteps.map((s) => s.step).join(' → ')) : ''),
        h('td', {}, isAdmin ? modeSelect(p) : p.mode),
        h('td', { title: `by ${p.updatedBy} at ${absolute(p.updatedAt)}` }, `v${p.version}`),
        h('td', {}, isAdmin ? h('button', { type: 'button', id: `edit-${p.id}`, onclick: () => editPolicy(p) }, 'Edit') : '')))));
    replace(policiesHost, table, h('div', { id: 'policy-editor' }));
  }

  function modeSelect(p) {
    const sel = h('select', { id: `mode-${p.id}`, 'aria-label': `Mode of ${p.name}` },
      ['dry-run', 'approve-destructive', 'automatic'].map((m) => h('option', { value: m, selected: m === p.mode }, m)));
    sel.addEventListener('change', async () => {
      try { await send('PUT', `remediation/policies/${p.id}`, { ...strip(p), mode: sel.value }); clearProblem(error); await refresh(); } catch (e) { showProblem(error, e); sel.value = p.mode; }
    });
    return sel;
  }

  function strip(p) {
    const { id, version, updatedBy, updatedAt, ...rest } = p;
    return rest;
  }

  function editPolicy(p) {
    const host = policiesHost.querySelector('#policy-editor');
    const text = h('textarea', { id: 'policy-json', rows: 18, cols: 90, 'aria-label': `Policy ${p.id} as JSON` }, JSON.stringify(strip(p), null, 2));
    const save = h('button', { type: 'button', id: 'policy-save' }, `Save as v${p.version + 1}`);
    save.addEventListener('click', async () => {
      let body;
      try { body = JSON.parse(text.value); } catch (e) { showProblem(error, new Error(`The policy is not valid JSON: ${e.message}`)); return; }
      try { await send('PUT', `remediation/policies/${p.id}`, body); clearProblem(error); await refresh(); } catch (e) { showProblem(error, e); }
    });
    replace(host, h('h3', {}, `Edit ${p.name}`), h('p', { class: 'muted small' }, `Steps installed: ${overview.steps.join(', ')}. A step marked "optional" is skipped where it cannot be done.`), text, h('div', {}, save));
  }

  async function refresh() {
    try {
      const [o, r, p] = await Promise.all([getJson('remediation'), getJson('remediation/runs?limit=2000'), getJson('remediation/policies')]);
      overview = o; runs = r.runs; policies = p.policies;
      clearProblem(error);
      renderBanner(); renderSummary(); renderRuns(); renderGuardrails(); renderPolicies();
    } catch (e) {
      showProblem(error, e);
    }
  }

  // Live: every run change arrives as a 'remediation' event; the page re-reads at most twice a second.
  const soon = debounce(refresh, 500);
  function onEvent(topic, data) {
    if (topic !== 'remediation' || !data) return;
    const i = runs.findIndex((r) => r.id === data.id);
    if (i >= 0) runs[i] = data; else runs.unshift(data);
    renderRuns();
    soon();
  }

  refresh();
  const timer = setInterval(refresh, 30000);
  return { refresh, onEvent, unmount() { clearInterval(timer); } };
}
