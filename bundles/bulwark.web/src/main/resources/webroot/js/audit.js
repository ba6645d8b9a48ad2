// Audit page (admins and auditors): search the audit log by time, actor, action and outcome, page through the
// records, check the hash chain, and export the log (JSON Lines or CSV) with its detached signature.

import { download, getJson } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { absolute } from '/js/format.js';
import { signedFile } from '/js/signed.js';
import { clearProblem, showProblem } from '/js/problems.js';

const OUTCOMES = ['', 'success', 'failure', 'denied'];
const LIMITS = [50, 100, 500];

export function mount(root) {
  const error = h('p', { class: 'notice error', hidden: true, id: 'audit-error', role: 'alert' });
  const from = h('input', { id: 'audit-from', type: 'datetime-local', step: 1 });
  const to = h('input', { id: 'audit-to', type: 'datetime-local', step: 1 });
  const actor = h('input', { id: 'audit-actor', autocomplete: 'off', placeholder: 'any' });
  const action = h('input', { id: 'audit-action', autocomplete: 'off', placeholder: 'any, e.g. user.create' });
  const outcome = h('select', { id: 'audit-outcome' }, OUTCOMES.map((o) => h('option', { value: o }, o || 'any')));
  const limit = h('select', { id: 'audit-limit' }, LIMITS.map((n) => h('option', { value: n, selected: n === 100 }, String(n))));
  const form = h('form', { class: 'filters', id: 'audit-form' },
    h('label', {}, 'From', from), h('label', {}, 'To', to),
    h('label', {}, 'Actor', actor), h('label', {}, 'Action', action),
    h('label', {}, 'Outcome', outcome), h('label', {}, 'Per page', limit),
    h('button', { type: 'submit', id: 'audit-search', class: 'primary' }, 'Search'));
  const listHost = h('div', { class: 'table-wrap' });
  const prev = h('button', { type: 'button', id: 'audit-prev', disabled: true }, '← Previous');
  const next = h('button', { type: 'button', id: 'audit-next', disabled: true }, 'Next →');
  const pageLabel = h('span', { id: 'audit-page', class: 'muted small' });

  const verifyButton = h('button', { type: 'button', id: 'audit-verify' }, 'Verify chain');
  const verifyResult = h('p', { id: 'audit-verify-result', class: 'notice', hidden: true, 'aria-live': 'polite' });
  const exportError = h('p', { class: 'notice error', hidden: true, id: 'audit-export-error', role: 'alert' });
  const exportResult = h('div', { id: 'audit-export-result', class: 'export-result', hidden: true });
  const jsonl = h('button', { type: 'button', id: 'audit-export-jsonl' }, 'Export JSON Lines');
  const csv = h('button', { type: 'button', id: 'audit-export-csv' }, 'Export CSV');

  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'Audit log')),
    error,
    h('section', { class: 'panel' }, h('h2', {}, 'Search'), form),
    h('section', { class: 'panel' }, h('h2', {}, 'Records'), listHost, h('div', { class: 'pager' }, prev, pageLabel, next)),
    h('div', { class: 'panel-pair' },
      h('section', { class: 'panel' }, h('h2', {}, 'Integrity'),
        h('p', { class: 'muted small' }, 'Recomputes the hash chain over every record.'), verifyButton, verifyResult),
      h('section', { class: 'panel' }, h('h2', {}, 'Export'),
        h('p', { class: 'muted small' }, 'The whole log, signed (SHA384withECDSA) with the appliance\'s audit key. Check it with the public key: ',
          h('a', { href: 'api/v1/audit/public-key', download: 'bulwark-audit-public-key.pem', id: 'audit-public-key' }, 'audit public key (PEM)'), '.'),
        h('div', { class: 'form-actions' }, jsonl, csv), exportError, exportResult)));

  // Cursors of the pages seen so far: cursors[i] is the `after` of page i.
  let cursors = [0];
  let nextCursor = null;
  let objectUrls = [];
  let latest = 0;

  function query(after) {
    const q = new URLSearchParams();
    if (from.value) q.set('from', new Date(from.value).toISOString());
    if (to.value) q.set('to', new Date(to.value).toISOString());
    if (actor.value.trim()) q.set('actor', actor.value.trim());
    if (action.value.trim()) q.set('action', action.value.trim());
    if (outcome.value) q.set('outcome', outcome.value);
    q.set('limit', limit.value);
    if (after) q.set('after', String(after));
    return q.toString();
  }

  async function load() {
    const ticket = ++latest;
    const q = query(cursors[cursors.length - 1]);
    try {
      const page = await getJson(`audit?${q}`);
      if (ticket !== latest) return; // a newer search has been sent meanwhile
      nextCursor = page.next === undefined || page.next === null ? null : page.next;
      render(page.records, q);
      prev.disabled = cursors.length <= 1;
      next.disabled = nextCursor === null;
      pageLabel.textContent = `Page ${cursors.length} · ${page.records.length} record${page.records.length === 1 ? '' : 's'}`;
      clearProblem(error);
    } catch (e) {
      if (ticket === latest) showProblem(error, e);
    }
  }

  function render(records, q) {
    replace(listHost, h('table', { id: 'audit-list', class: 'table', data: { query: q } },
      h('thead', {}, h('tr', {}, ['#', 'Time', 'Actor', 'Source', 'Action', 'Target', 'Outcome', 'Details'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, records.length ? records.map((r) => h('tr', { data: { sequence: r.sequence, action: r.action, actor: r.actor, target: r.target, outcome: r.outcome } },
        h('td', { class: 'num' }, r.sequence),
        h('td', { class: 'nowrap', title: r.at }, absolute(r.at)),
        h('td', { class: 'mono' }, r.actor),
        h('td', { class: 'mono' }, r.source),
        h('td', { class: 'mono' }, r.action),
        h('td', { class: 'mono' }, r.target),
        h('td', {}, h('span', { class: `badge outcome-${r.outcome}` }, r.outcome)),
        h('td', { class: 'details' }, Object.entries(r.details || {}).map(([k, v]) => h('span', { class: 'detail' }, `${k}=${v}`))))) :
        h('tr', { class: 'empty' }, h('td', { colspan: 8 }, 'No records match.')))));
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    cursors = [0];
    load();
  });
  next.addEventListener('click', () => {
    if (nextCursor === null) return;
    cursors.push(nextCursor);
    load();
  });
  prev.addEventListener('click', () => {
    if (cursors.length <= 1) return;
    cursors.pop();
    load();
  });

  verifyButton.addEventListener('click', async () => {
    verifyButton.disabled = true;
    verifyResult.hidden = true;
    try {
      const v = await getJson('audit/verify');
      verifyResult.dataset.intact = String(v.intact);
      verifyResult.className = v.intact ? 'notice ok' : 'notice error';
      verifyResult.textContent = v.intact
        ? `Chain intact: ${v.recordsChecked} records checked.`
        : `Chain broken at record ${v.firstBadSequence} (${v.recordsChecked} checked): ${v.problem}`;
    } catch (e) {
      delete verifyResult.dataset.intact;
      showProblem(verifyResult, e);
      verifyResult.className = 'notice error';
    } finally {
      verifyResult.hidden = false;
      verifyButton.disabled = false;
    }
  });

  async function exportAs(format, button) {
    button.disabled = true;
    clearProblem(exportError);
    try {
      const file = await download(`audit/export?format=${format}`, `bulwark-audit.${format}`);
      objectUrls.forEach((u) => URL.revokeObjectURL(u));
      const { fileLink, signatureLink, signature, algorithm, urls } =
        signedFile(file, { file: 'audit-export-file', signature: 'audit-export-sig' });
      objectUrls = urls;
      const parts = [h('p', {}, 'Exported ', fileLink, ` (${file.blob.size} bytes).`)];
      if (signature) {
        parts.push(h('p', {}, 'Detached signature (', algorithm, '): ', signatureLink),
        h('code', { class: 'mono signature', id: 'audit-export-signature' }, signature));
      } else {
        parts.push(h('p', { class: 'notice error' }, 'The export came without a signature.'));
      }
      replace(exportResult, parts);
      exportResult.dataset.format = format;
      exportResult.hidden = false;
      fileLink.click();
    } catch (e) {
      showProblem(exportError, e);
    } finally {
      button.disabled = false;
    }
  }
  jsonl.addEventListener('click', () => exportAs('jsonl', jsonl));
  csv.addEventListener('click', () => exportAs('csv', csv));

  load();
  return {
    refresh: load,
    onCapacity() {},
    onFinding() {},
    unmount() {
      objectUrls.forEach((u) => URL.revokeObjectURL(u));
    },
  };
}
