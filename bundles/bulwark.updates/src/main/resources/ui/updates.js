// Updates page: the running version and bundle set, the update stick's packages (install with one click,
// admins only), the upload of a package from this computer (streamed, with its progress), the install in
// progress (copy, verification, dry-run resolve, swap, health check, with a bar for the copy), the update
// history with each outcome and its reason, and a manual rollback to the previous set.

import { getJson, send, upload } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { absolute, relative } from '/js/format.js';
import { clearProblem, confirmButton, showProblem } from '/js/problems.js';

const PHASES = ['copying', 'verifying', 'resolving', 'staging', 'installing', 'checking'];
const OUTCOME_BADGE = { installed: 'subsystem-up', refused: 'sev-critical', 'rolled-back': 'sev-warning', failed: 'sev-critical' };

export function mount(root, params, navigate, session) {
  const admin = session && session.role === 'admin';
  const error = h('p', { class: 'notice error', hidden: true, id: 'updates-error', role: 'alert' });
  const summary = h('div', { id: 'updates-summary' });
  const jobHost = h('div', { id: 'updates-job' });
  const stickHost = h('div', { class: 'table-wrap', id: 'updates-stick' });
  const historyHost = h('div', { class: 'table-wrap', id: 'updates-history' });
  const bundlesHost = h('div', { class: 'table-wrap', id: 'updates-bundles' });
  const offeredHost = h('div', { class: 'table-wrap', id: 'updates-offered' });
  const downgrade = h('input', { id: 'updates-downgrade', type: 'checkbox' });
  const uploadFile = h('input', { id: 'updates-file', type: 'file', accept: '.bwu' });
  const uploadProgress = h('progress', { id: 'updates-upload-progress', max: 100, value: 0, hidden: true });

  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'Updates')),
    h('p', { class: 'muted' }, 'Signed update packages (.bwu) arrive on the update stick or by upload. Each is '
      + 'verified before anything is touched (ECDSA P-384 and HSS/LMS signatures, every file\'s SHA-384, the running '
      + 'version, a dry-run resolve), then installed without a restart and health-checked; a failed check rolls back '
      + 'to the previous set by itself.'),
    error, summary, jobHost,
    h('section', { class: 'panel' }, h('h2', {}, 'Update stick'), stickHost,
      admin ? h('label', { class: 'inline' }, downgrade, ' allow a downgrade (audited)') : ''),
    admin ? h('section', { class: 'panel' }, h('h2', {}, 'Upload a package'),
      h('form', { id: 'updates-upload-form', class: 'form-grid', onsubmit: (e) => { e.preventDefault(); send_(); } },
        h('label', { for: 'updates-file' }, 'Package (.bwu)'), uploadFile,
        uploadProgress, h('button', { type: 'submit', id: 'updates-upload-submit' }, 'Upload and install'))) : '',
    h('section', { class: 'panel' }, h('h2', {}, 'History'), historyHost),
    h('section', { class: 'panel' }, h('h2', {}, 'Plugins offered'),
      h('p', { class: 'muted small' }, 'Bundles the offline repository or the appliance image holds that this '
        + 'appliance does not run. Installing one goes through the same dry-run resolve, health check and rollback '
        + 'as a package.'), offeredHost),
    h('section', { class: 'panel' }, h('h2', {}, 'Running bundles'), bundlesHost));

  function size(bytes) {
    if (bytes >= 1 << 30) return `${(bytes / (1 << 30)).toFixed(1)} GiB`;
    if (bytes >= 1 << 20) return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
    if (bytes >= 1 << 10) return `${(bytes / (1 << 10)).toFixed(0)} KiB`;
    return `${bytes} B`;
  }

  function jobView(j) {
    if (!j || j.phase === 'done') return '';
    const steps = PHASES.map((p) => h('li', { class: p === j.phase ? 'current' : '' }, p));
    return h('section', { class: 'panel', id: 'updates-job-panel', role: 'status' },
      h('h2', {}, j.kind === 'rollback' ? 'Rolling back' : `Installing ${j.source}`),
      h('p', {}, h('strong', { id: 'updates-phase' }, j.phase), ` · started ${relative(j.started)} by ${j.by}`),
      j.total > 0 ? h('progress', { id: 'updates-job-progress', max: j.total, value: j.bytes }) : '',
      j.total > 0 ? h('span', { class: 'small' }, ` ${size(j.bytes)} of ${size(j.total)} copied`) : '',
      h('ol', { class: 'steps' }, ...steps));
  }

  function stickView(stick) {
    if (!stick.present) return h('p', { class: 'muted', id: 'updates-no-stick' }, `No update stick at ${stick.folder}.`);
    if (stick.problem) return h('p', { class: 'notice error' }, stick.problem);
    if (!stick.packages.length) return h('p', { class: 'muted' }, `The stick at ${stick.folder} holds no .bwu package.`);
    return h('table', {},
      h('thead', {}, h('tr', {}, h('th', {}, 'Package'), h('th', { class: 'num' }, 'Size'), h('th', {}, 'Written'), h('th', {}, ''))),
      h('tbody', {}, ...stick.packages.map((p) => h('tr', { data: { file: p.file } },
        h('td', {}, h('strong', {}, p.file)),
        h('td', { class: 'num' }, size(p.size)),
        h('td', {}, absolute(p.modified)),
        h('td', {}, admin ? h('button', { type: 'button', class: 'install', onclick: () => install(p.file) }, 'Verify and install') : '')))));
  }

  function historyView(list) {
    if (!list.length) return h('p', { class: 'muted' }, 'No update has been installed on this appliance.');
    return h('table', {},
      h('thead', {}, h('tr', {}, h('th', {}, 'When'), h('th', {}, 'Package'), h('th', {}, 'From'), h('th', {}, 'By'),
        h('th', {}, 'Outcome'), h('th', {}, 'Why'))),
      h('tbody', {}, ...list.map((u) => h('tr', { data: { update: u.id } },
        h('td', { title: u.started }, absolute(u.ended || u.started)),
        h('td', {}, h('strong', {}, u.version || '—'), h('div', { class: 'small' }, u.source)),
        h('td', {}, u.from || '—'),
        h('td', {}, u.by),
        h('td', {}, h('span', { class: `badge ${OUTCOME_BADGE[u.outcome] || ''}` }, u.outcome)),
        h('td', { class: 'small reason' }, u.reason,
          u.changed && u.changed.length ? h('div', { class: 'muted' }, `changed: ${u.changed.join(', ')}`) : '',
          u.ecdsaSigner ? h('div', { class: 'muted' }, `signed by ${u.ecdsaSigner} (ECDSA) and ${u.lmsSigner} (LMS)`) : '')))));
  }

  function bundlesView(list, plugins) {
    const removable = new Map(plugins.running.map((p) => [p.symbolicName, p]));
    return h('table', {},
      h('thead', {}, h('tr', {}, h('th', {}, 'Bundle'), h('th', {}, 'Version'), h('th', {}, 'From'), h('th', {}, 'State'),
        h('th', {}, 'Plugin'))),
      h('tbody', {}, ...list.map((b) => {
        const p = removable.get(b.symbolicName);
        return h('tr', { data: { bundle: b.symbolicName } },
          h('td', { class: 'mono small' }, b.symbolicName), h('td', {}, b.version), h('td', {}, b.origin),
          h('td', {}, h('span', { class: `badge ${b.state === 'active' ? 'subsystem-up' : 'sev-warning'}` }, b.state)),
          h('td', { class: 'small' }, p && p.plugin ? h('span', {}, `${p.plugin} `) : '', p && p.removable
            ? (admin ? confirmButton('Remove', `Remove the plugin ${b.symbolicName}`, { class: 'remove-plugin' },
              () => changePlugin(b.symbolicName, 'remove')) : 'removable')
            : h('span', { class: 'muted' }, p && p.why && p.plugin ? `kept: ${p.why}` : '')));
      })));
  }

  function offeredView(list) {
    if (!list.length) return h('p', { class: 'muted', id: 'updates-none-offered' }, 'Every bundle offered runs.');
    return h('table', {},
      h('thead', {}, h('tr', {}, h('th', {}, 'Bundle'), h('th', {}, 'Version'), h('th', {}, 'From'), h('th', {}, ''))),
      h('tbody', {}, ...list.map((b) => h('tr', { data: { bundle: b.symbolicName } },
        h('td', { class: 'mono small' }, b.symbolicName), h('td', {}, b.version || '—'), h('td', {}, b.origin),
        h('td', {}, admin ? h('button', { type: 'button', class: 'install-plugin',
          onclick: () => changePlugin(b.symbolicName, 'install') }, 'Install') : '')))));
  }

  async function changePlugin(bundle, action) {
    try {
      await send('POST', `updates/plugins/${encodeURIComponent(bundle)}/${action}`, {});
      refresh();
    } catch (e) {
      showProblem(error, e);
    }
  }

  let summaryKey = '';
  let shownBundles = '';
  let timer = null;
  let stopped = false;

  async function refresh() {
    try {
      const [s, hist, plugins] = await Promise.all([getJson('updates'), getJson('updates/history'),
        getJson('updates/plugins')]);
      if (stopped) return;
      const key = `${s.version}|${s.bundles.length}|${s.revokedKeys.length}|${s.previous ? s.previous.version : ''}`;
      if (key !== summaryKey) summaryKey = key; else s.skipSummary = true;
      if (!s.skipSummary) replace(summary, h('section', { class: 'panel' },
        h('p', { class: 'big' }, 'Running version ', h('strong', { id: 'updates-version' }, s.version),
          ` · ${s.bundles.length} bundles`, s.revokedKeys.length ? ` · ${s.revokedKeys.length} revoked keys` : ''),
        s.previous ? h('p', {}, `The previous set (${s.previous.version}) is kept. `,
          admin ? confirmButton('Roll back', `Roll back to ${s.previous.version}`, { id: 'updates-rollback' }, rollback) : '') : ''));
      replace(jobHost, jobView(s.job));
      replace(stickHost, stickView(s.stick));
      replace(historyHost, historyView(hist.updates));
      // Re-drawn only when they change, so a Remove waiting for its confirmation stays.
      const bundlesKey = JSON.stringify([s.bundles, plugins]);
      if (bundlesKey !== shownBundles) {
        shownBundles = bundlesKey;
        replace(bundlesHost, bundlesView(s.bundles, plugins));
        replace(offeredHost, offeredView(plugins.offered));
      }
      clearProblem(error);
      clearTimeout(timer);
      timer = setTimeout(refresh, s.job && s.job.phase !== 'done' ? 1000 : 5000);
    } catch (e) {
      showProblem(error, e);
      clearTimeout(timer);
      if (!stopped) timer = setTimeout(refresh, 5000);
    }
  }

  async function install(file) {
    try {
      await send('POST', `updates/stick/${encodeURIComponent(file)}/install`, { allowDowngrade: downgrade.checked });
      refresh();
    } catch (e) {
      showProblem(error, e);
    }
  }

  async function rollback() {
    try {
      await send('POST', 'updates/rollback', {});
      refresh();
    } catch (e) {
      showProblem(error, e);
    }
  }

  async function send_() {
    const file = uploadFile.files[0];
    if (!file) {
      showProblem(error, new Error('Choose a .bwu package.'));
      return;
    }
    uploadProgress.hidden = false;
    uploadProgress.value = 0;
    try {
      const q = `updates/upload?name=${encodeURIComponent(file.name)}${downgrade.checked ? '&allowDowngrade=true' : ''}`;
      await upload(q, file, {}, (sent, total) => { uploadProgress.value = Math.round((100 * sent) / total); });
      clearProblem(error);
      refresh();
    } catch (e) {
      showProblem(error, e);
    } finally {
      uploadProgress.hidden = true;
    }
  }

  refresh();
  return { refresh, onEvent() {}, onCapacity() {}, onFinding() {}, unmount() { stopped = true; clearTimeout(timer); } };
}
