// The findings table the fleet, node and findings pages share. Rows carry data-kind, data-node, data-gpu,
// data-severity, data-state and data-finding-id for browser tests and for styling.

import { h } from '/js/dom.js';
import { absolute, gpuLabel, relative } from '/js/format.js';

const COLUMNS = {
  kind: { title: 'Kind', cell: (f) => h('td', { class: 'mono' }, f.kind) },
  node: { title: 'Node', cell: (f) => h('td', { class: 'mono' }, h('a', { href: `#/nodes/${encodeURIComponent(f.node)}` }, f.node)) },
  gpu: { title: 'GPU', cell: (f) => h('td', { class: 'num' }, gpuLabel(f.gpu)) },
  severity: { title: 'Severity', cell: (f) => h('td', {}, h('span', { class: `sev sev-${f.severity}` }, f.severity)) },
  state: { title: 'State', cell: (f) => h('td', {}, h('span', { class: `state state-${f.state}` }, f.state)) },
  since: { title: 'Since', cell: (f) => h('td', { class: 'nowrap', title: absolute(f.firstSeen) }, relative(f.firstSeen)) },
  firstSeen: { title: 'First seen', cell: (f) => h('td', { class: 'nowrap' }, absolute(f.firstSeen)) },
  lastSeen: { title: 'Last seen', cell: (f) => h('td', { class: 'nowrap', title: absolute(f.lastSeen) }, relative(f.lastSeen)) },
  resolvedAt: { title: 'Resolved', cell: (f) => h('td', { class: 'nowrap' }, f.resolvedAt ? absolute(f.resolvedAt) : '–') },
  occurrences: { title: 'Seen', cell: (f) => h('td', { class: 'num' }, f.occurrences) },
  summary: { title: 'Summary', cell: (f) => h('td', { class: 'summary', title: evidenceText(f) },
    h('a', { href: `#/finding/${encodeURIComponent(f.id)}`, class: 'finding-link' }, f.summary)) },
  action: { title: 'Recommended action', cell: (f) => h('td', { class: 'action' }, f.recommendedAction || '–') },
};

function evidenceText(f) {
  return Object.entries(f.evidence || {}).map(([k, v]) => `${k}: ${v}`).join('\n');
}

/** Returns the <tr> of one finding. */
export function findingRow(f, columns) {
  return h('tr', {
    class: `finding sev-row-${f.severity}`,
    data: { kind: f.kind, node: f.node, gpu: f.gpu, severity: f.severity, state: f.state, findingId: f.id },
  }, columns.map((c) => COLUMNS[c].cell(f)));
}

/** Returns a complete <table>; `empty` is the text shown when there are no findings. */
export function findingsTable(id, findings, columns, empty) {
  const body = findings.length
    ? findings.map((f) => findingRow(f, columns))
    : [h('tr', { class: 'empty' }, h('td', { colspan: columns.length }, empty))];
  return h('table', { id, class: 'table findings' },
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, COLUMNS[c].title)))),
    h('tbody', {}, body));
}
