// How the admin pages show a failed API call: the problem document's title and detail as the server wrote
// them, and a plain explanation for a refused role. A 401 never gets here for long: api.js sends the browser
// back to the login.

import { replace, h } from '/js/dom.js';

/** Shows the error `e` (an ApiError) in the element `el`, which is revealed. */
export function showProblem(el, e) {
  if (e.status === 403) {
    replace(el, h('strong', {}, 'Not allowed. '), e.message || 'Your role may not do this.',
      ' Ask an administrator if you need it.');
  } else if (e.title && e.title !== e.message) {
    replace(el, h('strong', { class: 'problem-title' }, `${e.title}: `), h('span', { class: 'problem-detail' }, e.message));
  } else {
    replace(el, h('span', { class: 'problem-detail' }, e.message));
  }
  el.dataset.status = String(e.status === undefined ? '' : e.status);
  el.hidden = false;
}

/** Hides an error element shown by showProblem. */
export function clearProblem(el) {
  el.hidden = true;
  el.replaceChildren();
}

/**
 * A button that asks for a second click before it acts: "Delete" turns into "Confirm delete" for a few seconds.
 * action() is awaited; the button is disabled meanwhile.
 */
export function confirmButton(label, confirmLabel, attrs, action) {
  let armed = false;
  let timer = null;
  const button = h('button', { type: 'button', ...attrs }, label);
  button.addEventListener('click', async () => {
    if (!armed) {
      armed = true;
      button.textContent = confirmLabel;
      button.classList.add('armed');
      timer = setTimeout(() => {
        armed = false;
        button.textContent = label;
        button.classList.remove('armed');
      }, 5000);
      return;
    }
    clearTimeout(timer);
    button.disabled = true;
    try {
      await action();
    } finally {
      button.disabled = false;
      armed = false;
      button.textContent = label;
      button.classList.remove('armed');
    }
  });
  return button;
}
