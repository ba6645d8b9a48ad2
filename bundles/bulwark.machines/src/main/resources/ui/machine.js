// A machine's page: its state with the reason and since when, power and BMC, the operations its state allows
// now (the destructive ones ask twice), the next boot, the BMC certificate waiting for an admin's approval, and
// the history of every change: who, why, from, to; the BMC's sensors now and as charts over the last hours, its
// event log, and the hardware inventory its last probe read; for a machine linked to a GPU node, that node's GPUs in
// the state the capacity account gives them (the same the fleet page, the node page, /metrics and the CLI show) and
// the node's open findings, GPU and BMC alike. While a BMC operation is pending the page follows it.

import { getJson, send } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { lineChart } from '/js/chart.js';
import { absolute, relative } from '/js/format.js';
import { clearProblem, confirmButton, showProblem } from '/js/problems.js';
import { stateBadge, bmcBadge, POWER_LABEL } from '/ui/bulwark.machines/states.js';

// What takes a deployed machine's work away: these pass the remediation guardrails first.
const OUT_OF_SERVICE = new Set(['power-off', 'soft-off', 'power-cycle', 'release', 'erase-disks', 'rescue']);

const ASK_TWICE = new Set(['power-off', 'power-cycle', 'soft-off', 'release', 'erase-disks', 'mark-broken', 'deploy',
  'abort', 'quarantine', 'delete']);

