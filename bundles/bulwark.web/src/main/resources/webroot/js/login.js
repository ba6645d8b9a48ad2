// Before anything else: the notice-and-consent banner, the login form, and the forced change of an
// initial password. Calls done() once the user holds a session that may use the appliance.

import { getJson, send, setCsrfToken } from '/js/api.js';
import { h, replace } from '/js/dom.js';

export async function showLogin(root, done) {
  let banner = '';
  try {
    banner = (await getJson('banner')).text;
  } catch (e) {
    banner = 'Authorized use only.';
  }
  const error = h('p', { class: 'notice error', id: 'login-error', hidden: true });
  const consent = h('input', { type: 'checkbox', id: 'login-consent', required: true });
  const user = h('input', { id: 'login-user', name: 'user', autocomplete: 'username', required: true });
  const password = h('input', { id: 'login-password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const form = h('form', { class: 'panel login', id: 'login-form' },
    h('h1', { class: 'visually-hidden' }, 'Log in to Bulwark'),
    h('h2', {}, 'Notice and consent'),
    h('p', { class: 'banner-text', id: 'login-banner' }, banner),
    h('label', { class: 'consent' }, consent, ' I have read the notice and consent to its terms'),
    h('label', {}, 'User', user),
    h('label', {}, 'Password', password),
    error,
    h('button', { type: 'submit', id: 'login-submit' }, 'Log in'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    if (!consent.checked) {
      error.textContent = 'Accept the notice to log in.';
      error.hidden = false;
      return;
    }
    try {
      const session = await send('POST', 'session', { user: user.value, password: password.value });
      password.value = '';
      setCsrfToken(session.csrfToken);
      if (session.mustChangePassword) showPasswordChange(root, done);
      else done(session);
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    }
  });
  replace(root, form);
}

export function showPasswordChange(root, done) {
  const error = h('p', { class: 'notice error', id: 'password-error', hidden: true });
  const current = h('input', { id: 'password-current', type: 'password', autocomplete: 'current-password', required: true });
  const next = h('input', { id: 'password-next', type: 'password', autocomplete: 'new-password', required: true });
  const form = h('form', { class: 'panel login', id: 'password-form' },
    h('h1', {}, 'Change the initial password'),
    h('p', { class: 'muted' }, 'At least 15 characters with upper- and lower-case letters, digits and other characters, not containing the user name.'),
    h('label', {}, 'Current password', current),
    h('label', {}, 'New password', next),
    error,
    h('button', { type: 'submit', id: 'password-submit' }, 'Change password'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await send('POST', 'session/password', { current: current.value, next: next.value });
      current.value = '';
      next.value = '';
      done(await getJson('session'));
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    }
  });
  replace(root, form);
}
