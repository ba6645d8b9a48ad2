// The Bulwark UI: a single page with hash routes (#/, #/nodes/<name>, #/findings?…, #/system, and for the roles
// that may use them #/users, #/tokens, #/tls, #/audit), kept live by the server-sent event stream, with a
// periodic reload as fallback while the stream is down.

import { connectEvents, getJson, send, setCsrfToken, setUnauthenticatedHandler } from './api.js';
import { h, replace } from './dom.js';
import { showLogin, showPasswordChange } from './login.js';
import * as fleet from './fleet.js';
import * as node from './node.js';
import * as findings from './findings.js';
import * as system from './system.js';
import * as users from './users.js';
import * as tokens from './tokens.js';
import * as tls from './tls.js';
import * as audit from './audit.js';

const REFRESH_LIVE_MS = 60_000;
const REFRESH_OFFLINE_MS = 10_000;

const view = document.getElementById('view');
const liveStatus = document.getElementById('live-status');
let current = null;
let live = false;
let lastRefresh = Date.now();
let session = null;

// The pages only some roles may use; the API enforces the same rules, this only keeps the UI honest.
const ADMIN_PAGES = {
  users: { module: users, roles: ['admin'], title: 'Users' },
  tokens: { module: tokens, roles: ['admin'], title: 'API tokens' },
  tls: { module: tls, roles: ['admin'], title: 'TLS' },
  audit: { module: audit, roles: ['admin', 'auditor'], title: 'Audit' },
};

function parseRoute(hash) {
  const [path, query] = (hash.replace(/^#/, '') || '/').split('?');
  const params = Object.fromEntries(new URLSearchParams(query || ''));
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { page: 'fleet', module: fleet, params };
  if ((parts[0] === 'nodes' || parts[0] === 'node') && parts.length === 2) return { page: 'fleet', module: node, params: { ...params, node: parts[1] } };
  if (parts[0] === 'findings') return { page: 'findings', module: findings, params };
  if (parts[0] === 'system') return { page: 'system', module: system, params };
  if (ADMIN_PAGES[parts[0]]) return { page: parts[0], module: ADMIN_PAGES[parts[0]].module, params };
  return { page: 'fleet', module: fleet, params };
}

function navigate(hash) {
  if (location.hash === hash) show();
  else location.hash = hash;
}

function show() {
  const route = parseRoute(location.hash);
  if (current) current.unmount();
  document.querySelectorAll('#nav a').forEach((a) => a.classList.toggle('active', a.dataset.nav === route.page));
  document.body.dataset.page = route.module === node ? 'node' : route.page;
  const restricted = ADMIN_PAGES[route.page];
  current = restricted && !restricted.roles.includes(session.role)
    ? forbidden(restricted)
    : route.module.mount(view, route.params, navigate, session);
  lastRefresh = Date.now();
}

/** The page a role may not use: a clear refusal instead of a page of errors. */
function forbidden(page) {
  replace(view, h('section', { class: 'panel forbidden', id: 'forbidden' },
    h('h1', {}, page.title),
    h('p', {}, `Your role (${session.role}) may not use this page. It needs the role ${page.roles.join(' or ')}; ask an administrator.`)));
  return { refresh() {}, onCapacity() {}, onFinding() {}, unmount() {} };
}

/** Shows in the navigation only the pages the session's role may use. */
function showNavigation(role) {
  document.querySelectorAll('#nav a[data-roles]').forEach((a) => {
    a.hidden = !a.dataset.roles.split(' ').includes(role);
  });
}

function setLive(state) {
  const wasLive = live;
  live = state === 'live';
  liveStatus.dataset.state = state;
  liveStatus.textContent = live ? 'live' : 'reconnecting';
  if (live && !wasLive && current && Date.now() - lastRefresh > 2000) {
    // Back after an outage: whatever happened meanwhile is not in the stream.
    current.refresh();
    lastRefresh = Date.now();
  }
}

// The red banner: shown while secrets are not sealed to a TPM (the flagged development mode).
async function showSecurityPosture() {
  try {
    const health = await getJson('health');
    const dev = Boolean(health.security && health.security.developmentMode);
    document.getElementById('dev-banner').hidden = !dev;
    document.body.dataset.developmentMode = String(dev);
  } catch (e) {
    // The pages report API errors themselves.
  }
}

async function logout() {
  try {
    await send('DELETE', 'session');
  } finally {
    location.reload();
  }
}

let started = false;

function startApp(loggedIn) {
  session = loggedIn;
  showNavigation(session.role);
  document.getElementById('who').textContent = `${session.user} (${session.role})`;
  document.getElementById('logout').hidden = false;
  if (started) return;
  started = true;
  window.addEventListener('hashchange', show);
  show();
  showSecurityPosture();

  connectEvents({
    onState: setLive,
    onFinding: (f) => current && current.onFinding(f),
    onCapacity: (c) => current && current.onCapacity(c),
  });

  setInterval(() => {
    const due = live ? REFRESH_LIVE_MS : REFRESH_OFFLINE_MS;
    if (current && !document.hidden && Date.now() - lastRefresh >= due) {
      current.refresh();
      lastRefresh = Date.now();
    }
  }, 5_000);
}

document.getElementById('logout').addEventListener('click', logout);
// A 401 from any page means the session ended (idle timeout, logout elsewhere): back to the login.
setUnauthenticatedHandler(() => location.reload());

(async () => {
  try {
    const existing = await getJson('session');
    setCsrfToken(existing.csrfToken || null);
    if (existing.mustChangePassword) showPasswordChange(view, startApp);
    else startApp(existing);
  } catch (e) {
    if (e.status === 401) showLogin(view, startApp);
    else view.textContent = e.message;
  }
})();