export function mount(root, params, navigate, session) {
  const id = params.argument;
  const role = session && session.role;
  const canAct = role === 'admin' || role === 'operator';
  const isAdmin = role === 'admin';
  const error = h('p', { class: 'notice error', hidden: true, id: 'machine-error', role: 'alert' });
  const title = h('h1', { class: 'mono' }, id);
  const facts = h('dl', { class: 'facts', id: 'machine-facts' });
  const bmcNotice = h('div', { id: 'machine-bmc-notice' });
  const actions = h('div', { class: 'row-actions', id: 'machine-actions' });
  const reason = h('input', { id: 'machine-reason', maxlength: 500, placeholder: 'why (kept in the history and the audit log)' });
  const guardHost = h('div', { id: 'machine-guardrail' });
  const bootHost = h('div', { id: 'machine-boot' });
  const bmcHost = h('div', { id: 'machine-bmc-form' });
  const historyHost = h('div', { class: 'table-wrap' });
  const sensorsHost = h('div', { class: 'table-wrap', id: 'machine-sensors' });
  const eventsHost = h('div', { class: 'table-wrap', id: 'machine-events' });
  const chartsHost = h('div', { class: 'chart-grid', id: 'machine-sensor-charts' });
  const inventoryHost = h('div', { class: 'table-wrap', id: 'machine-inventory' });
  const nodeHost = h('div', { class: 'table-wrap', id: 'machine-node' });
  const windowSelect = h('select', { id: 'machine-sensor-window', 'aria-label': 'Sensor chart window', onchange: () => refresh() },
    [[60, 'last hour'], [360, 'last 6 hours'], [1440, 'last 24 hours']].map(([v, l]) => h('option', { value: v }, l)));
  let timer = null;

  replace(root,
    h('nav', { class: 'crumbs' }, h('a', { href: '#/machines' }, 'Machines'), ' / ', h('span', { class: 'mono' }, id)),
    h('div', { class: 'page-head' }, title),
    error, bmcNotice, facts,
    canAct ? h('section', { class: 'panel' }, h('h2', {}, 'Operations'),
      guardHost, h('div', { class: 'form-stack' }, h('label', {}, 'Reason', reason)), actions, bootHost) : '',
    isAdmin ? h('section', { class: 'panel' }, h('h2', {}, 'BMC'), bmcHost) : '',
    h('section', { class: 'panel' }, h('h2', {}, 'GPU node'), nodeHost),
    h('section', { class: 'panel' }, h('h2', {}, 'BMC sensors'), sensorsHost),
    h('section', { class: 'panel' }, h('div', { class: 'page-head' }, h('h2', {}, 'BMC sensors over time'),
      h('label', { class: 'window' }, 'Window ', windowSelect)), chartsHost),
    h('section', { class: 'panel' }, h('h2', {}, 'BMC event log'), eventsHost),
    h('section', { class: 'panel' }, h('h2', {}, 'Hardware inventory'), inventoryHost),
    h('section', { class: 'panel' }, h('h2', {}, 'History'), historyHost));

  /** The linked node's GPUs as the capacity account counts them, and its open findings. */
  function renderNode(n, m) {
    if (!m.node) {
      replace(nodeHost, h('p', { class: 'muted' }, 'Not linked to a GPU node: the machine is linked when its host name, or a GPU UUID its BMC reports, is one telemetry knows.'));
      return;
    }
    if (!n) {
      replace(nodeHost, h('p', { class: 'muted' }, `Node ${m.node} is not in the inventory yet.`));
      return;
    }
    const open = n.findings.filter((f) => f.state === 'open');
    replace(nodeHost,
      h('p', {}, h('a', { href: `#/nodes/${encodeURIComponent(m.node)}`, id: 'machine-node-link' }, m.node), ` · ${n.gpus.length} GPUs`),
      h('table', { class: 'table', id: 'machine-node-gpus' },
        h('thead', {}, h('tr', {}, ['GPU', 'Health', 'Capacity', 'Performance'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, n.gpus.map((g) => h('tr', { data: { gpu: g.index, health: g.health, state: g.state || '' } },
          h('td', { class: 'num' }, g.index),
          h('td', {}, h('span', { class: `badge health-${g.health}` }, g.health)),
          h('td', {}, g.state ? (g.limitedBy ? `${g.state} (${g.limitedBy})` : g.state) : '–'),
          h('td', { class: 'num' }, g.relativePerformance === null || g.relativePerformance === undefined ? '–' : `${Math.round(g.relativePerformance * 100)}%`))))),
      open.length
        ? h('table', { class: 'table', id: 'machine-node-findings' },
          h('thead', {}, h('tr', {}, ['Open finding', 'GPU', 'Severity', 'Since', 'Summary'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, open.map((f) => h('tr', { data: { kind: f.kind, severity: f.severity } },
            h('td', { class: 'mono' }, h('a', { href: `#/finding/${encodeURIComponent(f.id)}` }, f.kind)),
            h('td', {}, f.gpu >= 0 ? String(f.gpu) : 'node'),
            h('td', {}, h('span', { class: `badge sev-${f.severity}` }, f.severity)),
            h('td', { class: 'nowrap', title: absolute(f.firstSeen) }, relative(f.firstSeen)),
            h('td', {}, f.summary)))))
        : h('p', { class: 'muted', id: 'machine-node-findings' }, 'No open finding on this node.'));
  }

  function renderSensors(r) {
    const when = r.readAt ? h('p', { class: 'muted small' }, `Read ${relative(r.readAt)} (${absolute(r.readAt)})`, r.error ? ` · ${r.error}` : '') : '';
    replace(sensorsHost, when, r.sensors.length
      ? h('table', { class: 'table' },
        h('thead', {}, h('tr', {}, ['Sensor', 'Kind', 'Reading', 'Health', 'Critical below', 'Critical above'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, r.sensors.map((x) => h('tr', { data: { kind: x.kind, health: x.health || '' } },
          h('td', {}, x.name), h('td', {}, x.kind),
          h('td', { class: 'num' }, x.value === null ? '–' : `${x.value} ${x.unit === 'Cel' ? '°C' : x.unit}`),
          h('td', {}, x.health || '–'),
          h('td', { class: 'num' }, x.lowerCritical === null ? '–' : String(x.lowerCritical)),
          h('td', { class: 'num' }, x.upperCritical === null ? '–' : String(x.upperCritical))))))
      : h('p', { class: 'muted' }, 'Not read yet: the BMC is read once its certificate is pinned, every minute by default.'));
    replace(eventsHost, r.events.length
      ? h('table', { class: 'table' },
        h('thead', {}, h('tr', {}, ['When', 'Severity', 'Message', 'Sensor type'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, r.events.map((e) => h('tr', { data: { severity: e.severity } },
          h('td', { class: 'nowrap' }, e.created ? absolute(e.created) : '–'), h('td', {}, e.severity),
          h('td', {}, e.message), h('td', {}, e.sensorType || '–')))))
      : h('p', { class: 'muted' }, 'No entries read.'));
  }

  // One small chart per sensor, grouped by kind, temperatures first.
  const KIND_ORDER = ['temperature', 'fan', 'power', 'power-supply', 'voltage', 'other'];
  function renderCharts(r) {
    const series = [...r.series].filter((x) => x.points.length)
      .sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
    replace(chartsHost, series.length
      ? series.map((x) => {
        const unit = x.unit === 'Cel' ? '°C' : x.unit;
        return h('section', { class: 'metric-chart', data: { metric: x.metric, kind: x.kind } },
          h('h3', {}, `${x.name} (${unit})`),
          lineChart({ points: x.points, from: r.from, to: r.to, unit, digits: x.unit === 'V' ? 2 : 0, label: `${x.name} of ${id}` }));
      })
      : h('p', { class: 'muted' }, r.node
        ? 'No readings in this window yet: the BMC is read every minute by default.'
        : 'Charts show once the machine is linked to its GPU node (by host name) and its BMC has been read.'));
  }

  const KIND_LABEL = { cpu: 'CPU', gpu: 'GPU', memory: 'Memory', pcie: 'PCIe device', drive: 'Drive', nic: 'Network port', firmware: 'Firmware' };
  function renderInventory(r) {
    replace(inventoryHost, r.components.length
      ? h('table', { class: 'table' },
        h('thead', {}, h('tr', {}, ['Kind', 'Id', 'Name', 'Manufacturer', 'Model', 'Serial', 'Details'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, r.components.map((c) => h('tr', { data: { kind: c.kind } },
          h('td', {}, KIND_LABEL[c.kind] || c.kind), h('td', { class: 'mono' }, c.id), h('td', {}, c.name || '–'),
          h('td', {}, c.manufacturer || '–'), h('td', {}, c.model || '–'), h('td', { class: 'mono small' }, c.serial || '–'),
          h('td', { class: 'small' }, Object.entries(c.details).map(([k, v]) => `${k} ${v}`).join(' · ') || '–')))))
      : h('p', { class: 'muted' }, 'Not read yet: a probe of the BMC reads the inventory.'));
  }

  async function act(op, body) {
    clearProblem(error);
    try {
      if (op === 'delete') {
        await send('DELETE', `machines/${encodeURIComponent(id)}`, { reason: reason.value.trim() });
        navigate('#/machines');
        return;
      }
      await send('POST', `machines/${encodeURIComponent(id)}/${op}`, { reason: reason.value.trim(), ...body });
      reason.value = '';
    } catch (e) {
      showProblem(error, e);
    }
    refresh();
  }

  function render(m, history) {
    replace(facts,
      fact('State', stateBadge(m), m.stateReason ? h('div', { class: 'muted small', id: 'machine-state-reason' }, m.stateReason) : ''),
      fact('Since', `${relative(m.stateSince)} (${absolute(m.stateSince)})`),
      m.stateDeadline ? fact('Times out', `${relative(m.stateDeadline)} (${absolute(m.stateDeadline)})`) : '',
      fact('Power', h('span', { id: 'machine-power', data: { power: m.power } }, POWER_LABEL[m.power] || m.power), m.pending ? h('span', { class: 'muted', id: 'machine-pending' }, ` · ${m.pending} under way…`) : ''),
      fact('BMC', m.bmc ? `${m.bmc.protocol} ${m.bmc.address}:${m.bmc.port}` : 'none', ' ', bmcBadge(m)),
      fact('Pinned certificate', m.bmc && m.bmc.pinnedSha256 ? h('span', { class: 'mono small' }, m.bmc.pinnedSha256) : 'none'),
      fact('Host name', m.hostname),
      fact('MACs', m.macs.length ? h('span', { class: 'mono' }, m.macs.join(', ')) : '–'),
      fact('Rack', m.rack || '–'),
      fact('Tags', m.tags.length ? m.tags.join(', ') : '–'),
      fact('Owner', m.owner || '–'),
      fact('Locked', m.locked ? 'yes' : 'no'),
      fact('GPU node', m.node ? h('a', { href: `#/nodes/${encodeURIComponent(m.node)}` }, m.node) : 'not linked'));
    replace(bmcNotice,
      m.bmc && m.bmc.presentedSha256 ? certificatePanel(m) : '',
      m.bmc && m.bmc.error && !m.bmc.presentedSha256 ? h('p', { class: 'notice error', id: 'machine-bmc-error' }, m.bmc.error) : '');
    const allowed = m.allowed || [];
    const jobs = m.runningJobs || [];
    replace(guardHost,
      m.guardrail ? h('p', { class: 'notice error', id: 'machine-guardrail-refusal' }, `Guardrail: ${m.guardrail}. `,
        isAdmin ? 'An admin may override it: write the reason, then confirm.' : 'An admin may override it with a written reason.') : '',
      jobs.length ? h('p', { class: 'notice', id: 'machine-running-jobs' },
        `Its scheduler lists ${jobs.length} running job${jobs.length === 1 ? '' : 's'} on ${m.hostname}: ${jobs.join(', ')}.`) : '');
    replace(actions, allowed.filter((op) => op !== 'set-boot').map((op) => {
      const label = op.replace(/-/g, ' ');
      const attrs = { data: { op }, class: ASK_TWICE.has(op) ? 'danger' : '' };
      const guarded = m.state === 'deployed' && OUT_OF_SERVICE.has(op);
      if (guarded && m.guardrail && !isAdmin) {
        return h('button', { type: 'button', ...attrs, disabled: true, title: m.guardrail }, label);
      }
      const kills = guarded && jobs.length ? `: kills job${jobs.length === 1 ? '' : 's'} ${jobs.join(', ')}` : '';
      if (guarded && m.guardrail) {
        return confirmButton(`${label} (override)`, `Confirm override: ${label}${kills}`, attrs, () => act(op, { override: true }));
      }
      return ASK_TWICE.has(op)
        ? confirmButton(label, `Confirm ${label}${kills}`, attrs, () => act(op))
        : h('button', { type: 'button', ...attrs, onclick: () => act(op) }, label);
    }), allowed.length ? '' : h('span', { class: 'muted' }, 'Nothing can be done in this state until the operation under way ends.'));
    replace(bootHost, allowed.includes('set-boot') ? bootForm() : '');
    if (isAdmin && !bmcHost.firstChild) replace(bmcHost, bmcForm(m));
    replace(historyHost, h('table', { class: 'table', id: 'machine-history' },
      h('thead', {}, h('tr', {}, ['When', 'Operation', 'From', 'To', 'By', 'Reason'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, [...history].reverse().map((e) => h('tr', { data: { op: e.operation } },
        h('td', { class: 'nowrap', title: absolute(e.at) }, absolute(e.at)),
        h('td', { class: 'mono' }, e.operation),
        h('td', {}, e.from),
        h('td', {}, e.to),
        h('td', { class: 'mono' }, e.by),
        h('td', {}, e.reason))))));
    clearInterval(timer);
    timer = setInterval(refresh, m.pending ? 5000 : 30000);
  }

  function certificatePanel(m) {
    const panel = h('section', { class: 'panel', id: 'machine-certificate' },
      h('h2', {}, 'BMC certificate to approve'),
      h('p', {}, `The BMC at ${m.bmc.address} presented a certificate that is not pinned. Compare this SHA-256 with the one `
        + 'the BMC shows on its own console or web page; pin it only if they match. Nothing but the TLS handshake is sent until then.'),
      h('p', { class: 'mono', id: 'machine-presented' }, m.bmc.presentedSha256));
    if (isAdmin) {
      panel.append(confirmButton('Pin this certificate', 'Confirm: they match', { class: 'primary', id: 'machine-pin' }, async () => {
        try {
          await send('POST', `machines/${encodeURIComponent(id)}/pin-certificate`, { sha256: m.bmc.presentedSha256 });
        } catch (e) {
          showProblem(error, e);
        }
        refresh();
      }));
    } else {
      panel.append(h('p', { class: 'muted' }, 'An administrator approves it.'));
    }
    return panel;
  }

  /** Gives the machine its BMC (an enlisted machine, a replaced board); the password is sealed, never shown. */
  function bmcForm(m) {
    const protocol = h('select', { id: 'bmc-protocol' }, h('option', { value: 'redfish' }, 'Redfish'), h('option', { value: 'ipmi' }, 'IPMI'));
    const address = h('input', { id: 'bmc-address', placeholder: '10.41.0.7', value: m.bmc ? m.bmc.address : '', autocomplete: 'off' });
    const port = h('input', { id: 'bmc-port', type: 'number', min: 1, max: 65535, placeholder: 'default', value: m.bmc ? m.bmc.port : '' });
    const user = h('input', { id: 'bmc-username', autocomplete: 'off' });
    const password = h('input', { id: 'bmc-password', type: 'password', autocomplete: 'new-password' });
    const sha = h('input', { id: 'bmc-sha256', class: 'mono', placeholder: 'optional: its certificate\'s SHA-256, to pin it now', autocomplete: 'off' });
    const system = h('input', { id: 'bmc-system', placeholder: 'optional: its Id, e.g. 3', value: m.bmc && m.bmc.system ? m.bmc.system : '', autocomplete: 'off' });
    if (m.bmc) protocol.value = m.bmc.protocol;
    return h('form', { class: 'form-grid', id: 'bmc-form', onsubmit: async (e) => {
      e.preventDefault();
      const body = { protocol: protocol.value, address: address.value.trim(), username: user.value, password: password.value };
      if (port.value) body.port = Number(port.value);
      if (sha.value.trim()) body.sha256 = sha.value.trim();
      if (system.value.trim()) body.system = system.value.trim();
      try {
        await send('PUT', `machines/${encodeURIComponent(id)}/bmc`, body);
        password.value = '';
        clearProblem(error);
        replace(bmcHost);
      } catch (err) {
        showProblem(error, err);
      }
      refresh();
    } },
    h('label', { for: 'bmc-protocol' }, 'Protocol'), protocol,
    h('label', { for: 'bmc-address' }, 'Address'), address,
    h('label', { for: 'bmc-port' }, 'Port'), port,
    h('label', { for: 'bmc-username' }, 'User name'), user,
    h('label', { for: 'bmc-password' }, 'Password'), password,
    h('label', { for: 'bmc-sha256' }, 'Certificate SHA-256'), sha,
    h('label', { for: 'bmc-system' }, 'System (when the BMC manages several)'), system,
    h('span', {}), h('button', { type: 'submit', id: 'bmc-submit' }, m.bmc ? 'Replace the BMC' : 'Set the BMC'));
  }

  function bootForm() {
    const device = h('select', { id: 'machine-boot-device', 'aria-label': 'Next boot device' },
      [['pxe', 'network (PXE)'], ['http', 'UEFI HTTP'], ['disk', 'disk'], ['bios-setup', 'firmware setup'], ['none', 'no override']]
        .map(([v, l]) => h('option', { value: v }, l)));
    const once = h('input', { type: 'checkbox', id: 'machine-boot-once', checked: true });
    return h('div', { class: 'filters' }, h('label', {}, 'Next boot', device), h('label', {}, once, 'once only'),
      h('button', { type: 'button', id: 'machine-boot-set', onclick: () => act('set-boot', { device: device.value, once: once.checked }) }, 'Set next boot'));
  }

  async function refresh() {
    try {
      const base = `machines/${encodeURIComponent(id)}`;
      const [m, h2, sensors, charts, inventory] = await Promise.all([getJson(base), getJson(`${base}/history`),
        getJson(`${base}/sensors`), getJson(`${base}/sensors/history?minutes=${windowSelect.value}`), getJson(`${base}/inventory`)]);
      render(m, h2.history);
      renderNode(m.node ? await getJson(`nodes/${encodeURIComponent(m.node)}?minutes=1`).catch(() => null) : null, m);
      renderSensors(sensors);
      renderCharts(charts);
      renderInventory(inventory);
    } catch (e) {
      showProblem(error, e);
    }
  }

  refresh();
  // Live: a change of this machine (a BMC operation's result, a state) comes as a 'machine' event.
  function onEvent(topic, data) {
    if (topic === 'machine' && data && data.id === id) refresh();
  }

  return { refresh, onEvent, onCapacity() {}, onFinding() {}, unmount() { clearInterval(timer); } };
}

function fact(label, ...value) {
  return h('div', { class: 'fact' }, h('dt', {}, label), h('dd', {}, ...value));
}
