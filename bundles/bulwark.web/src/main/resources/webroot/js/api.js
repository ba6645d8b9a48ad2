// The JSON API and the event stream, as the views use them.

const BASE = 'api/v1/';

/** An API error with the problem document's title and detail the server sent (RFC 9457). */
export class ApiError extends Error {
  constructor(status, detail, title) {
    super(detail);
    this.status = status;
    this.title = title || '';
  }
}

let onUnauthenticated = null;

/** Sets what happens when a call other than login answers 401 (the session ended): back to the login. */
export function setUnauthenticatedHandler(handler) {
  onUnauthenticated = handler;
}

async function problem(response, path) {
  let detail = `${response.status} ${response.statusText}`;
  let title = '';
  try {
    const doc = await response.json();
    detail = doc.detail || doc.title || detail;
    title = doc.title || '';
  } catch (e) {
    // not a problem document; keep the status line
  }
  if (response.status === 401 && path !== 'session' && onUnauthenticated) onUnauthenticated();
  return new ApiError(response.status, detail, title);
}

/** How often a GET answered 503 (an area still starting, or its plugin being replaced) is asked again. */
const UNAVAILABLE_RETRIES = 6;
/** The longest wait between those tries, whatever Retry-After says. */
const UNAVAILABLE_WAIT_MAX_MS = 5_000;

/**
 * GETs an API path ("nodes", "findings?state=open") and returns its JSON. A 503 (the area that answers
 * the path is starting or being replaced) is asked again after its Retry-After, up to six times, so a
 * page opened just after a start shows its data instead of an error until the next periodic reload.
 */
export async function getJson(path) {
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await fetch(BASE + path, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    } catch (e) {
      throw new ApiError(0, 'The appliance does not answer; retrying.');
    }
    if (response.ok) return response.json();
    if (response.status !== 503 || attempt >= UNAVAILABLE_RETRIES) throw await problem(response, path);
    const seconds = Number(response.headers.get('Retry-After'));
    const wait = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, UNAVAILABLE_WAIT_MAX_MS)));
  }
}

/**
 * Opens the event stream. handlers: onEvent(topic, data) for every event of the named topics,
 * onState('live' | 'reconnecting').
 */
export function connectEvents(topics, handlers) {
  const source = new EventSource(BASE + 'events');
  source.addEventListener('open', () => handlers.onState('live'));
  source.addEventListener('error', () => handlers.onState('reconnecting'));
  for (const topic of topics) {
    source.addEventListener(topic, (e) => {
      try {
        handlers.onEvent(topic, JSON.parse(e.data));
      } catch (err) {
        console.warn(`Ignored a malformed ${topic} event`, err);
      }
    });
  }
  return source;
}

let csrfToken = null;

/** Remembers the session's CSRF token; state-changing calls echo it in X-CSRF-Token. */
export function setCsrfToken(token) {
  csrfToken = token;
}

/** Sends a state-changing request (POST, DELETE) with a JSON body; returns the parsed JSON or null. */
export async function send(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let response;
  try {
    response = await fetch(BASE + path, {
      method, headers, cache: 'no-store', credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, 'The appliance does not answer; try again.');
  }
  if (!response.ok) throw await problem(response, path);
  return response.status === 204 ? null : response.json();
}

/**
 * POSTs a file to an upload path ("images/debian-12") as its raw body, with extra headers; calls
 * onProgress(sent, total) as it goes and resolves with the answer's JSON.
 */
export function upload(path, file, extraHeaders, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', BASE + path);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    if (csrfToken) xhr.setRequestHeader('X-CSRF-Token', csrfToken);
    for (const [k, v] of Object.entries(extraHeaders || {})) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => { if (onProgress && e.lengthComputable) onProgress(e.loaded, e.total); };
    xhr.onerror = () => reject(new ApiError(0, 'The appliance does not answer; try again.'));
    xhr.onload = () => {
      let doc = null;
      try { doc = JSON.parse(xhr.responseText); } catch (e) { /* not JSON */ }
      if (xhr.status >= 200 && xhr.status < 300) resolve(doc);
      else {
        if (xhr.status === 401 && onUnauthenticated) onUnauthenticated();
        reject(new ApiError(xhr.status, (doc && (doc.detail || doc.title)) || `${xhr.status} ${xhr.statusText}`, (doc && doc.title) || ''));
      }
    };
    xhr.send(file);
  });
}

/**
 * GETs a file from the API ("audit/export?format=csv") and returns { blob, filename, headers }; the file name
 * comes from Content-Disposition, else `fallbackName`.
 */
export async function download(path, fallbackName) {
  let response;
  try {
    response = await fetch(BASE + path, { cache: 'no-store', credentials: 'same-origin' });
  } catch (e) {
    throw new ApiError(0, 'The appliance does not answer; try again.');
  }
  if (!response.ok) throw await problem(response, path);
  const disposition = response.headers.get('Content-Disposition') || '';
  const match = /filename="([^"]+)"/.exec(disposition);
  return { blob: await response.blob(), filename: match ? match[1] : fallbackName, headers: response.headers };
}
