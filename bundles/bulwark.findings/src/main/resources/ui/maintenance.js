// Maintenance (operators and admins set it; auditors see it): nodes and GPUs whose findings are held back
// from notifications while planned work goes on. Detection and the findings themselves carry on as usual.

import { getJson, send } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { absolute, relative } from '/js/format.js';
import { clearProblem, confirmButton, showProblem } from '/js/problems.js';

export function mount(root, params, navigate, session) {
  const canAct = session && (session.role === 'admin' || session.role === 'operator');
  const error = h('p', { class: 'notice error', hidden: true, id: 'maintenance-error', role: 'alert' });
  const listHost = h('div', { class: 'table-wrap' });
  const node = h('input', { id: 'maintenance-node', required: true, placeholder: 'gpu-node-017', value: params.node || '' });
  const gpu = h('input', { id: 'maintenance-gpu', type: 'number', min: -1, max: 1023, placeholder: 'whole node' });
  const hours = h('input', { id: 'maintenance-hours', type: 'number', min: 1, max: 2160, value: 4, required: true });
  const reason = h('input', { id: 'maintenance-reason', required: true, maxlength: 2000, placeholder: 'e.g. replacing GPU 3, ticket 4711' });
  const formError = h('p', { class: 'notice error', hidden: true, id: 'maintenance-form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary', id: 'maintenance-submit' }, 'Start maintenance');
  const form = h('form', { id: 'maintenance-form' },
    h('div', { class: 'form-grid' },
      h('label', {}, 'Node', node),
      h('label', {}, 'GPU', gpu, h('span', { class: 'hint' }, 'Empty for the whole node')),
      h('label', {}, 'For (hours)', hours),
      h('label', {}, 'Reason', reason)),
    h('div', { class: 'form-actions' }, submit), formError);

  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'Maintenance')),
    h('p', { class: 'muted' }, 'While a node or GPU is in maintenance its findings are detected and shown as usual, '
      + 'but not sent to the alert channels. A finding still open when the window ends is sent then.'),
    error,
    h('section', { class: 'panel' }, h('h2', {}, 'Windows'), listHost),
    canAct ? h('section', { class: 'panel' }, h('h2', {}, 'Start a window'), form) : '');

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearProblem(formError);
    submit.disabled = true;
    try {
      const body = {
        node: node.value.trim(),
        until: new Date(Date.now() + Number(hours.value) * 3600_000).toISOString(),
        reason: reason.value.trim(),
      };
      if (gpu.value !== '') body.gpu = Number(gpu.value);
      await send('POST', 'maintenance', body);
      reason.value = '';
      refresh();
    } catch (e) {
      showProblem(formError, e);
    } finally {
      submit.disabled = false;
    }
  });

  async function refresh() {
    try {
      const { windows } = await getJson('maintenance');
      replace(listHost, h('table', { class: 'table', id: 'maintenance-list' },
        h('thead', {}, h('tr', {}, ['Node', 'GPU', 'From', 'Until', 'Reason', 'By', ''].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, windows.length ? windows.map((w) => h('tr', { data: { window: w.id, active: w.active } },
          h('td', { class: 'mono' }, h('a', { href: `#/nodes/${encodeURIComponent(w.node)}` }, w.node)),
          h('td', { class: 'num' }, w.gpu < 0 ? 'all' : String(w.gpu)),
          h('td', { class: 'nowrap' }, absolute(w.from)),
          h('td', { class: 'nowrap', title: absolute(w.until) }, w.active ? `${absolute(w.until)} (${relative(w.until)})` : `ended ${absolute(w.until)}`),
          h('td', {}, w.reason),
          h('td', { class: 'mono' }, w.by),
          h('td', {}, canAct && w.active ? confirmButton('End now', 'Confirm end', { class: 'maintenance-end' }, async () => {
            try { await send('DELETE', `maintenance/${encodeURIComponent(w.id)}`); refresh(); } catch (e) { showProblem(error, e); }
          }) : '')))
          : h('tr', { class: 'empty' }, h('td', { colspan: 7 }, 'No maintenance windows.')))));
      clearProblem(error);
    } catch (e) {
      showProblem(error, e);
    }
  }

  refresh();
  const timer = setInterval(refresh, 15000);
  return { refresh, onEvent() {}, onCapacity() {}, onFinding() {}, unmount() { clearInterval(timer); } };
}
