// Small SVG line charts for the node page: one series over a time window, with findings shaded from when they
// were first seen until they resolved (or until now while open).

import { s } from '/js/dom.js';
import { clock, number } from '/js/format.js';

const WIDTH = 360;
const HEIGHT = 120;
const MARGIN = { left: 42, right: 10, top: 10, bottom: 18 };

function yRange(values) {
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (min === max) {
    min -= 1;
    max += 1;
  }
  const pad = (max - min) * 0.08;
  return [min - pad, max + pad];
}

function splitAtGaps(points) {
  // A gap longer than three typical intervals (a scrape outage) breaks the line instead of bridging it.
  if (points.length < 3) return [points];
  const steps = [];
  for (let i = 1; i < points.length; i++) steps.push(points[i][0] - points[i - 1][0]);
  const typical = steps.slice().sort((a, b) => a - b)[Math.floor(steps.length / 2)];
  const runs = [[points[0]]];
  for (let i = 1; i < points.length; i++) {
    if (points[i][0] - points[i - 1][0] > typical * 3) runs.push([]);
    runs[runs.length - 1].push(points[i]);
  }
  return runs;
}

/**
 * Returns an <svg> chart.
 * options: points [[ms, value], ...], from, to (ms), unit ("°C"), digits, label, bands [{from, to, severity, title}].
 */
export function lineChart({ points, from, to, unit, digits = 0, label, bands = [] }) {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const span = Math.max(1, to - from);
  const x = (t) => MARGIN.left + ((t - from) / span) * plotW;
  const root = s('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: 'chart',
    role: 'img',
    'aria-label': label,
  });
  root.append(s('rect', { class: 'plot', x: MARGIN.left, y: MARGIN.top, width: plotW, height: plotH }));

  for (const band of bands) {
    const start = Math.max(from, band.from);
    const end = Math.min(to, band.to);
    if (!(end > start)) continue;
    root.append(s('rect', {
      class: `band band-${band.severity}`,
      x: x(start).toFixed(1),
      y: MARGIN.top,
      width: Math.max(1, x(end) - x(start)).toFixed(1),
      height: plotH,
      data: { kind: band.kind },
    }, s('title', {}, band.title)));
  }

  const inWindow = points.filter((p) => p[0] >= from && p[0] <= to && Number.isFinite(p[1]));
  if (inWindow.length === 0) {
    root.append(s('text', { class: 'chart-empty', x: MARGIN.left + plotW / 2, y: MARGIN.top + plotH / 2 + 4 },
      'no samples in this window'));
  } else {
    const [lo, hi] = yRange(inWindow.map((p) => p[1]));
    const y = (v) => MARGIN.top + plotH - ((v - lo) / (hi - lo)) * plotH;
    for (const v of [lo, (lo + hi) / 2, hi]) {
      root.append(s('line', { class: 'grid', x1: MARGIN.left, x2: MARGIN.left + plotW, y1: y(v), y2: y(v) }));
      root.append(s('text', { class: 'tick', x: MARGIN.left - 4, y: y(v) + 3, 'text-anchor': 'end' },
        number(v, digits)));
    }
    for (const run of splitAtGaps(inWindow)) {
      const coords = run.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ');
      if (run.length === 1) {
        const [px, py] = coords.split(',');
        root.append(s('circle', { class: 'dot', cx: px, cy: py, r: 1.5 }));
      } else {
        root.append(s('polyline', { class: 'line', points: coords }));
      }
    }
    const last = inWindow[inWindow.length - 1][1];
    root.append(s('text', { class: 'latest', x: MARGIN.left + plotW - 2, y: MARGIN.top + 11, 'text-anchor': 'end' },
      `${number(last, digits)} ${unit}`));
  }
  root.append(s('text', { class: 'tick', x: MARGIN.left, y: HEIGHT - 4 }, clock(from)));
  root.append(s('text', { class: 'tick', x: MARGIN.left + plotW, y: HEIGHT - 4, 'text-anchor': 'end' }, clock(to)));
  return root;
}
