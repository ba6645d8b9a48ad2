// A dense heatmap of GPUs for large fleets: one canvas per group, each node a column of its GPUs, coloured by
// health. A few DOM elements whatever the fleet's size; hover and keyboard focus name the cell (node, GPU, state)
// in a status line, a click or Enter opens the node's page.

import { h } from '/js/dom.js';

const CELL = 7;
const GAP = 1;
const NODE_PITCH = CELL + 3;
const ROW_GAP = 6;

const COLOUR_VARS = {
  healthy: '--healthy', warning: '--warning-cell', critical: '--critical', missing: '--missing-cell', unknown: '--unknown',
};

function colours() {
  const style = getComputedStyle(document.documentElement);
  const out = {};
  for (const [health, name] of Object.entries(COLOUR_VARS)) out[health] = style.getPropertyValue(name).trim() || '#888';
  return out;
}

/** Describes one GPU cell for a person and a screen reader. */
export function describeCell(node, gpu) {
  const perf = gpu.relativePerformance !== null && gpu.relativePerformance !== undefined && gpu.health !== 'unknown'
    ? `, ${Math.round(gpu.relativePerformance * 100)}% performance` : '';
  const open = gpu.openFindings ? `, ${gpu.openFindings} open finding(s)` : '';
  return `${node.id} GPU ${gpu.index}: ${gpu.health}${perf}${open}`;
}

/**
 * Returns the heatmap of `nodes` as a canvas that fits `width` CSS pixels, with `status` (an element) told what
 * the pointer or the keyboard is on.
 */
export function heatmap(nodes, width, status, label) {
  const perRow = Math.max(1, Math.floor(width / NODE_PITCH));
  const gpusTall = Math.max(1, ...nodes.map((n) => n.gpus.length));
  const rowHeight = gpusTall * (CELL + GAP) + ROW_GAP;
  const rows = Math.ceil(nodes.length / perRow);
  const cssWidth = Math.min(width, perRow * NODE_PITCH);
  const cssHeight = Math.max(rowHeight, rows * rowHeight);
  const ratio = window.devicePixelRatio || 1;
  const canvas = h('canvas', {
    class: 'heatmap', tabindex: 0, role: 'img', width: Math.round(cssWidth * ratio), height: Math.round(cssHeight * ratio),
    'aria-label': `${label}: ${nodes.length} nodes, ${nodes.reduce((s, n) => s + n.gpus.length, 0)} GPUs. `
      + 'Arrow keys move between GPUs, Enter opens the node.',
    data: { nodes: nodes.length },
  });
  canvas.style.width = `${cssWidth}px`;
  canvas.style.height = `${cssHeight}px`;
  const ctx = canvas.getContext('2d');
  ctx.scale(ratio, ratio);
  const colour = colours();
  let focus = null;

  function at(i, g) {
    return { x: (i % perRow) * NODE_PITCH, y: Math.floor(i / perRow) * rowHeight + g * (CELL + GAP) };
  }

  function drawCell(i, g, outlined) {
    const { x, y } = at(i, g);
    const gpu = nodes[i].gpus[g];
    ctx.clearRect(x - 1, y - 1, CELL + 2, CELL + 2);
    ctx.fillStyle = colour[gpu.health] || colour.missing;
    ctx.fillRect(x, y, CELL, CELL);
    if (gpu.health === 'unknown' || gpu.health === 'missing') {
      // A pattern as well as a colour, as the DOM grid draws them.
      ctx.fillStyle = 'rgba(255,255,255,0.55)';
      ctx.fillRect(x + 2, y + 2, CELL - 4, CELL - 4);
    }
    if (outlined) {
      ctx.strokeStyle = '#1b1f24';
      ctx.lineWidth = 1.5;
      ctx.strokeRect(x - 0.5, y - 0.5, CELL + 1, CELL + 1);
    }
  }

  nodes.forEach((node, i) => node.gpus.forEach((gpu, g) => drawCell(i, g, false)));

  function cellAt(event) {
    const rect = canvas.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const i = Math.floor(y / rowHeight) * perRow + Math.floor(x / NODE_PITCH);
    const g = Math.floor((y % rowHeight) / (CELL + GAP));
    if (i < 0 || i >= nodes.length || x >= perRow * NODE_PITCH) return null;
    if (g < 0 || g >= nodes[i].gpus.length) return null;
    return { i, g };
  }

  function show(cell) {
    if (focus) drawCell(focus.i, focus.g, false);
    focus = cell;
    if (!cell) {
      status.textContent = '';
      return;
    }
    drawCell(cell.i, cell.g, true);
    status.textContent = describeCell(nodes[cell.i], nodes[cell.i].gpus[cell.g]);
  }

  canvas.addEventListener('mousemove', (e) => {
    const cell = cellAt(e);
    canvas.style.cursor = cell ? 'pointer' : 'default';
    if (cell && (!focus || cell.i !== focus.i || cell.g !== focus.g)) show(cell);
  });
  canvas.addEventListener('mouseleave', () => show(null));
  canvas.addEventListener('click', (e) => {
    const cell = cellAt(e);
    if (cell) window.location.hash = `#/nodes/${encodeURIComponent(nodes[cell.i].id)}`;
  });
  canvas.addEventListener('focus', () => {
    // The first node that has cells: a node whose GPUs were not reported yet has none.
    const first = nodes.findIndex((n) => n.gpus.length > 0);
    if (!focus && first >= 0) show({ i: first, g: 0 });
  });
  canvas.addEventListener('keydown', (e) => {
    if (!focus) return;
    let { i, g } = focus;
    const step = (from, by) => {
      for (let k = from + by; k >= 0 && k < nodes.length; k += by) if (nodes[k].gpus.length) return k;
      return from;
    };
    if (e.key === 'ArrowRight') i = step(i, 1);
    else if (e.key === 'ArrowLeft') i = step(i, -1);
    else if (e.key === 'ArrowDown') {
      if (g + 1 < nodes[i].gpus.length) g += 1; else if (i + perRow < nodes.length) { i += perRow; g = 0; }
    } else if (e.key === 'ArrowUp') {
      if (g > 0) g -= 1; else if (i - perRow >= 0) { i -= perRow; g = nodes[i].gpus.length - 1; }
    } else if (e.key === 'Enter') {
      window.location.hash = `#/nodes/${encodeURIComponent(nodes[i].id)}`;
      return;
    } else return;
    e.preventDefault();
    if (!nodes[i].gpus.length) return;
    g = Math.max(0, Math.min(g, nodes[i].gpus.length - 1));
    show({ i, g });
  });
  return canvas;
}
