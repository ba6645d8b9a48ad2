// Node page: facts about one node, its GPUs, one chart per metric with every GPU on a shared axis (GPUs with a
// problem highlighted, finding bands shaded, XID/ECC events marked, values of all GPUs at the pointer), and
// the node's findings (open and resolved).

import { getJson } from '/js/api.js';
import { gpuChart } from '/js/chart.js';
import { debounce, h, replace } from '/js/dom.js';
import { absolute, percent, relative } from '/js/format.js';
import { findingsTable } from '/js/findings-table.js';

const METRICS = [
  { name: 'DCGM_FI_DEV_GPU_UTIL', label: 'Utilisation', unit: '%', digits: 0 },
  { name: 'DCGM_FI_DEV_GPU_TEMP', label: 'GPU temperature', unit: '°C', digits: 0 },
  { name: 'DCGM_FI_DEV_MEMORY_TEMP', label: 'Memory temperature', unit: '°C', digits: 0 },
  { name: 'DCGM_FI_DEV_SM_CLOCK', label: 'SM clock', unit: 'MHz', digits: 0 },
  { name: 'DCGM_FI_DEV_POWER_USAGE', label: 'Power', unit: 'W', digits: 0 },
  { name: 'DCGM_FI_DEV_FB_USED', label: 'Framebuffer used', unit: 'MiB', digits: 0 },
];
// Findings that are events at a moment rather than states over time: marked on every chart.
const EVENT_KINDS = ['xid', 'ecc-dbe', 'ecc-sbe-rate', 'row-remap-failure', 'row-remap-pending', 'retired-pages-pending', 'pcie-replay', 'nvlink-errors'];
const WINDOWS = [10, 60, 720, 1440, 10080];
const NODE_COLUMNS = ['kind', 'gpu', 'severity', 'state', 'firstSeen', 'lastSeen', 'resolvedAt', 'summary', 'action'];

export function mount(root, params, navigate) {
  const id = params.node;
  const minutes = WINDOWS.includes(Number(params.minutes)) ? Number(params.minutes) : 10;

  const title = h('h1', { id: 'node-title', class: 'mono', data: { node: id } }, id);
  const facts = h('dl', { class: 'facts', id: 'node-facts' });
  const select = h('select', { id: 'window-select', 'aria-label': 'Time window' },
    WINDOWS.map((m) => h('option', { value: m, selected: m === minutes }, m < 60 ? `${m} min` : m < 2880 ? `${m / 60} h` : `${m / 1440} d`)));
  select.addEventListener('change', () => navigate(`#/nodes/${encodeURIComponent(id)}?minutes=${select.value}`));
  const error = h('p', { class: 'notice error', hidden: true, id: 'node-error' });
  const gpuHost = h('div', { class: 'table-wrap' });
  const historyNote = h('p', { class: 'muted small', id: 'history-note' });
  const charts = h('div', { id: 'gpu-charts', class: 'gpu-charts' });
  const findingsHost = h('div', { class: 'table-wrap' });

  replace(root,
    h('nav', { class: 'crumbs' }, h('a', { href: '#/' }, 'Fleet'), ' / ', h('span', { class: 'mono' }, id)),
    h('div', { class: 'page-head' }, title, h('label', { class: 'window' }, 'Window ', select)),
    error,
    facts,
    h('section', { class: 'panel' }, h('h2', {}, 'GPUs'), gpuHost),
    h('section', { class: 'panel' }, h('h2', {}, 'Telemetry'), historyNote, charts),
    h('section', { class: 'panel' }, h('h2', {}, 'Findings on this node'), findingsHost));

  function render(data, machines) {
    const node = data.node;
    const w = data.window;
    historyNote.textContent = w.minutes > 10 ? historyText(w) : '';
    replace(facts,
      fact('GPUs installed', node.gpusInstalled),
      fact('GPUs reporting', node.gpusReporting),
      fact('Open findings', node.openFindings),
      fact('Worst severity', node.worstSeverity || 'none'),
      fact('Last scrape', node.lastScrape ? `${relative(node.lastScrape)} (${absolute(node.lastScrape)})` : 'never'),
      fact('First seen', absolute(node.firstSeen)),
      machines.length ? fact('Machine', machines.map((m, i) => [i ? ', ' : '',
        h('a', { href: `#/machine/${encodeURIComponent(m.id)}`, class: 'mono node-machine' }, m.id)])) : '');
    replace(gpuHost, gpuTable(data.gpus));
    replace(charts, METRICS.map((m) => metricChart(m, data)));
    replace(findingsHost, findingsTable('node-findings', data.findings, NODE_COLUMNS, 'No findings recorded on this node.'));
  }

  function historyText(w) {
    const parts = [];
    if (w.dataFrom && w.dataFrom > w.from + 120000) {
      parts.push(`Telemetry from ${absolute(w.dataFrom)} on: the appliance holds nothing older for this node`
        + ' (rollupRetentionDays of io.bulwark.telemetry sets how long it keeps history).');
    } else if (!w.dataFrom) {
      parts.push('No telemetry in this window.');
    }
    parts.push(w.tenMinutesTo
      ? `Ten-minute averages until ${absolute(w.tenMinutesTo)}, minute averages after, every sample for the last 10 minutes.`
      : 'Minute averages before the last 10 minutes, then every sample.');
    return parts.join(' ');
  }

  async function refresh() {
    try {
      // The machine linked to this node, where the machines bundle runs (none otherwise).
      const [data, linked] = await Promise.all([getJson(`nodes/${encodeURIComponent(id)}?minutes=${minutes}`),
        getJson(`machines?node=${encodeURIComponent(id)}`).catch(() => ({ machines: [] }))]);
      render(data, linked.machines || []);
      error.hidden = true;
    } catch (e) {
      error.textContent = e.status === 404 ? `No node named ${id} is in the inventory.` : e.message;
      error.hidden = false;
    }
  }

  const refreshSoon = debounce(refresh, 500);
  refresh();
  return {
    refresh,
    onCapacity() {},
    onFinding(f) {
      if (f.node === id) refreshSoon();
    },
    unmount() {},
  };
}

