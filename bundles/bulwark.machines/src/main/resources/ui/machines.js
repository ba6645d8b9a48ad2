// Machines: every managed server with its life-cycle state (as MAAS spells it), power, BMC health, the GPUs and
// open findings of its node, rack and owner; a filter, sortable columns, bulk operations with a confirmation that lists the machines, and (admin)
// adding a machine with its BMC. The credentials go straight into the sealed secret store.

import { getJson, send } from '/js/api.js';
import { h, replace, debounce } from '/js/dom.js';
import { relative, absolute } from '/js/format.js';
import { clearProblem, showProblem } from '/js/problems.js';
import { stateBadge, bmcBadge, POWER_LABEL } from '/ui/bulwark.machines/states.js';

const BULK = ['probe', 'power-on', 'power-off', 'power-cycle', 'soft-off', 'commission', 'mark-broken', 'mark-fixed',
  'lock', 'unlock', 'abort'];
const PAGE = 200;
const COLUMNS = [
  ['id', 'Machine'], ['state', 'State'], ['power', 'Power'], ['bmc', 'BMC'], ['gpus', 'GPUs'],
  ['openFindings', 'Open findings'], ['rack', 'Rack'], ['owner', 'Owner'], ['since', 'In state since'],
];

export function mount(root, params, navigate, session) {
  const role = session && session.role;
  const canAct = role === 'admin' || role === 'operator';
  const isAdmin = role === 'admin';
  const error = h('p', { class: 'notice error', hidden: true, id: 'machines-error', role: 'alert' });
  const search = h('input', { id: 'machines-search', type: 'search', placeholder: 'host, rack, tag, state…', 'aria-label': 'Filter machines', value: params.q || '' });
  const stateFilter = h('select', { id: 'machines-state', 'aria-label': 'State' }, h('option', { value: '' }, 'all states'));
  const count = h('span', { class: 'muted', id: 'machines-count' });
  const tableHost = h('div', { class: 'table-wrap' });
  const bulkOp = h('select', { id: 'machines-bulk-op', 'aria-label': 'Operation for the selected machines' },
    BULK.map((op) => h('option', { value: op }, op.replace(/-/g, ' '))));
  const bulkButton = h('button', { type: 'button', id: 'machines-bulk', disabled: true }, 'Apply to selected');
  const confirmHost = h('div', { id: 'machines-confirm', hidden: true, class: 'panel' });
  const results = h('ul', { id: 'machines-results', class: 'small', hidden: true });
  let machines = [];
  let sort = { key: 'id', dir: 1 };
  let limit = PAGE;
  const selected = new Set();

  const addForm = isAdmin ? addMachineForm(() => refresh()) : '';
  const importForm = isAdmin ? importInventoryForm(() => refresh()) : '';
  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'Machines'), count),
    h('p', { class: 'muted' }, 'The servers Bulwark manages through their BMCs. States are spelled as MAAS spells them; '
      + 'power, probe and boot operations run at the BMC in the background and their result shows in each machine\'s history.'),
    error,
    h('div', { class: 'filters' }, search, stateFilter,
      canAct ? h('span', { class: 'row-actions' }, bulkOp, bulkButton) : ''),
    confirmHost, results,
    h('section', { class: 'panel' }, tableHost),
    addForm, importForm);

  search.addEventListener('input', debounce(() => { limit = PAGE; render(); }, 150));
  stateFilter.addEventListener('change', () => { limit = PAGE; render(); });
  bulkButton.addEventListener('click', () => confirmBulk());

  function visible() {
    const q = search.value.trim().toLowerCase();
    const st = stateFilter.value;
    return machines.filter((m) => (!st || m.state === st)
      && (!q || [m.id, m.hostname, m.rack, m.stateLabel, m.state, m.owner || '', ...(m.tags || [])].join(' ').toLowerCase().includes(q)))
      .sort((a, b) => sort.dir * String(key(a, sort.key)).localeCompare(String(key(b, sort.key)), undefined, { numeric: true }));
  }

  function key(m, k) {
    switch (k) {
      case 'state': return m.stateLabel;
      case 'bmc': return m.bmc ? (m.bmc.error ? '0' : '1') : '2';
      case 'since': return m.stateSince;
      case 'owner': return m.owner || '';
      case 'gpus': return m.gpus === null || m.gpus === undefined ? -1 : m.gpus;
      case 'openFindings': return m.openFindings || 0;
      default: return m[k] || '';
    }
  }

  function render() {
    const rows = visible();
    count.textContent = `${rows.length} of ${machines.length}`;
    const head = h('tr', {},
      canAct ? h('th', { scope: 'col' }, h('input', { type: 'checkbox', 'aria-label': 'Select all shown', id: 'machines-select-all',
        onchange: (e) => { rows.forEach((m) => (e.target.checked ? selected.add(m.id) : selected.delete(m.id))); render(); } })) : '',
      COLUMNS.map(([k, label]) => h('th', { scope: 'col', 'aria-sort': sort.key === k ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none' },
        h('button', { type: 'button', class: 'sort-button', data: { sort: k }, onclick: () => { sort = { key: k, dir: sort.key === k ? -sort.dir : 1 }; render(); } }, label))));
    const body = rows.length ? rows.slice(0, limit).map((m) => h('tr', { data: { machine: m.id } },
      canAct ? h('td', {}, h('input', { type: 'checkbox', 'aria-label': `Select ${m.id}`, checked: selected.has(m.id),
        onchange: (e) => { if (e.target.checked) selected.add(m.id); else selected.delete(m.id); updateBulk(); } })) : '',
      h('td', { class: 'mono' }, h('a', { href: `#/machine/${encodeURIComponent(m.id)}` }, m.id), m.locked ? ' 🔒' : ''),
      h('td', {}, stateBadge(m), m.pending ? h('span', { class: 'muted small' }, ` ${m.pending}…`) : ''),
      h('td', {}, POWER_LABEL[m.power] || m.power),
      h('td', {}, bmcBadge(m)),
      h('td', { class: 'num' }, m.gpus === null || m.gpus === undefined ? '–' : m.gpus),
      h('td', { class: 'num', data: { findings: m.openFindings || 0 } }, m.openFindings
        ? h('a', { href: `#/nodes/${encodeURIComponent(m.node || m.hostname)}` }, m.openFindings) : '0'),
      h('td', {}, m.rack || '–'),
      h('td', { class: 'mono' }, m.owner || '–'),
      h('td', { class: 'nowrap', title: absolute(m.stateSince) }, relative(m.stateSince))))
      : [h('tr', { class: 'empty' }, h('td', { colspan: COLUMNS.length + 1 }, machines.length ? 'No machine matches.' : 'No machines yet.'))];
    // At most `limit` rows in the page (a fleet has thousands): the filter narrows, "show more" extends.
    const more = rows.length > limit
      ? h('p', { class: 'muted' }, `Showing ${limit} of ${rows.length}. `,
        h('button', { type: 'button', id: 'machines-more', onclick: () => { limit += PAGE; render(); } }, `Show ${Math.min(PAGE, rows.length - limit)} more`))
      : '';
    replace(tableHost, h('table', { class: 'table', id: 'machines-table' }, h('thead', {}, head), h('tbody', {}, body)), more);
    updateBulk();
  }

  function updateBulk() {
    bulkButton.disabled = selected.size === 0;
    bulkButton.textContent = selected.size ? `Apply to ${selected.size} selected` : 'Apply to selected';
  }

  function confirmBulk() {
    const op = bulkOp.value;
    const ids = [...selected].sort();
    const go = h('button', { type: 'button', class: 'danger', id: 'machines-bulk-confirm' }, `${op.replace(/-/g, ' ')} ${ids.length} machine(s)`);
    const cancel = h('button', { type: 'button' }, 'Cancel');
    replace(confirmHost,
      h('h2', {}, `Confirm: ${op.replace(/-/g, ' ')}`),
      h('p', {}, `This runs ${op} on these ${ids.length} machine(s):`),
      h('ul', { class: 'mono', id: 'machines-confirm-list' }, ids.map((id) => h('li', {}, id))),
      h('div', { class: 'form-actions' }, go, cancel));
    confirmHost.hidden = false;
    cancel.addEventListener('click', () => { confirmHost.hidden = true; });
    go.addEventListener('click', async () => {
      go.disabled = true;
      replace(results);
      for (const id of ids) {
        try {
          await send('POST', `machines/${encodeURIComponent(id)}/${op}`, { reason: `bulk ${op}` });
          results.append(h('li', { data: { result: 'ok' } }, `${id}: ${op} accepted`));
        } catch (e) {
          results.append(h('li', { data: { result: 'refused' }, class: 'error' }, `${id}: ${e.message}`));
        }
      }
      confirmHost.hidden = true;
      results.hidden = false;
      selected.clear();
      refresh();
    });
  }

  async function refresh() {
    try {
      const data = await getJson('machines');
      machines = data.machines;
      const states = [...new Set(machines.map((m) => m.state))].sort();
      const chosen = stateFilter.value;
      replace(stateFilter, h('option', { value: '' }, 'all states'),
        states.map((s) => h('option', { value: s, selected: s === chosen }, machines.find((m) => m.state === s).stateLabel)));
      clearProblem(error);
      render();
    } catch (e) {
      showProblem(error, e);
    }
  }

  // Live: machine events update the list (at most one re-read a second while many arrive).
  const soon = debounce(refresh, 1000);
  function onEvent(topic) {
    if (topic === 'machine') soon();
  }

  refresh();
  const timer = setInterval(refresh, 30000);
  return { refresh, onEvent, onCapacity() {}, onFinding() {}, unmount() { clearInterval(timer); } };
}

