// Lost capacity in hours and money: the GPU-hours lost per day by cause (failure, throttle, straggler,
// degraded, unknown: GPUs whose nodes did not report) over the last 24 hours, and a stacked bar per day from the hourly ledger.

import { h, s } from '/js/dom.js';
import { lineChart } from '/js/chart.js';
import { number } from '/js/format.js';

export const CAUSES = ['failure', 'throttle', 'straggler', 'degraded', 'unknown'];
const WIDTH = 420;
const HEIGHT = 110;
const MARGIN = { left: 40, right: 6, top: 8, bottom: 18 };

function money(amount, price) {
  if (!price || typeof amount !== 'number' || !Number.isFinite(amount)) return null;
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: price.currency, maximumFractionDigits: 0 })
    .format(amount);
}

/** The headline and the breakdown of GPU-hours lost per day, from GET /api/v1/capacity. */
export function lossSummary(capacity) {
  const last = capacity.lastDay;
  if (!last || !(last.observedHours > 0)) {
    return h('p', { class: 'muted', id: 'capacity-loss' }, 'Lost GPU-hours are booked from the first evaluations on; none yet.');
  }
  const rate = last.gpuHoursLostPerDay;
  const perDayMoney = money(rate.total * (capacity.gpuHourPrice ? capacity.gpuHourPrice.amount : 0), capacity.gpuHourPrice);
  const observed = last.observedHours < 23.5 ? ` (rate over the last ${number(last.observedHours, 1)} h observed)` : '';
  return h('div', { id: 'capacity-loss', class: 'capacity-loss' },
    h('p', { class: 'loss-headline' },
      h('span', { id: 'gpu-hours-lost-per-day' }, `${number(rate.total, 1)} GPU-hours lost per day`),
      perDayMoney ? h('span', { class: 'loss-money', id: 'money-lost-per-day' }, ` ≈ ${perDayMoney} per day`) : null,
      h('span', { class: 'muted' }, observed)),
    h('div', { class: 'capacity-stats' }, CAUSES.map((cause) =>
      h('div', { class: 'stat', data: { cause } },
        h('span', { class: 'stat-label' }, h('span', { class: `swatch loss-${cause}` }), ` ${cause}`),
        h('span', { class: 'stat-value' }, `${number(rate[cause], 1)} h/day`)))));
}

/** A stacked bar per day: GPU-hours lost by cause. */
export function lossChart(days) {
  if (!Array.isArray(days) || days.length === 0) return h('span');
  const max = Math.max(1e-9, ...days.map((d) => d.gpuHoursLost.total));
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = plotW / days.length;
  const bars = days.map((d, i) => {
    let y = MARGIN.top + plotH;
    const x = MARGIN.left + i * slot + slot * 0.15;
    const parts = CAUSES.map((cause) => {
      const hgt = (d.gpuHoursLost[cause] / max) * plotH;
      y -= hgt;
      return s('rect', { x: x.toFixed(1), y: y.toFixed(1), width: (slot * 0.7).toFixed(1), height: Math.max(0, hgt).toFixed(1), class: `loss-${cause}` },
        s('title', {}, `${d.day}: ${number(d.gpuHoursLost[cause], 1)} GPU-hours lost to ${cause}`));
    });
    const label = i === 0 || i === days.length - 1 || days.length <= 7
      ? s('text', { x: (x + slot * 0.35).toFixed(1), y: HEIGHT - 4, class: 'loss-axis', 'text-anchor': 'middle' }, d.day.slice(5))
      : null;
    return [parts, label];
  });
  return h('figure', { class: 'loss-chart', id: 'capacity-loss-chart' },
    s('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': 'GPU-hours lost per day by cause' },
      s('text', { x: 2, y: MARGIN.top + 8, class: 'loss-axis' }, number(max, max < 10 ? 1 : 0)),
      s('text', { x: 2, y: MARGIN.top + plotH, class: 'loss-axis' }, '0'),
      bars),
    h('figcaption', { class: 'muted' }, 'GPU-hours lost per day (UTC), by cause'));
}

/** The trend: effective capacity hour by hour over the last 7 days (as booked), from GET /api/v1/capacity. */
export function trendChart(hours) {
  if (!Array.isArray(hours) || hours.length === 0) return h('span');
  const points = hours.filter((p) => Number.isFinite(p.effective))
    .map((p) => [Date.parse(p.start) + 3600_000, p.effective * 100]);
  const from = Math.min(...points.map((p) => p[0])) - 3600_000;
  const to = Math.max(...points.map((p) => p[0]));
  return h('figure', { class: 'trend-chart', id: 'capacity-trend-chart' },
    lineChart({ points, from, to, unit: '%', digits: 0, label: 'Effective capacity per hour' }),
    h('figcaption', { class: 'muted' }, `Effective capacity, hour by hour (${points.length} h booked; the appliance books while it runs)`));
}
