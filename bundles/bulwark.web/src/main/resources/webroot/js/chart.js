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

const WIDE = { width: 720, height: 170 };

/**
 * Returns a <figure> with one metric of every GPU of a node on a shared axis, as the DCGM dashboards draw
 * them: GPUs with a problem in colour and thicker, the others grey; finding bands shaded; events (XID,
 * ECC, row remapping) as dashed markers; and a readout of every GPU's value at the pointer (mouse or
 * arrow keys on the focused chart).
 * options: series [{ gpu, points, flagged }], from, to, unit, digits, label, bands, markers [{ at, title, kind }].
 */
export function gpuChart({ series, from, to, unit, digits = 0, label, bands = [], markers = [] }) {
  const width = WIDE.width;
  const height = WIDE.height;
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const span = Math.max(1, to - from);
  const x = (t) => MARGIN.left + ((t - from) / span) * plotW;
  const root = s('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart chart-wide', role: 'img', 'aria-label': label, tabindex: 0 });
  root.append(s('rect', { class: 'plot', x: MARGIN.left, y: MARGIN.top, width: plotW, height: plotH }));
  for (const band of bands) {
    const start = Math.max(from, band.from);
    const end = Math.min(to, band.to);
    if (!(end > start)) continue;
    root.append(s('rect', {
      class: `band band-${band.severity}`, x: x(start).toFixed(1), y: MARGIN.top,
      width: Math.max(1, x(end) - x(start)).toFixed(1), height: plotH, data: { kind: band.kind },
    }, s('title', {}, band.title)));
  }
  const visible = series.map((sr) => ({ ...sr, points: sr.points.filter((p) => p[0] >= from && p[0] <= to && Number.isFinite(p[1])) }));
  const all = visible.flatMap((sr) => sr.points.map((p) => p[1]));
  const readout = document.createElement('p');
  readout.className = 'chart-readout muted small';
  readout.textContent = all.length ? 'Point at the chart (or focus it and use ←/→) to read every GPU.' : '';
  if (all.length === 0) {
    root.append(s('text', { class: 'chart-empty', x: MARGIN.left + plotW / 2, y: MARGIN.top + plotH / 2 + 4 }, 'no samples in this window'));
  } else {
    const [lo, hi] = yRange(all);
    const y = (v) => MARGIN.top + plotH - ((v - lo) / (hi - lo)) * plotH;
    for (const v of [lo, (lo + hi) / 2, hi]) {
      root.append(s('line', { class: 'grid', x1: MARGIN.left, x2: MARGIN.left + plotW, y1: y(v), y2: y(v) }));
      root.append(s('text', { class: 'tick', x: MARGIN.left - 4, y: y(v) + 3, 'text-anchor': 'end' }, number(v, digits)));
    }
    // Grey lines first, flagged ones on top.
    for (const sr of [...visible].sort((a, b) => Number(a.flagged) - Number(b.flagged))) {
      for (const run of splitAtGaps(sr.points)) {
        if (run.length < 2) continue;
        root.append(s('polyline', {
          class: sr.flagged ? 'line line-flagged' : 'line line-quiet',
          points: run.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' '),
          data: { gpu: sr.gpu },
        }, s('title', {}, `GPU ${sr.gpu}`)));
      }
    }
    for (const m of markers) {
      if (m.at < from || m.at > to) continue;
      root.append(s('line', { class: `marker marker-${m.kind}`, x1: x(m.at), x2: x(m.at), y1: MARGIN.top, y2: MARGIN.top + plotH },
        s('title', {}, m.title)));
    }
    const cursor = s('line', { class: 'cursor', x1: 0, x2: 0, y1: MARGIN.top, y2: MARGIN.top + plotH, visibility: 'hidden' });
    root.append(cursor);
    const times = [...new Set(visible.flatMap((sr) => sr.points.map((p) => p[0])))].sort((a, b) => a - b);
    let at = times.length - 1;
    const show = (t) => {
      cursor.setAttribute('x1', x(t));
      cursor.setAttribute('x2', x(t));
      cursor.setAttribute('visibility', 'visible');
      const values = visible.map((sr) => {
        let best = null;
        for (const p of sr.points) if (best === null || Math.abs(p[0] - t) < Math.abs(best[0] - t)) best = p;
        return best ? `GPU ${sr.gpu}${sr.flagged ? ' ⚑' : ''}: ${number(best[1], digits)}` : `GPU ${sr.gpu}: –`;
      });
      readout.textContent = `${clock(t, span)} · ${values.join(' · ')} ${unit}`;
    };
    root.addEventListener('mousemove', (e) => {
      const box = root.getBoundingClientRect();
      const px = ((e.clientX - box.left) / box.width) * width;
      const t = from + ((px - MARGIN.left) / plotW) * span;
      show(Math.max(from, Math.min(to, t)));
    });
    root.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      at = Math.max(0, Math.min(times.length - 1, at + (e.key === 'ArrowLeft' ? -1 : 1)));
      show(times[at]);
    });
  }
  root.append(s('text', { class: 'tick', x: MARGIN.left, y: height - 4 }, clock(from, span)));
  for (const q of [0.25, 0.5, 0.75]) {
    const t = from + q * span;
    root.append(s('line', { class: 'grid', x1: x(t), x2: x(t), y1: MARGIN.top, y2: MARGIN.top + plotH }));
    root.append(s('text', { class: 'tick', x: x(t), y: height - 4, 'text-anchor': 'middle' }, clock(t, span)));
  }
  root.append(s('text', { class: 'tick', x: MARGIN.left + plotW, y: height - 4, 'text-anchor': 'end' }, clock(to, span)));
  const figure = document.createElement('figure');
  figure.className = 'chart-box chart-box-wide';
  figure.append(root, readout);
  return figure;
}
