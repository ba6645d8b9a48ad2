// Compliance page: per STIG the rules met, open, not applicable and not reviewed, the open rules by category
// (CAT I, II, III) and the share of decided rules met; every rule with its status, the evidence the live check
// read (or why it is met by design, why it does not apply, the question for the assessor), filtered by STIG,
// status, category, disposition and text. Admins and auditors run the checks now and download the checklists an
// assessor opens (STIG Viewer CKL and CKLB, XCCDF results), each signed with the audit key, with the signed audit
// log alongside; every export is audited.

import { download, getJson, send } from '/js/api.js';
import { h, replace, debounce } from '/js/dom.js';
import { absolute } from '/js/format.js';
import { clearProblem, showProblem } from '/js/problems.js';
import { signedFile } from '/js/signed.js';

const STATUSES = ['Open', 'Not_Reviewed', 'NotAFinding', 'Not_Applicable'];
const STATUS_LABEL = { NotAFinding: 'Not a finding', Open: 'Open', Not_Applicable: 'Not applicable', Not_Reviewed: 'Not reviewed' };
const STATUS_BADGE = { NotAFinding: 'subsystem-up', Open: 'sev-critical', Not_Applicable: 'state-disabled', Not_Reviewed: 'sev-warning' };
const CATEGORIES = ['CAT I', 'CAT II', 'CAT III'];
const SUMMARY_ORDER = ['NotAFinding', 'Open', 'Not_Reviewed', 'Not_Applicable'];
const DISPOSITIONS = ['automated', 'by-design', 'not-applicable', 'manual', 'image'];
const SHOWN = 300;

