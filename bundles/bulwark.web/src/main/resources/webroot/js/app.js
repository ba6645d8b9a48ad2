// The Bulwark UI: a single page with hash routes (#/<page>[/<argument>][?query]). The pages come from
// the page manifest (GET /api/v1/ui/pages: the pages the session's role may use, contributed by the
// appliance's bundles), each a module loaded when first opened; the navigation is built from it. The
// server-sent event stream keeps the open page live, with a periodic reload as fallback while it is down.

import { connectEvents, getJson, send, setCsrfToken, setUnauthenticatedHandler } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { showLogin, showPasswordChange } from '/js/login.js';

const REFRESH_LIVE_MS = 60_000;
const REFRESH_OFFLINE_MS = 10_000;
/** Older links name a node's page #/node/<name>. */
const ALIASES = { node: 'nodes' };

const view = document.getElementById('view');
const nav = document.getElementById('nav');
const liveStatus = document.getElementById('live-status');
let current = null;
let live = false;
let lastRefresh = Date.now();
let session = null;
let pages = [];
const modules = new Map();
let showing = 0;

function parseRoute(hash) {
  const [path, query] = (hash.replace(/^#/, '') || '/').split('?');
  const params = Object.fromEntries(new URLSearchParams(query || ''));
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const id = parts.length === 0 ? null : (ALIASES[parts[0]] || parts[0]);
  if (parts.length > 1) params.argument = parts[1];
  if (id === 'nodes' && parts.length > 1) params.node = parts[1];
  return { id, params };
}

function navigate(hash) {
  if (location.hash === hash) show();
  else location.hash = hash;
}

function defaultPage() {
  return pages.find((p) => p.navigation) || null;
}

async function load(page) {
  if (!modules.has(page.module)) modules.set(page.module, import(page.module));
  return modules.get(page.module);
}

async function show() {
  const route = parseRoute(location.hash);
  const page = route.id ? pages.find((p) => p.id === route.id) : defaultPage();
  const turn = ++showing;
  if (current) current.unmount();
  current = null;
  const navId = page && !page.navigation && page.id === 'nodes' ? 'fleet' : page && page.id;
  nav.querySelectorAll('a').forEach((a) => a.classList.toggle('active', a.dataset.nav === navId));
  document.body.dataset.page = page ? (page.id === 'nodes' ? 'node' : page.id) : 'unknown';
  if (!page) {
    current = refusal(route.id);
    return;
  }
  try {
    const module = await load(page);
    if (turn !== showing) return;
    current = module.mount(view, route.params, navigate, session);
  } catch (e) {
    replace(view, h('section', { class: 'panel' }, h('h1', {}, page.title),
      h('p', { class: 'error' }, `This page could not be loaded: ${e.message}`)));
    current = null;
  }
  lastRefresh = Date.now();
}

/** A page the role may not use, or that no running bundle contributes: a clear word, not errors. */
function refusal(id) {
  replace(view, h('section', { class: 'panel forbidden', id: 'forbidden' },
    h('h1', {}, id || 'Bulwark'),
    h('p', {}, `Your role (${session.role}) may not use this page, or the plugin that provides it is`
      + ' not running. Ask an administrator.')));
  return { refresh() {}, onEvent() {}, unmount() {} };
}

/** Builds the navigation from the manifest: the pages the session's role may use, in order. */
function showNavigation() {
  replace(nav, ...pages.filter((p) => p.navigation).map((p) =>
    h('a', { href: p === defaultPage() ? '#/' : `#/${p.id}`, 'data-nav': p.id }, p.title)));
}

function deliver(topic, data) {
  if (!current) return;
  if (current.onEvent) current.onEvent(topic, data);
  if (topic === 'finding' && current.onFinding) current.onFinding(data);
  if (topic === 'capacity' && current.onCapacity) current.onCapacity(data);
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

async function startApp(loggedIn) {
  session = loggedIn;
  document.getElementById('who').textContent = `${session.user} (${session.role})`;
  document.getElementById('logout').hidden = false;
  if (started) return;
  started = true;
  let manifest = { pages: [], topics: [] };
  try {
    manifest = await getJson('ui/pages');
  } catch (e) {
    replace(view, h('p', { class: 'error' }, `The page list could not be read: ${e.message}`));
  }
  pages = manifest.pages;
  showNavigation();
  window.addEventListener('hashchange', show);
  show();
  showSecurityPosture();

  connectEvents(manifest.topics, { onState: setLive, onEvent: deliver });

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

// The skip link moves focus to the page without touching the route (the hash is the router's).
document.getElementById('skip-link').addEventListener('click', (event) => {
  event.preventDefault();
  document.getElementById('view').focus();
});

// Wall mode: dark colours for a NOC wall, kept in this browser.
const themeToggle = document.getElementById('theme-toggle');
function applyTheme(theme) {
  if (theme === 'dark') document.documentElement.dataset.theme = 'dark';
  else delete document.documentElement.dataset.theme;
  themeToggle.setAttribute('aria-pressed', theme === 'dark' ? 'true' : 'false');
  themeToggle.textContent = theme === 'dark' ? 'Light mode' : 'Wall mode';
}
let storedTheme = null;
try {
  storedTheme = localStorage.getItem('bulwark.theme');
} catch (e) {
  // storage refused: the light default
}
applyTheme(storedTheme === 'dark' ? 'dark' : 'light');
themeToggle.addEventListener('click', () => {
  const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
  applyTheme(next);
  try {
    localStorage.setItem('bulwark.theme', next);
  } catch (e) {
    // not kept; applied for this page
  }
});