function addMachineForm(done) {
  const field = (id, label, attrs = {}) => h('label', {}, label, h('input', { id, ...attrs }));
  const formError = h('p', { class: 'notice error', hidden: true, id: 'machine-add-error', role: 'alert' });
  const form = h('form', { id: 'machine-add' },
    h('div', { class: 'form-grid' },
      field('machine-hostname', 'Host name', { required: true, placeholder: 'dgx-a07' }),
      field('machine-macs', 'MAC addresses', { placeholder: '02:42:ac:11:00:07, …' }),
      field('machine-rack', 'Rack', { placeholder: 'r07' }),
      field('machine-tags', 'Tags', { placeholder: 'h100, training' }),
      field('machine-bmc-address', 'BMC address', { placeholder: '10.2.0.17' }),
      field('machine-bmc-user', 'BMC user', { autocomplete: 'off' }),
      field('machine-bmc-password', 'BMC password', { type: 'password', autocomplete: 'new-password' })),
    h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', id: 'machine-add-submit' }, 'Add machine')),
    formError);
  const list = (v) => v.split(',').map((x) => x.trim()).filter(Boolean);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearProblem(formError);
    const v = (id) => form.querySelector(`#${id}`).value.trim();
    const body = { hostname: v('machine-hostname'), macs: list(v('machine-macs')), rack: v('machine-rack'), tags: list(v('machine-tags')) };
    if (v('machine-bmc-address')) {
      body.bmc = { address: v('machine-bmc-address'), username: v('machine-bmc-user'), password: form.querySelector('#machine-bmc-password').value };
    }
    try {
      await send('POST', 'machines', body);
      form.reset();
      done();
    } catch (e) {
      showProblem(formError, e);
    }
  });
  return h('section', { class: 'panel' }, h('h2', {}, 'Add a machine'), form);
}