export function mount(root, params, navigate, session) {
  const assessor = session && (session.role === 'admin' || session.role === 'auditor');
  const error = h('p', { class: 'notice error', hidden: true, id: 'compliance-error', role: 'alert' });
  const summaryHost = h('div', { id: 'compliance-summary', class: 'panel-pair' });
  const listHost = h('div', { class: 'table-wrap', id: 'compliance-rules' });
  const shownLabel = h('p', { class: 'muted small', id: 'compliance-shown', 'aria-live': 'polite' });
  const stig = h('select', { id: 'compliance-stig' }, h('option', { value: '' }, 'all'));
  const status = h('select', { id: 'compliance-status' }, h('option', { value: '' }, 'any'),
    STATUSES.map((s) => h('option', { value: s }, STATUS_LABEL[s])));
  const category = h('select', { id: 'compliance-category' }, h('option', { value: '' }, 'any'),
    CATEGORIES.map((c) => h('option', { value: c }, c)));
  const disposition = h('select', { id: 'compliance-disposition' }, h('option', { value: '' }, 'any'),
    DISPOSITIONS.map((d) => h('option', { value: d }, d)));
  const text = h('input', { id: 'compliance-text', type: 'search', autocomplete: 'off', placeholder: 'rule id, title, CCI, evidence' });
  const filters = h('form', { class: 'filters', id: 'compliance-filters', onsubmit: (e) => e.preventDefault() },
    h('label', {}, 'STIG', stig), h('label', {}, 'Status', status), h('label', {}, 'Category', category),
    h('label', {}, 'Disposition', disposition), h('label', {}, 'Search', text));

  const runButton = h('button', { type: 'button', id: 'compliance-run', class: 'primary' }, 'Run checks now');
  const exportError = h('p', { class: 'notice error', hidden: true, id: 'compliance-export-error', role: 'alert' });
  const exportResult = h('div', { id: 'compliance-export-result', class: 'export-result', hidden: true });
  const exportButtons = h('div', { class: 'form-actions', id: 'compliance-exports' });
  const checksHost = h('p', { class: 'muted small', id: 'compliance-checks' });

  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'Compliance'), assessor ? runButton : ''),
    h('p', { class: 'muted', id: 'compliance-intro' }, 'Each STIG rule mapped to how Bulwark meets it. Automated rules '
      + 'take the latest result of a live check on this appliance (every 15 minutes, or now), with the values it read; '
      + 'the others say why they are met by design, why they do not apply, or what an assessor must answer.'),
    error, summaryHost,
    assessor ? h('section', { class: 'panel', id: 'compliance-export-panel' }, h('h2', {}, 'Export for the assessor'),
      h('p', { class: 'muted small' }, 'Checklists STIG Viewer and STIG Manager open, with this appliance as the asset. '
        + 'Each file is signed (SHA384withECDSA) with the appliance\'s audit key: check it with the ',
        h('a', { href: 'api/v1/audit/public-key', download: 'bulwark-audit-public-key.pem', id: 'compliance-public-key' }, 'audit public key (PEM)'),
        '. Every export is recorded in the audit log.'),
      exportButtons, exportError, exportResult) : '',
    h('section', { class: 'panel' }, h('h2', {}, 'Rules'), filters, shownLabel, listHost, checksHost));

  let report = null;
  let objectUrls = [];

  function score(counts) {
    const decided = counts.NotAFinding + counts.Open;
    return decided ? Math.floor((1000 * counts.NotAFinding) / decided) / 10 : null;
  }

  function renderSummary() {
    replace(summaryHost, report.stigs.map((s) => {
      const pct = score(s.counts);
      return h('section', { class: 'panel', data: { stig: s.id } },
        h('h2', {}, s.title),
        h('p', { class: 'muted small' }, `Version ${s.version}, ${s.release} · ${s.rules} rules`),
        h('div', { class: 'capacity-stats' },
          h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, 'Met, of decided'),
            h('span', { class: 'stat-value', data: { score: pct === null ? '' : pct } }, pct === null ? '—' : `${pct}%`)),
          SUMMARY_ORDER.map((st) => h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, STATUS_LABEL[st]),
            h('span', { class: 'stat-value', data: { status: st } }, String(s.counts[st]))))),
        h('div', { class: 'capacity-stats' },
          CATEGORIES.map((c) => h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, `Open ${c}`),
            h('span', { class: `stat-value ${s.openByCategory[c] ? 'sev-text-critical' : ''}`, data: { category: c } }, String(s.openByCategory[c]))))));
    }));
  }

  function matches(r) {
    const q = text.value.trim().toLowerCase();
    return (!stig.value || r.benchmark === stig.value)
      && (!status.value || r.status === status.value)
      && (!category.value || r.category === category.value)
      && (!disposition.value || r.disposition === disposition.value)
      && (!q || [r.stigId, r.groupId, r.ruleId, r.title, r.check || '', r.ccis.join(' '), r.findingDetails, r.comments]
        .some((f) => f.toLowerCase().includes(q)));
  }

  function evidence(r) {
    const body = [r.findingDetails, r.comments].filter((x) => x).join('\n\n');
    if (!body) return '';
    const first = body.split('\n')[0];
    return h('details', { class: 'evidence' }, h('summary', {}, first.length > 140 ? `${first.slice(0, 140)}…` : first),
      h('pre', { class: 'mono small' }, body));
  }

  function renderRules() {
    const rows = report.rules.filter(matches);
    shownLabel.textContent = rows.length > SHOWN
      ? `${rows.length} rules match; the first ${SHOWN} are shown. Narrow the filters to see the rest.`
      : `${rows.length} rule${rows.length === 1 ? '' : 's'} match.`;
    replace(listHost, h('table', { class: 'table', id: 'compliance-list' },
      h('thead', {}, h('tr', {}, ['Rule', 'Cat', 'Title', 'How', 'Status', 'Evidence and comments'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, rows.length ? rows.slice(0, SHOWN).map((r) => h('tr', { data: { rule: r.stigId, status: r.status, benchmark: r.benchmark } },
        h('td', { class: 'mono nowrap' }, r.stigId, h('br'), h('span', { class: 'muted small' }, r.groupId)),
        h('td', { class: 'nowrap' }, r.category),
        h('td', {}, r.title),
        h('td', { class: 'small' }, r.disposition, r.check ? h('br') : '', r.check ? h('span', { class: 'mono muted' }, r.check) : ''),
        h('td', { class: 'nowrap' }, h('span', { class: `badge ${STATUS_BADGE[r.status]}` }, STATUS_LABEL[r.status]),
          r.checkedAt ? h('div', { class: 'muted small', title: r.checkedAt }, absolute(r.checkedAt)) : ''),
        h('td', { class: 'details' }, evidence(r)))) :
        h('tr', { class: 'empty' }, h('td', { colspan: 6 }, 'No rule matches.')))));
  }

  function renderExports() {
    if (!assessor) return;
    const buttons = [
      h('button', { type: 'button', id: 'compliance-export-ckl', onclick: (e) => exportAs('ckl', '', e.target) }, 'Checklist CKL (STIG Viewer 2)'),
      h('button', { type: 'button', id: 'compliance-export-cklb', onclick: (e) => exportAs('cklb', '', e.target) }, 'Checklist CKLB (STIG Viewer 3)'),
      report.stigs.map((s, i) => h('button', { type: 'button', id: `compliance-export-xccdf-${i}`, onclick: (e) => exportAs('xccdf', s.id, e.target) },
        `XCCDF results: ${s.id.replace(/_/g, ' ')}`)),
      h('button', { type: 'button', id: 'compliance-export-audit', onclick: (e) => exportAudit(e.target) }, 'Audit log (signed JSON Lines)'),
    ];
    replace(exportButtons, buttons);
  }

  async function exportAs(format, benchmark, button) {
    const q = `compliance/export?format=${format}${benchmark ? `&benchmark=${encodeURIComponent(benchmark)}` : ''}`;
    await fetchSigned(q, `bulwark-compliance.${format}`, button);
  }

  async function exportAudit(button) {
    await fetchSigned('audit/export?format=jsonl', 'bulwark-audit.jsonl', button);
  }

  async function fetchSigned(path, fallback, button) {
    button.disabled = true;
    clearProblem(exportError);
    try {
      const file = await download(path, fallback);
      objectUrls.forEach((u) => URL.revokeObjectURL(u));
      const { fileLink, signatureLink, signature, algorithm, urls } =
        signedFile(file, { file: 'compliance-export-file', signature: 'compliance-export-sig' });
      objectUrls = urls;
      const parts = [h('p', {}, 'Downloaded ', fileLink, ` (${file.blob.size} bytes).`)];
      if (signature) {
        parts.push(h('p', {}, 'Detached signature (', algorithm, '): ', signatureLink,
          ' · check it with ', h('code', { class: 'mono' }, `openssl dgst -sha384 -verify bulwark-audit-public-key.pem -signature ${file.filename}.sig ${file.filename}`)));
      } else {
        parts.push(h('p', { class: 'notice error' }, 'The file came without a signature.'));
      }
      replace(exportResult, parts);
      exportResult.hidden = false;
      fileLink.click();
    } catch (e) {
      showProblem(exportError, e);
    } finally {
      button.disabled = false;
    }
  }

  function render() {
    const chosen = stig.value;
    replace(stig, h('option', { value: '' }, 'all'),
      report.stigs.map((s) => h('option', { value: s.id, selected: s.id === chosen }, s.id.replace(/_/g, ' '))));
    renderSummary();
    renderRules();
    renderExports();
    checksHost.textContent = `Live checks running: ${report.checks.map((c) => c.id).join(', ') || 'none'}.`;
  }

  async function load() {
    try {
      report = await getJson('compliance');
      clearProblem(error);
      render();
    } catch (e) {
      showProblem(error, e);
    }
  }

  runButton.addEventListener('click', async () => {
    runButton.disabled = true;
    runButton.textContent = 'Running…';
    try {
      report = await send('POST', 'compliance/run', {});
      clearProblem(error);
      render();
    } catch (e) {
      showProblem(error, e);
    } finally {
      runButton.disabled = false;
      runButton.textContent = 'Run checks now';
    }
  });
  const rerender = debounce(() => report && renderRules(), 150);
  [stig, status, category, disposition].forEach((el) => el.addEventListener('change', () => report && renderRules()));
  text.addEventListener('input', rerender);

  load();
  return {
    refresh: load,
    onEvent() {},
    onCapacity() {},
    onFinding() {},
    unmount() {
      objectUrls.forEach((u) => URL.revokeObjectURL(u));
    },
  };
}
