// Fleet overview: the capacity account, the grid of nodes × GPUs coloured by health, and the open findings.

import { getJson } from '/js/api.js';
import { debounce, h, replace } from '/js/dom.js';
import { bySeverityThenAge, percent, relative } from '/js/format.js';
import { findingsTable } from '/js/findings-table.js';
import { lossChart, lossSummary } from '/js/capacity.js';

const OPEN_COLUMNS = ['kind', 'node', 'gpu', 'severity', 'since', 'summary', 'action'];
const HEALTH_ORDER = ['healthy', 'warning', 'critical', 'missing', 'unknown'];

export function mount(root) {
  const open = new Map();
  let capacity = null;
  let nodes = [];

  const summary = h('p', { id: 'capacity-summary', class: 'capacity-summary' }, '…');
  const stats = h('div', { class: 'capacity-stats', id: 'capacity-stats' });
  const meter = h('div', { class: 'meter', id: 'capacity-meter' }, h('div', { class: 'meter-fill' }));
  const loss = h('div', { class: 'capacity-loss-host' });
  let ledger = null;
  const grid = h('div', { id: 'fleet-grid', class: 'fleet-grid', role: 'table', 'aria-label': 'GPUs by node' });
  const legend = h('div', { class: 'legend' }, HEALTH_ORDER.map((health) =>
    h('span', { class: 'legend-item' }, h('span', { class: `swatch health-${health}` }), health)));
  const findingsCount = h('span', { class: 'count', id: 'open-findings-count' });
  const findingsHost = h('div', { class: 'table-wrap' });
  const error = h('p', { class: 'notice error', hidden: true, id: 'fleet-error' });

  replace(root,
    error,
    h('section', { class: 'panel capacity' }, h('h2', {}, 'Effective capacity'), summary, meter, stats, loss),
    h('section', { class: 'panel' }, h('div', { class: 'panel-head' }, h('h2', {}, 'GPUs by node'), legend), grid),
    h('section', { class: 'panel' }, h('div', { class: 'panel-head' }, h('h2', {}, 'Open findings'), findingsCount), findingsHost));

  function renderCapacity() {
    if (!capacity) return;
    summary.textContent = capacity.headline || capacity.summary;
    const fill = meter.firstChild;
    fill.style.width = `${Math.max(0, Math.min(100, (capacity.effectiveCapacity || 0) * 100)).toFixed(1)}%`;
    meter.title = `${percent(capacity.effectiveCapacity)} of installed GPU capacity is delivered`;
    replace(stats,
      // Healthy, degraded, failed and unknown never overlap: they add up to the GPUs installed.
      stat('Installed', capacity.gpusInstalled),
      stat('Healthy', capacity.gpusHealthy),
      stat('Degraded', capacity.gpusDegraded),
      stat('Failed', capacity.gpusFailed),
      stat('Unknown', capacity.gpusUnknown, capacity.targetsNotAnswering
        ? `${capacity.targetsNotAnswering} target(s) not answering` : 'nodes not reporting'),
      stat('Serving GPUs run at', percent(capacity.meanRelativePerformance)),
      stat('Effective', percent(capacity.effectiveCapacity)),
      stat('As of', relative(capacity.at)));
    if (capacity.lastDay) ledger = capacity;
    if (ledger) replace(loss, lossSummary(ledger), lossChart(ledger.days));
  }

  function renderGrid() {
    if (nodes.length === 0) {
      replace(grid, h('p', { class: 'muted' }, 'No nodes in the inventory yet. Check the telemetry targets on the System page.'));
      return;
    }
    replace(grid, nodes.map((node) => h('div', { class: 'grid-row', role: 'row', data: { node: node.id } },
      h('a', { class: 'grid-node mono', href: `#/nodes/${encodeURIComponent(node.id)}`, role: 'rowheader' }, node.id),
      h('span', { class: `grid-meta sev-text-${node.worstSeverity || 'none'}` },
        node.gpus.length && node.gpus.every((gpu) => gpu.health === 'unknown')
          ? `not reporting · ${node.gpusInstalled} GPUs · ${node.openFindings} open`
          : `${node.gpusReporting}/${node.gpusInstalled} GPUs · ${node.openFindings} open`),
      h('div', { class: 'grid-gpus', role: 'cell' }, node.gpus.map((gpu) => h('a', {
        class: `gpu-cell health-${gpu.health}`,
        href: `#/nodes/${encodeURIComponent(node.id)}`,
        title: `${node.id} GPU ${gpu.index}: ${gpu.health}`
          + (gpu.relativePerformance !== null && gpu.relativePerformance !== undefined ? `, ${percent(gpu.relativePerformance)} performance` : '')
          + (gpu.openFindings ? `, ${gpu.openFindings} open finding(s)` : ''),
        data: { node: node.id, gpu: gpu.index, health: gpu.health },
      }, String(gpu.index)))))));
  }

  function renderFindings() {
    const list = [...open.values()].sort(bySeverityThenAge);
    findingsCount.textContent = `${list.length}`;
    replace(findingsHost, findingsTable('open-findings', list, OPEN_COLUMNS, 'No open findings: every GPU reports and none is degraded.'));
  }

  async function refresh() {
    try {
      const [cap, fleet, findings] = await Promise.all([
        getJson('capacity'), getJson('nodes'), getJson('findings?state=open&limit=1000')]);
      capacity = cap;
      nodes = fleet.nodes;
      open.clear();
      findings.findings.forEach((f) => open.set(f.id, f));
      error.hidden = true;
      renderCapacity();
      renderGrid();
      renderFindings();
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    }
  }

  const refreshNodes = debounce(async () => {
    try {
      nodes = (await getJson('nodes')).nodes;
      renderGrid();
    } catch (e) {
      // the periodic refresh reports errors
    }
  }, 500);

  refresh();
  return {
    refresh,
    onCapacity(report) {
      capacity = report;
      renderCapacity();
    },
    onFinding(f) {
      if (f.state === 'open') open.set(f.id, f);
      else open.delete(f.id);
      renderFindings();
      refreshNodes();
    },
    unmount() {},
  };
}

function stat(label, value, title) {
  return h('div', { class: 'stat', title: title || null, data: { stat: label.toLowerCase() } },
    h('span', { class: 'stat-label' }, label), h('span', { class: 'stat-value' }, value ?? '–'));
}
