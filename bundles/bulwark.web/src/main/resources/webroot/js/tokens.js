// API tokens page (admins): the tokens for automation with their role, creator, expiry and state; issuing one
// (its secret is shown once, here, with a copy button) and revoking one.

import { getJson, send } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { absolute, relative } from '/js/format.js';
import { clearProblem, confirmButton, showProblem } from '/js/problems.js';

const ROLES = ['auditor', 'operator', 'admin'];

export function mount(root) {
  const error = h('p', { class: 'notice error', hidden: true, id: 'tokens-error', role: 'alert' });
  const listHost = h('div', { class: 'table-wrap' });
  const formError = h('p', { class: 'notice error', hidden: true, id: 'token-error', role: 'alert' });
  const name = h('input', { id: 'token-name', name: 'name', autocomplete: 'off', required: true, maxlength: 64 });
  const role = h('select', { id: 'token-role', name: 'role' }, ROLES.map((r) => h('option', { value: r }, r)));
  const days = h('input', { id: 'token-days', name: 'validityDays', type: 'number', min: 1, value: 90, required: true });
  const submit = h('button', { type: 'submit', id: 'token-submit', class: 'primary' }, 'Issue token');
  const form = h('form', { class: 'form-grid', id: 'token-form' },
    h('label', {}, 'Name', name, h('span', { class: 'hint' }, 'What uses it, e.g. "prometheus-sd" or "ci-exports"')),
    h('label', {}, 'Role', role),
    h('label', {}, 'Valid for (days)', days, h('span', { class: 'hint' }, 'The appliance caps the validity at its configured maximum.')),
    h('div', { class: 'form-actions' }, submit));

  const secret = h('input', { id: 'token-secret', class: 'mono secret', readonly: true, autocomplete: 'off', spellcheck: 'false' });
  const copyState = h('span', { id: 'token-copy-state', class: 'muted small', 'aria-live': 'polite' });
  const copy = h('button', { type: 'button', id: 'token-copy' }, 'Copy');
  const done = h('button', { type: 'button', id: 'token-secret-done' }, 'I have stored it');
  const secretTitle = h('p', { class: 'secret-title' });
  const secretPanel = h('section', { class: 'panel secret-panel', id: 'token-secret-panel', hidden: true, role: 'alert' },
    h('h2', {}, 'New token'),
    secretTitle,
    h('p', { class: 'secret-warning' }, 'Copy this token now. You will not see it again: Bulwark keeps only a keyed hash of it.'),
    h('div', { class: 'secret-row' }, secret, copy, copyState),
    h('p', { class: 'muted small' }, 'Clients send it as "Authorization: Bearer <token>".'),
    done);

  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'API tokens')),
    error,
    secretPanel,
    h('section', { class: 'panel' }, h('h2', {}, 'Tokens'), listHost),
    h('section', { class: 'panel' }, h('h2', {}, 'Issue a token'), form, formError));

  function hideSecret() {
    secret.value = '';
    copyState.textContent = '';
    secretPanel.hidden = true;
  }

  copy.addEventListener('click', async () => {
    secret.focus();
    secret.select();
    try {
      await navigator.clipboard.writeText(secret.value);
      copyState.textContent = 'Copied to the clipboard.';
    } catch (e) {
      copyState.textContent = document.execCommand && document.execCommand('copy')
        ? 'Copied to the clipboard.'
        : 'Selected: press Ctrl+C to copy.';
    }
  });
  done.addEventListener('click', hideSecret);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearProblem(formError);
    hideSecret();
    submit.disabled = true;
    try {
      const issued = await send('POST', 'tokens', { name: name.value.trim(), role: role.value, validityDays: Number(days.value) });
      secretTitle.textContent = `${issued.name} (${issued.role}), valid until ${absolute(issued.expiresAt)}`;
      secret.value = issued.token;
      secretPanel.hidden = false;
      secretPanel.dataset.tokenId = issued.id;
      name.value = '';
      await refresh();
    } catch (e) {
      showProblem(formError, e);
    } finally {
      submit.disabled = false;
    }
  });

  async function refresh() {
    try {
      const { tokens } = await getJson('tokens');
      replace(listHost, h('table', { id: 'token-list', class: 'table' },
        h('thead', {}, h('tr', {}, ['Name', 'ID', 'Role', 'Created by', 'Created', 'Expires', 'State', ''].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, tokens.length ? tokens.map((t) => h('tr', { data: { token: t.id, name: t.name, state: t.state } },
          h('td', {}, t.name),
          h('td', { class: 'mono' }, t.id),
          h('td', {}, h('span', { class: `badge role-${t.role}` }, t.role)),
          h('td', { class: 'mono' }, t.createdBy),
          h('td', { class: 'nowrap', title: absolute(t.createdAt) }, relative(t.createdAt)),
          h('td', { class: 'nowrap' }, absolute(t.expiresAt)),
          h('td', {}, h('span', { class: `badge state-${t.state}` }, t.state)),
          h('td', {}, t.state === 'active'
            ? confirmButton('Revoke', 'Confirm revoke', { class: 'token-revoke danger', data: { token: t.id } }, () => revoke(t.id))
            : ''))) : h('tr', { class: 'empty' }, h('td', { colspan: 8 }, 'No API tokens yet.')))));
      clearProblem(error);
    } catch (e) {
      showProblem(error, e);
    }
  }

  async function revoke(id) {
    clearProblem(error);
    try {
      await send('DELETE', `tokens/${encodeURIComponent(id)}`);
      if (secretPanel.dataset.tokenId === id) hideSecret();
      await refresh();
    } catch (e) {
      showProblem(error, e);
    }
  }

  refresh();
  return { refresh, onCapacity() {}, onFinding() {}, unmount: hideSecret };
}
