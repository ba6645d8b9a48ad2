// Formatting of times, numbers and labels as operators read them.

const pad = (n) => String(n).padStart(2, '0');

/** "2026-11-29 18:01:14" in local time, or "–". */
export function absolute(iso) {
  if (!iso) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '–';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** "18:01" for chart axes; "11-29 18:01" on an axis that spans more than 20 hours. */
export function clock(ms, span = 0) {
  const d = new Date(ms);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return span > 20 * 3600000 ? `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}` : time;
}

/** "12 min ago", "3 h ago"; for a time ahead "in 5 min"; "–" when absent. */
export function relative(iso, now = Date.now()) {
  if (!iso) return '–';
  const t = typeof iso === 'number' ? iso : Date.parse(iso);
  if (Number.isNaN(t)) return '–';
  if (t - now > 1000) return ahead(Math.round((t - now) / 1000));
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} d ago`;
}

function ahead(s) {
  if (s < 60) return `in ${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `in ${m} min`;
  const h = Math.round(m / 60);
  if (h < 48) return `in ${h} h`;
  return `in ${Math.round(h / 24)} d`;
}

/** "70%", or "–". */
export function percent(x) {
  return typeof x === 'number' && Number.isFinite(x) ? `${Math.round(x * 100)}%` : '–';
}

/** A number with at most `digits` decimals, or "–". */
export function number(x, digits = 0) {
  return typeof x === 'number' && Number.isFinite(x) ? x.toFixed(digits) : '–';
}

/** "3" for a GPU, "node" for a finding on the whole node. */
export function gpuLabel(gpu) {
  return gpu === -1 || gpu === undefined || gpu === null ? 'node' : String(gpu);
}

export const SEVERITY_RANK = { critical: 3, warning: 2, info: 1 };

/** Sorts findings: worst severity first, then the longest-standing first. */
export function bySeverityThenAge(a, b) {
  return (SEVERITY_RANK[b.severity] || 0) - (SEVERITY_RANK[a.severity] || 0)
    || Date.parse(a.firstSeen) - Date.parse(b.firstSeen);
}