function metricChart(metric, data) {
  const from = data.window.from;
  const to = data.window.to;
  const flagged = new Set(data.gpus.filter((g) => g.health !== 'healthy').map((g) => g.index));
  const bands = data.findings
    .filter((f) => f.gpu === -1 || flagged.has(f.gpu))
    .map((f) => ({
      from: Date.parse(f.firstSeen),
      to: f.resolvedAt ? Date.parse(f.resolvedAt) : (f.state === 'open' ? to : Date.parse(f.lastSeen)),
      severity: f.severity,
      kind: f.kind,
      title: `${f.kind} on GPU ${f.gpu} (${f.severity}, ${f.state}): ${f.summary}`,
    }));
  const markers = data.findings
    .filter((f) => EVENT_KINDS.includes(f.kind))
    .map((f) => ({ at: Date.parse(f.firstSeen), kind: f.kind, title: `${f.kind} on GPU ${f.gpu} at ${absolute(f.firstSeen)}: ${f.summary}` }));
  const series = data.gpus.map((g) => ({
    gpu: g.index,
    flagged: flagged.has(g.index),
    points: (g.telemetry && g.telemetry[metric.name]) || [],
  }));
  return h('section', { class: 'metric-chart', data: { metric: metric.name } },
    h('h3', {}, `${metric.label} (${metric.unit})`,
      flagged.size ? h('span', { class: 'muted small' }, ` · highlighted: GPU ${[...flagged].join(', ')}`) : ''),
    gpuChart({ series, from, to, unit: metric.unit, digits: metric.digits, label: `${metric.label} of every GPU of ${data.node.id || 'this node'}`, bands, markers }));
}

function gpuTable(gpus) {
  return h('table', { id: 'gpu-list', class: 'table' },
    h('thead', {}, h('tr', {}, ['GPU', 'Health', 'Capacity', 'Reporting', 'Performance', 'Open findings', 'Model', 'UUID']
      .map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, gpus.length ? gpus.map((g) => h('tr', { data: { gpu: g.index, health: g.health } },
      h('td', { class: 'num' }, g.index),
      h('td', {}, h('span', { class: `badge health-${g.health}` }, g.health)),
      h('td', { data: { state: g.state || '' } }, g.state ? (g.limitedBy ? `${g.state} (${g.limitedBy})` : g.state) : '–'),
      h('td', {}, g.reporting ? 'yes' : 'no'),
      h('td', { class: 'num' }, percent(g.relativePerformance)),
      h('td', { class: 'num' }, g.openFindings),
      h('td', {}, g.model || '–'),
      h('td', { class: 'mono small' }, g.uuid || '–'))) : h('tr', { class: 'empty' }, h('td', { colspan: 8 }, 'No GPUs known on this node.'))));
}

function fact(label, ...value) {
  return h('div', { class: 'fact' }, h('dt', {}, label), h('dd', {}, ...value));
}
