// Findings page: every finding, filtered by state, kind and node, the worst and oldest first; each links to
// its own page. Export the same selection as CSV or JSON (with the operators' work on each).

import { download, getJson } from '/js/api.js';
import { debounce, h, replace } from '/js/dom.js';
import { findingsTable } from '/js/findings-table.js';
import { bySeverityThenAge } from '/js/format.js';

// Every kind the built-in detectors report (FindingKind.BUILT_IN); the kinds of every detector running (the BMC
// detectors, the appliance's own, a plugin's) are added from the health API when the page opens.
const KNOWN_KINDS = ['xid', 'ecc-dbe', 'ecc-sbe-rate', 'retired-pages-pending', 'row-remap-pending', 'row-remap-failure',
  'nvlink-errors', 'pcie-replay', 'pcie-downtrained', 'thermal-throttle', 'power-throttle', 'thermal-margin', 'straggler',
  'gpu-missing', 'telemetry-stale'];
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
  const exportState = h('span', { class: 'muted small', id: 'findings-export-state', role: 'status' });
  const exportButton = (format) => {
    const b = h('button', { type: 'button', id: `findings-export-${format}` }, `Export ${format.toUpperCase()}`);
    b.addEventListener('click', async () => {
      const query = new URLSearchParams({ state });
      if (kind) query.set('kind', kind);
      if (node) query.set('node', node);
      try {
        const file = await download(`findings.${format}?${query}`, `bulwark-findings.${format}`);
        const url = URL.createObjectURL(file.blob);
        const a = h('a', { href: url, download: file.filename });
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10000);
        exportState.textContent = `Saved ${file.filename} (${file.blob.size} bytes).`;
      } catch (e) {
        exportState.textContent = `Export failed: ${e.message}`;
      }
    });
    return b;
  };
  const form = h('form', { id: 'findings-filter', class: 'filters' },
    h('label', {}, 'State ', stateSelect),
    h('label', {}, 'Kind ', kindSelect),
    h('label', {}, 'Node ', nodeInput),
    h('label', {}, 'Show ', limitSelect),
    exportButton('csv'), exportButton('json'), exportState);
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
      const sorted = [...data.findings].sort(bySeverityThenAge);
      replace(host, findingsTable('findings-table', sorted, COLUMNS, 'No findings match these filters.'));
      error.hidden = true;
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
      replace(host);
    }
  }

  const refreshSoon = debounce(refresh, 500);
  refresh();
  // Every kind a running detector reports, besides the built-in ones: the filter offers them all.
  getJson('health').then((health) => {
    const all = [...new Set([...kinds, ...(health.detectors || [])])].sort();
    if (all.length === kinds.length) return;
    const chosen = kindSelect.value;
    replace(kindSelect, h('option', { value: '', selected: chosen === '' }, 'all kinds'),
      all.map((k) => h('option', { value: k, selected: k === chosen }, k)));
  }).catch(() => {});
  return {
    refresh,
    onCapacity() {},
    onFinding(f) {
      if ((!kind || f.kind === kind) && (!node || f.node === node)) refreshSoon();
    },
    unmount() {},
  };
}