function importInventoryForm(done) {
  const text = h('textarea', { id: 'machines-import-csv', rows: 6, spellcheck: 'false',
    placeholder: 'hostname,macs,rack,tags,bmc_address,bmc_port,bmc_username,bmc_password,bmc_sha256\ndgx-a07,02:42:ac:11:00:07,r07,h100,10.2.0.17,,root,…,' });
  const file = h('input', { type: 'file', id: 'machines-import-file', accept: '.csv,text/csv' });
  const outcome = h('p', { class: 'notice ok', hidden: true, id: 'machines-import-result' });
  const formError = h('p', { class: 'notice error', hidden: true, id: 'machines-import-error', role: 'alert' });
  file.addEventListener('change', async () => {
    if (file.files.length) text.value = await file.files[0].text();
  });
  async function run(dryRun) {
    clearProblem(formError);
    outcome.hidden = true;
    try {
      const r = await send('POST', 'machines/import', { csv: text.value, dryRun });
      outcome.textContent = dryRun
        ? `Checked: ${r.wouldAdd} machine(s) would be added, ${r.existing} exist already. Nothing was changed.`
        : `Added ${r.added} machine(s); ${r.existing} existed already and were left as they are.`;
      outcome.hidden = false;
      if (!dryRun) done();
    } catch (e) {
      showProblem(formError, e);
    }
  }
  return h('section', { class: 'panel' }, h('h2', {}, 'Import an inventory (CSV)'),
    h('p', { class: 'muted small' }, 'One machine per row under a header row naming the columns (hostname, id, macs, rack, zone, tags, node, '
      + 'bmc_protocol, bmc_address, bmc_port, bmc_username, bmc_password, bmc_sha256; lists separated by ";"). Every row is checked first: '
      + 'if one cannot be used, nothing is added. Machines that exist are left as they are.'),
    h('div', { class: 'form-stack' }, h('label', {}, 'File', file), h('label', {}, 'CSV', text)),
    h('div', { class: 'form-actions' },
      h('button', { type: 'button', id: 'machines-import-check', onclick: () => run(true) }, 'Check'),
      h('button', { type: 'button', class: 'primary', id: 'machines-import-run', onclick: () => run(false) }, 'Import')),
    outcome, formError);
}
