// Findings page: every finding, filtered by state, kind and node.

import { getJson } from '/js/api.js';
import { debounce, h, replace } from '/js/dom.js';
import { findingsTable } from '/js/findings-table.js';

const KNOWN_KINDS = ['xid', 'ecc-dbe', 'row-remap-failure', 'thermal-throttle', 'power-throttle', 'straggler', 'gpu-missing'];
const COLUMNS = ['kind', 'node', 'gpu', 'severity', 'state', 'firstSeen', 'lastSeen', 'resolvedAt', 'occurrences', 'summary', 'action'];
const LIMITS = [100, 200, 1000];

export function mount(root, params, navigate) {
  const state = ['open', 'resolved', 'all'].includes(params.state) ? params.state : 'open';
  const kind = params.kind || '';
  const node = params.node || '';
  const limit = LIMITS.includes(Number(params.limit)) ? Number(params.limit) : 200;

  const kinds = [...new Set([...KNOWN_KINDS, ...(kind ? [kind] : [])])].sort();
  const stateSelect = h('select', { name: 'state', id: 'filter-state' },
    ['open', 'resolved', 'all'].map((v) => h('option', { value: v, selected: v === state }, v)));
  const kindSelect = h('select', { name: 'kind', id: 'filter-kind' },
    h('option', { value: '', selected: kind === '' }, 'all kinds'),
    kinds.map((k) => h('option', { value: k, selected: k === kind }, k)));
  const nodeInput = h('input', { name: 'node', id: 'filter-node', type: 'search', value: node, placeholder: 'node name', spellcheck: 'false' });
  const limitSelect = h('select', { name: 'limit', id: 'filter-limit' },
    LIMITS.map((v) => h('option', { value: v, selected: v === limit }, `newest ${v}`)));
  const form = h('form', { id: 'findings-filter', class: 'filters' },
    h('label', {}, 'State ', stateSelect),
    h('label', {}, 'Kind ', kindSelect),
    h('label', {}, 'Node ', nodeInput),
    h('label', {}, 'Show ', limitSelect));
  const count = h('span', { class: 'count', id: 'findings-count' });
  const error = h('p', { class: 'notice error', hidden: true, id: 'findings-error' });
  const host = h('div', { class: 'table-wrap' });

  const apply = () => {
    const query = new URLSearchParams();
    query.set('state', stateSelect.value);
    if (kindSelect.value) query.set('kind', kindSelect.value);
    if (nodeInput.value.trim()) query.set('node', nodeInput.value.trim());
    query.set('limit', limitSelect.value);
    navigate(`#/findings?${query}`);
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    apply();
  });
  [stateSelect, kindSelect, limitSelect].forEach((el) => el.addEventListener('change', apply));
  nodeInput.addEventListener('change', apply);

  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'Findings'), count),
    form, error,
    h('section', { class: 'panel' }, host));

  async function refresh() {
    const query = new URLSearchParams({ state, limit: String(limit) });
    if (kind) query.set('kind', kind);
    if (node) query.set('node', node);
    try {
      const data = await getJson(`findings?${query}`);
      count.textContent = data.count === limit ? `newest ${data.count}` : `${data.count}`;
      replace(host, findingsTable('findings-table', data.findings, COLUMNS, 'No findings match these filters.'));
      error.hidden = true;
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
      replace(host);
    }
  }

  const refreshSoon = debounce(refresh, 500);
  refresh();
  return {
    refresh,
    onCapacity() {},
    onFinding(f) {
      if ((!kind || f.kind === kind) && (!node || f.node === node)) refreshSoon();
    },
    unmount() {},
  };
}
