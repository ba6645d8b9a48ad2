// Fleet overview: the capacity account, the open findings, and the GPUs by node coloured by health (a grid of
// cells for small fleets, a dense heatmap per group for large ones), with search, "unhealthy only", grouping by
// any file_sd label (rack, partition, pool) and sorting.

import { getJson } from '/js/api.js';
import { debounce, h, replace } from '/js/dom.js';
import { bySeverityThenAge, percent, relative } from '/js/format.js';
import { findingsTable } from '/js/findings-table.js';
import { lossChart, lossSummary, trendChart } from '/js/capacity.js';
import { describeCell, heatmap } from '/js/heatmap.js';

const OPEN_COLUMNS = ['kind', 'node', 'gpu', 'severity', 'since', 'summary', 'action'];
const HEALTH_ORDER = ['healthy', 'warning', 'critical', 'missing', 'unknown'];
// Up to this many nodes each GPU is a cell of its own; above, the heatmap keeps the page under a few thousand
// elements at 2,048 nodes.
const CELL_GRID_LIMIT = 256;
const LIST_LIMIT = 200;
const OPEN_ROWS_LIMIT = 200;
const BADNESS = { critical: 4, unknown: 3, missing: 3, warning: 2, healthy: 0 };

function badness(node) {
  return Math.max(0, ...node.gpus.map((g) => BADNESS[g.health] ?? 1));
}

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
  const search = h('input', { type: 'search', id: 'fleet-search', placeholder: 'Find nodes', 'aria-label': 'Find nodes by name' });
  const unhealthyOnly = h('input', { type: 'checkbox', id: 'fleet-unhealthy' });
  const groupBy = h('select', { id: 'fleet-group', 'aria-label': 'Group nodes by label' }, h('option', { value: '' }, 'No grouping'));
  const sortBy = h('select', { id: 'fleet-sort', 'aria-label': 'Sort nodes' },
    h('option', { value: 'name' }, 'By name'), h('option', { value: 'worst' }, 'Worst first'));
  const controls = h('div', { class: 'fleet-controls' }, search,
    h('label', { class: 'check' }, unhealthyOnly, ' Unhealthy only'), groupBy, sortBy,
    h('span', { class: 'muted', id: 'fleet-shown' }));
  const hover = h('p', { class: 'heatmap-status mono', id: 'heatmap-status' });
  const announcer = h('p', { class: 'visually-hidden', id: 'fleet-announcer', 'aria-live': 'polite' });
  const rerender = debounce(() => renderGrid(), 150);
  [search, unhealthyOnly, groupBy, sortBy].forEach((c) => c.addEventListener(c === search ? 'input' : 'change', rerender));
  const legend = h('div', { class: 'legend' }, HEALTH_ORDER.map((health) =>
    h('span', { class: 'legend-item' }, h('span', { class: `swatch health-${health}` }), health)));
  const findingsCount = h('span', { class: 'count', id: 'open-findings-count' });
  const findingsHost = h('div', { class: 'table-wrap' });
  const error = h('p', { class: 'notice error', hidden: true, id: 'fleet-error' });

  // Findings first: what needs doing, then the account, then every GPU.
  replace(root,
    h('h1', { class: 'visually-hidden' }, 'Fleet'),
    error, announcer,
    h('section', { class: 'panel capacity' }, h('h2', {}, 'Effective capacity'), summary, meter, stats),
    h('section', { class: 'panel' }, h('div', { class: 'panel-head' }, h('h2', {}, 'Open findings'), findingsCount), findingsHost),
    h('section', { class: 'panel' }, h('div', { class: 'panel-head' }, h('h2', {}, 'GPUs by node'), legend), controls, grid),
    h('section', { class: 'panel' }, h('h2', {}, 'Capacity lost'), loss));

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
    if (ledger) replace(loss, lossSummary(ledger), lossChart(ledger.days), trendChart(ledger.hours));
  }

  /** The nodes the controls select, sorted, and the label values they are grouped by. */
  function selected() {
    const needle = search.value.trim().toLowerCase();
    let list = nodes.filter((n) => (!needle || n.id.toLowerCase().includes(needle))
      && (!unhealthyOnly.checked || badness(n) > 0));
    list = sortBy.value === 'worst'
      ? [...list].sort((a, b) => badness(b) - badness(a) || a.id.localeCompare(b.id))
      : list;
    const label = groupBy.value;
    const groups = new Map();
    for (const n of list) {
      const key = label ? ((n.labels || {})[label] ?? `(no ${label})`) : '';
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(n);
    }
    return { list, groups: [...groups.entries()].sort((a, b) => a[0].localeCompare(b[0], undefined, { numeric: true })) };
  }

  function offerLabels() {
    const names = new Set();
    nodes.forEach((n) => Object.keys(n.labels || {}).forEach((k) => names.add(k)));
    const have = new Set([...groupBy.options].map((o) => o.value));
    [...names].sort().forEach((name) => {
      if (!have.has(name)) groupBy.append(h('option', { value: name }, `By ${name}`));
    });
  }

  function cellRow(node) {
    return h('div', { class: 'grid-row', role: 'row', data: { node: node.id } },
      h('a', { class: 'grid-node mono', href: `#/nodes/${encodeURIComponent(node.id)}`, role: 'rowheader' }, node.id),
      h('span', { class: `grid-meta sev-text-${node.worstSeverity || 'none'}` },
        node.gpus.length === 0
          ? `no GPUs reported · ${node.openFindings} open`
          : node.gpus.every((gpu) => gpu.health === 'unknown')
            ? `not reporting · ${node.gpusInstalled} GPUs · ${node.openFindings} open`
            : `${node.gpusReporting}/${node.gpusInstalled} GPUs · ${node.openFindings} open`),
      h('div', { class: 'grid-gpus', role: 'cell' }, node.gpus.map((gpu) => h('a', {
        class: `gpu-cell health-${gpu.health}`,
        href: `#/nodes/${encodeURIComponent(node.id)}`,
        title: describeCell(node, gpu),
        'aria-label': describeCell(node, gpu),
        data: { node: node.id, gpu: gpu.index, health: gpu.health },
      }, String(gpu.index)))));
  }

  /** The nodes that are not all healthy, as links: what the heatmap shows, readable by anyone. */
  function unhealthyList(list) {
    const bad = list.filter((n) => badness(n) > 0).sort((a, b) => badness(b) - badness(a) || a.id.localeCompare(b.id));
    if (!bad.length) return h('p', { class: 'muted', id: 'unhealthy-list' }, 'Every GPU shown is healthy.');
    return h('div', { id: 'unhealthy-list', class: 'unhealthy-list' },
      h('p', { class: 'muted' }, `${bad.length} node(s) with GPUs not healthy`
        + (bad.length > LIST_LIMIT ? `; the worst ${LIST_LIMIT} listed` : '') + ':'),
      h('ul', { class: 'node-chips' }, bad.slice(0, LIST_LIMIT).map((n) => h('li', {},
        h('a', { href: `#/nodes/${encodeURIComponent(n.id)}`, class: `chip mono sev-text-${n.worstSeverity || 'none'}`, data: { node: n.id } },
          `${n.id}: ${n.gpus.filter((g) => g.health !== 'healthy').map((g) => `${g.index} ${g.health}`).join(', ')}`)))));
  }

  function renderGrid() {
    if (nodes.length === 0) {
      document.getElementById('fleet-shown').textContent = '0 nodes';
      replace(grid, h('p', { class: 'muted' }, 'No nodes in the inventory yet. Check the telemetry targets on the System page.'));
      return;
    }
    offerLabels();
    const { list, groups } = selected();
    document.getElementById('fleet-shown').textContent = list.length === nodes.length
      ? `${nodes.length} nodes` : `${list.length} of ${nodes.length} nodes`;
    if (list.length === 0) {
      replace(grid, h('p', { class: 'muted' }, 'No node matches.'));
      return;
    }
    const titled = (key, body) => (key ? [h('h3', { class: 'group-head' }, `${groupBy.value} ${key}`,
      h('span', { class: 'muted' }, ` · ${body.length} nodes`)), body] : [body]);
    if (list.length <= CELL_GRID_LIMIT) {
      replace(grid, groups.map(([key, members]) => titled(key, members).map((part) =>
        Array.isArray(part) ? part.map(cellRow) : part)));
      grid.dataset.view = 'cells';
      return;
    }
    const width = Math.max(300, grid.clientWidth || root.clientWidth || 1200);
    // Redrawn as findings change: a heatmap that had the keyboard keeps it.
    const maps = [...grid.querySelectorAll('canvas.heatmap')];
    const focused = maps.indexOf(document.activeElement);
    replace(grid, hover, groups.map(([key, members]) => {
      const map = heatmap(members, width, hover, key ? `${groupBy.value} ${key}` : 'All nodes');
      return key ? [h('h3', { class: 'group-head' }, `${groupBy.value} ${key}`,
        h('span', { class: 'muted' }, ` · ${members.length} nodes`)), map] : map;
    }), unhealthyList(list));
    grid.dataset.view = 'heatmap';
    if (focused >= 0) {
      const again = grid.querySelectorAll('canvas.heatmap')[focused];
      if (again) again.focus();
    }
  }

  function renderFindings() {
    const list = [...open.values()].sort(bySeverityThenAge);
    findingsCount.textContent = `${list.length}`;
    const shown = list.slice(0, OPEN_ROWS_LIMIT);
    replace(findingsHost,
      findingsTable('open-findings', shown, OPEN_COLUMNS, 'No open findings: every GPU reports and none is degraded.'),
      list.length > shown.length
        ? h('p', { class: 'muted' }, `The ${shown.length} most severe of ${list.length} open findings; `,
          h('a', { href: '#/findings' }, 'all of them on the Findings page'), '.')
        : null);
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
      renderFindings();
      renderGrid();
      if (!performance.getEntriesByName('fleet-rendered').length) {
        performance.mark('fleet-rendered');
        requestAnimationFrame(() => setTimeout(() => performance.mark('fleet-interactive'), 0));
      }
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    }
  }

  /** Returns true if a GPU's state in the account differs from the state the grid was drawn with. */
  function stateChanged(report) {
    if (!report.gpus) return report.gpusUnknown !== gpusShown('unknown');
    const drawn = new Map();
    for (const n of nodes) for (const g of n.gpus) drawn.set(`${n.id}/${g.index}`, g.state);
    return report.gpus.some((g) => {
      const state = g.unknown ? 'unknown' : !g.healthy ? 'failed' : g.relativePerformance < 1 ? 'degraded' : 'healthy';
      return drawn.get(`${g.node}/${g.gpu}`) !== state;
    });
  }

  /** The GPUs the grid shows, or those of them in one health state. */
  function gpusShown(health) {
    return nodes.reduce((sum, n) => sum + n.gpus.filter((g) => !health || g.health === health).length, 0);
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
      // A GPU whose state in the account changed since the grid was read (failed, degraded, back to
      // full speed, unknown), or GPUs that appeared or went: read the nodes again, so that the grid
      // never shows another state than the headline counts.
      if (report.gpusInstalled !== gpusShown() || stateChanged(report)) refreshNodes();
    },
    onFinding(f) {
      if (f.state === 'open' && f.severity === 'critical' && !open.has(f.id)) {
        // One short announcement for a new critical finding, not a live region over the whole page.
        announcer.textContent = `New critical finding: ${f.kind} on ${f.node}${f.gpu >= 0 ? ` GPU ${f.gpu}` : ''}`;
      }
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
