// The JSON API and the event stream, as the views use them.

const BASE = 'api/v1/';

/** An API error with the problem detail the server sent. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

/** GETs an API path ("nodes", "findings?state=open") and returns its JSON. */
export async function getJson(path) {
  let response;
  try {
    response = await fetch(BASE + path, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  } catch (e) {
    throw new ApiError(0, 'The appliance does not answer; retrying.');
  }
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`;
    try {
      const problem = await response.json();
      detail = problem.detail || problem.title || detail;
    } catch (e) {
      // not a problem document; keep the status line
    }
    throw new ApiError(response.status, detail);
  }
  return response.json();
}

/**
 * Opens the event stream. handlers: onFinding(finding), onCapacity(report), onState('live' | 'reconnecting').
 * The browser reconnects by itself; a reconnect is reported as 'live' again so views can reload.
 */
export function connectEvents(handlers) {
  const source = new EventSource(BASE + 'events');
  source.addEventListener('open', () => handlers.onState('live'));
  source.addEventListener('error', () => handlers.onState('reconnecting'));
  source.addEventListener('finding', (e) => {
    try {
      handlers.onFinding(JSON.parse(e.data));
    } catch (err) {
      console.warn('Ignored a malformed finding event', err);
    }
  });
  source.addEventListener('capacity', (e) => {
    try {
      handlers.onCapacity(JSON.parse(e.data));
    } catch (err) {
      console.warn('Ignored a malformed capacity event', err);
    }
  });
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
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`;
    try {
      const problem = await response.json();
      detail = problem.detail || problem.title || detail;
    } catch (e) {
      // not a problem document
    }
    throw new ApiError(response.status, detail);
  }
  return response.status === 204 ? null : response.json();
}
