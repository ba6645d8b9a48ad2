// Alerts page (admins and operators): the notification channels that carry findings out of the appliance
// (syslog to the SIEM, webhooks, Alertmanager, mail), each with its delivery state (waiting, delivered,
// the last error and the next attempt) and a "Send test" button; admins add, change and remove channels.
// Credentials (a webhook's token, a relay's password) are write-only: they go to the sealed secret store.

import { getJson, send } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { absolute, relative } from '/js/format.js';
import { clearProblem, confirmButton, showProblem } from '/js/problems.js';

const SEVERITIES = ['info', 'warning', 'critical'];

export function mount(root, params, navigate, session) {
  const admin = session && session.role === 'admin';
  const error = h('p', { class: 'notice error', hidden: true, id: 'alerts-error', role: 'alert' });
  const listHost = h('div', { class: 'table-wrap' });
  const testResult = h('p', { class: 'notice', hidden: true, id: 'alerts-test-result', role: 'status' });
  const formHost = h('div', {});
  let types = [];

  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'Alerts')),
    h('p', { class: 'muted' }, 'Where findings go when they open, change severity and resolve. Notifications wait in '
      + 'the appliance\'s outbox while a receiver is away and are sent when it returns.'),
    error,
    testResult,
    h('section', { class: 'panel' }, h('h2', {}, 'Channels'), listHost),
    admin ? h('section', { class: 'panel' }, h('h2', { id: 'channel-form-title' }, 'Add a channel'), formHost) : '');

  function state(c) {
    const d = c.delivery;
    if (!c.enabled) return h('span', { class: 'badge sev-info' }, 'off');
    if (!d.delivering) return h('span', { class: 'badge sev-critical', title: d.problem }, 'not delivering');
    if (d.consecutiveFailures > 0 && d.waiting > 0) return h('span', { class: 'badge sev-warning' }, 'failing');
    return h('span', { class: 'badge subsystem-up' }, 'delivering');
  }

  function row(c) {
    const d = c.delivery;
    const where = c.settings.url || (c.settings.host ? `${c.settings.host}${c.settings.port ? ':' + c.settings.port : ''}` : '');
    const route = [`≥ ${c.route.minSeverity}`, c.route.kinds.length ? c.route.kinds.join(', ') : 'all kinds',
      ...Object.entries(c.route.labels).map(([k, v]) => `${k}=${v}`), c.route.sendResolved ? 'with resolutions' : 'no resolutions'].join('; ');
    const problem = !d.delivering ? d.problem : (d.consecutiveFailures > 0 ? d.lastError : '');
    return h('tr', { data: { channel: c.name } },
      h('td', {}, h('strong', {}, c.name), h('div', { class: 'muted small mono' }, c.type)),
      h('td', { class: 'mono small' }, where),
      h('td', { class: 'small' }, route),
      h('td', {}, state(c), problem ? h('div', { class: 'small channel-problem' }, problem) : ''),
      h('td', { class: 'num' }, String(d.waiting)),
      h('td', { class: 'num' }, String(d.delivered)),
      h('td', { class: 'num', title: 'rejected by the receiver / dropped over the outbox bound' }, `${d.rejected} / ${d.dropped}`),
      h('td', { class: 'nowrap small', title: d.lastSuccess ? absolute(d.lastSuccess) : '' },
        d.lastSuccess ? relative(d.lastSuccess) : '—',
        d.nextAttempt ? h('div', { class: 'muted' }, `next attempt ${relative(d.nextAttempt)}`) : ''),
      h('td', { class: 'nowrap' },
        h('button', { type: 'button', class: 'channel-test', data: { channel: c.name }, onclick: () => test(c.name) }, 'Send test'),
        admin ? h('button', { type: 'button', class: 'channel-edit', onclick: () => edit(c) }, 'Edit') : '',
        admin ? confirmButton('Remove', 'Confirm remove', { class: 'danger channel-remove' }, () => remove(c.name)) : ''));
  }

  async function refresh() {
    try {
      const { channels } = await getJson('notify/channels');
      replace(listHost, h('table', { id: 'channel-list', class: 'table' },
        h('thead', {}, h('tr', {}, ['Channel', 'Receiver', 'Carries', 'State', 'Waiting', 'Delivered', 'Rejected / dropped', 'Last delivered', '']
          .map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, channels.length ? channels.map(row)
          : h('tr', { class: 'empty' }, h('td', { colspan: 9 }, 'No channels: findings are shown on this appliance only.'
            + (admin ? ' Add one below.' : ' An administrator can add one.'))))));
      clearProblem(error);
    } catch (e) {
      showProblem(error, e);
    }
  }

  async function test(name) {
    testResult.hidden = false;
    testResult.className = 'notice';
    testResult.textContent = `Sending a test notification through ${name}…`;
    try {
      const r = await send('POST', `notify/channels/${encodeURIComponent(name)}/test`, {});
      testResult.className = r.delivered ? 'notice ok' : 'notice error';
      testResult.textContent = r.delivered
        ? `${name}: the receiver accepted the test notification (${r.millis} ms).`
        : `${name}: the test was not delivered: ${r.error}`;
    } catch (e) {
      testResult.className = 'notice error';
      testResult.textContent = `${name}: ${e.message}`;
    }
    refresh();
  }

  async function remove(name) {
    try {
      await send('DELETE', `notify/channels/${encodeURIComponent(name)}`);
      refresh();
    } catch (e) {
      showProblem(error, e);
    }
  }

  function edit(channel) {
    buildForm(channel);
    document.getElementById('channel-form-title').textContent = `Change ${channel.name}`;
    formHost.scrollIntoView({ block: 'start' });
  }

  function buildForm(existing) {
    const formError = h('p', { class: 'notice error', hidden: true, id: 'channel-error', role: 'alert' });
    const name = h('input', { id: 'channel-name', required: true, maxlength: 32, pattern: '[a-z][a-z0-9-]{0,31}',
      value: existing ? existing.name : '', readonly: !!existing });
    const type = h('select', { id: 'channel-type' }, types.map((t) => h('option', { value: t.type }, t.type)));
    if (existing) type.value = existing.type;
    const settingsHost = h('div', { class: 'form-grid' });
    const min = h('select', { id: 'channel-min-severity' }, SEVERITIES.map((s) => h('option', { value: s }, s)));
    min.value = existing ? existing.route.minSeverity : 'warning';
    const kinds = h('input', { id: 'channel-kinds', placeholder: 'all kinds', value: existing ? existing.route.kinds.join(', ') : '' });
    const labels = h('input', { id: 'channel-labels', placeholder: 'e.g. rack=a07|a08, pool=train',
      value: existing ? Object.entries(existing.route.labels).map(([k, v]) => `${k}=${v}`).join(', ') : '' });
    const resolved = h('input', { id: 'channel-resolved', type: 'checkbox', checked: existing ? existing.route.sendResolved : true });
    const enabled = h('input', { id: 'channel-enabled', type: 'checkbox', checked: existing ? existing.enabled : true });
    const credential = h('input', { id: 'channel-credential', type: 'password', autocomplete: 'new-password',
      placeholder: existing && existing.credential ? 'kept (type to replace)' : 'none' });
    const submit = h('button', { type: 'submit', class: 'primary', id: 'channel-submit' }, existing ? 'Save' : 'Add channel');
    const cancel = h('button', { type: 'button', onclick: () => { buildForm(null); document.getElementById('channel-form-title').textContent = 'Add a channel'; } }, 'Cancel');
    const inputs = {};

    function drawSettings() {
      const t = types.find((x) => x.type === type.value);
      replace(settingsHost, ...(t ? t.settings.map((s) => {
        const multi = s.key === 'caCertificate';
        const value = existing && existing.type === t.type && existing.settings[s.key] != null ? existing.settings[s.key] : '';
        const input = multi
          ? h('textarea', { id: `setting-${s.key}`, rows: 4, placeholder: '-----BEGIN CERTIFICATE-----' }, value)
          : h('input', { id: `setting-${s.key}`, value, placeholder: s.default || '', required: s.required });
        inputs[s.key] = input;
        return h('label', {}, `${s.key}${s.required ? ' *' : ''}`, input, h('span', { class: 'hint' }, s.description));
      }) : []));
    }
    type.addEventListener('change', () => { for (const k of Object.keys(inputs)) delete inputs[k]; drawSettings(); });
    drawSettings();

    const form = h('form', { id: 'channel-form' },
      h('div', { class: 'form-grid' },
        h('label', {}, 'Name', name, h('span', { class: 'hint' }, 'Lower case, e.g. "siem" or "oncall-mail"')),
        h('label', {}, 'Type', type)),
      h('h3', {}, 'Receiver'),
      settingsHost,
      h('label', {}, 'Credential', credential, h('span', { class: 'hint' }, 'A webhook\'s bearer token or the relay user\'s password; kept sealed, never shown. Leave empty to keep it.')),
      h('h3', {}, 'What it carries'),
      h('div', { class: 'form-grid' },
        h('label', {}, 'From severity', min),
        h('label', {}, 'Finding kinds', kinds, h('span', { class: 'hint' }, 'Comma-separated, e.g. xid, ecc-dbe; empty for all')),
        h('label', {}, 'Node labels', labels, h('span', { class: 'hint' }, 'file_sd labels the node must have; "a|b" for either')),
        h('label', { class: 'check' }, resolved, ' Send resolutions'),
        h('label', { class: 'check' }, enabled, ' On')),
      h('div', { class: 'form-actions' }, submit, existing ? cancel : ''),
      formError);

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearProblem(formError);
      const settings = {};
      for (const [k, input] of Object.entries(inputs)) {
        if (input.value.trim() !== '') settings[k] = input.value.trim();
      }
      const labelMap = {};
      for (const part of labels.value.split(',').map((x) => x.trim()).filter(Boolean)) {
        const i = part.indexOf('=');
        if (i > 0) labelMap[part.slice(0, i).trim()] = part.slice(i + 1).trim();
      }
      const body = {
        type: type.value,
        enabled: enabled.checked,
        settings,
        route: {
          minSeverity: min.value,
          kinds: kinds.value.split(',').map((x) => x.trim()).filter(Boolean),
          labels: labelMap,
          sendResolved: resolved.checked,
        },
      };
      if (credential.value !== '') body.credential = credential.value;
      submit.disabled = true;
      try {
        await send('PUT', `notify/channels/${encodeURIComponent(name.value.trim())}`, body);
        credential.value = '';
        buildForm(null);
        document.getElementById('channel-form-title').textContent = 'Add a channel';
        refresh();
      } catch (e) {
        showProblem(formError, e);
      } finally {
        submit.disabled = false;
      }
    });
    replace(formHost, form);
  }

  async function loadTypes() {
    if (!admin) return;
    try {
      ({ types } = await getJson('notify/types'));
      buildForm(null);
    } catch (e) {
      showProblem(error, e);
    }
  }

  loadTypes();
  refresh();
  const timer = setInterval(refresh, 5000);
  return { refresh, onEvent() {}, onCapacity() {}, onFinding() {}, unmount() { clearInterval(timer); } };
}
