// The Bulwark UI: a single page with hash routes (#/, #/nodes/<name>, #/findings?…, #/system), kept live by the
// server-sent event stream, with a periodic reload as fallback while the stream is down.

import { connectEvents, getJson, send, setCsrfToken } from './api.js';
import { showLogin, showPasswordChange } from './login.js';
import * as fleet from './fleet.js';
import * as node from './node.js';
import * as findings from './findings.js';
import * as system from './system.js';

const REFRESH_LIVE_MS = 60_000;
const REFRESH_OFFLINE_MS = 10_000;

const view = document.getElementById('view');
const liveStatus = document.getElementById('live-status');
let current = null;
let live = false;
let lastRefresh = Date.now();

function parseRoute(hash) {
  const [path, query] = (hash.replace(/^#/, '') || '/').split('?');
  const params = Object.fromEntries(new URLSearchParams(query || ''));
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { page: 'fleet', module: fleet, params };
  if ((parts[0] === 'nodes' || parts[0] === 'node') && parts.length === 2) return { page: 'fleet', module: node, params: { ...params, node: parts[1] } };
  if (parts[0] === 'findings') return { page: 'findings', module: findings, params };
  if (parts[0] === 'system') return { page: 'system', module: system, params };
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
  current = route.module.mount(view, route.params, navigate);
  lastRefresh = Date.now();
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

function startApp(session) {
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

(async () => {
  try {
    const session = await getJson('session');
    setCsrfToken(session.csrfToken || null);
    if (session.mustChangePassword) showPasswordChange(view, startApp);
    else startApp(session);
  } catch (e) {
    if (e.status === 401) showLogin(view, startApp);
    else view.textContent = e.message;
  }
})();
