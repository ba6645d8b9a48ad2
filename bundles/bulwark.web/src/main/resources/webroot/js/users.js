// Users page (admins): the local accounts with their role and state, creating a user with an initial password
// (the password policy's refusals are shown next to the form), unlocking a locked account and deleting one.

import { getJson, send } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { absolute } from '/js/format.js';
import { clearProblem, confirmButton, showProblem } from '/js/problems.js';

const ROLES = ['operator', 'auditor', 'admin'];

export function mount(root, params, navigate, session) {
  const error = h('p', { class: 'notice error', hidden: true, id: 'users-error', role: 'alert' });
  const listHost = h('div', { class: 'table-wrap' });
  const createError = h('p', { class: 'notice error', hidden: true, id: 'user-create-error', role: 'alert' });
  const createOk = h('p', { class: 'notice ok', hidden: true, id: 'user-create-ok' });
  const name = h('input', { id: 'user-name', name: 'name', autocomplete: 'off', required: true, pattern: '[a-z][a-z0-9._\\-]{1,31}' });
  const role = h('select', { id: 'user-role', name: 'role' }, ROLES.map((r) => h('option', { value: r }, r)));
  const password = h('input', { id: 'user-password', name: 'password', type: 'password', autocomplete: 'new-password', required: true });
  const submit = h('button', { type: 'submit', id: 'user-create-submit', class: 'primary' }, 'Create user');
  const form = h('form', { class: 'form-grid', id: 'user-create-form' },
    h('label', {}, 'User name', name, h('span', { class: 'hint' }, '2–32 of a–z, 0–9, ".", "_", "-", starting with a letter')),
    h('label', {}, 'Role', role),
    h('label', {}, 'Initial password', password,
      h('span', { class: 'hint' }, 'At least 15 characters with upper- and lower-case letters, digits and other characters, not containing the user name. The user must change it at the first login.')),
    h('div', { class: 'form-actions' }, submit));

  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'Users')),
    error,
    h('section', { class: 'panel' }, h('h2', {}, 'Accounts'), listHost),
    h('section', { class: 'panel' }, h('h2', {}, 'Create a user'), form, createError, createOk));

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearProblem(createError);
    createOk.hidden = true;
    submit.disabled = true;
    try {
      const created = await send('POST', 'users', { name: name.value.trim(), role: role.value, password: password.value });
      password.value = '';
      name.value = '';
      createOk.textContent = `Created ${created.name} (${created.role}). Give them the initial password through a trusted channel.`;
      createOk.hidden = false;
      await refresh();
    } catch (e) {
      showProblem(createError, e);
    } finally {
      submit.disabled = false;
    }
  });

  function stateBadges(u) {
    const badges = [];
    if (u.locked) badges.push(h('span', { class: 'badge state-locked', title: `until ${absolute(u.lockedUntil)}` }, 'locked'));
    if (u.disabled) badges.push(h('span', { class: 'badge state-disabled' }, 'disabled'));
    if (u.mustChangePassword) badges.push(h('span', { class: 'badge state-pending' }, 'must change password'));
    if (!badges.length) badges.push(h('span', { class: 'badge state-active' }, 'active'));
    return badges;
  }

  function actions(u) {
    const cells = [];
    if (u.locked) {
      cells.push(h('button', { type: 'button', class: 'user-unlock', data: { user: u.name }, onclick: () => act(() => send('POST', `users/${encodeURIComponent(u.name)}/unlock`)) }, 'Unlock'));
    }
    if (u.name !== session.user) {
      cells.push(confirmButton('Delete', `Confirm delete ${u.name}`, { class: 'user-delete danger', data: { user: u.name } },
        () => act(() => send('DELETE', `users/${encodeURIComponent(u.name)}`))));
    } else {
      cells.push(h('span', { class: 'muted small' }, 'you'));
    }
    return cells;
  }

  async function act(call) {
    clearProblem(error);
    try {
      await call();
      await refresh();
    } catch (e) {
      showProblem(error, e);
    }
  }

  async function refresh() {
    try {
      const { users } = await getJson('users');
      replace(listHost, h('table', { id: 'user-list', class: 'table' },
        h('thead', {}, h('tr', {}, ['Name', 'Role', 'State', ''].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, users.length ? users.map((u) => h('tr', { data: { user: u.name, role: u.role, locked: u.locked, mustChange: u.mustChangePassword } },
          h('td', { class: 'mono' }, u.name),
          h('td', {}, h('span', { class: `badge role-${u.role}` }, u.role)),
          h('td', {}, h('div', { class: 'badges' }, stateBadges(u))),
          h('td', {}, h('div', { class: 'row-actions' }, actions(u))))) : h('tr', { class: 'empty' }, h('td', { colspan: 4 }, 'No users.')))));
      clearProblem(error);
    } catch (e) {
      showProblem(error, e);
    }
  }

  refresh();
  return { refresh, onCapacity() {}, onFinding() {}, unmount() {} };
}
