// Tiny DOM builders. Text always goes in as text nodes (never parsed as HTML), and no inline style is ever
// written, so the UI runs under a strict Content-Security-Policy.

const SVG_NS = 'http://www.w3.org/2000/svg';

function appendAll(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function applyAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') {
      el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    } else if (key === 'data') {
      for (const [name, v] of Object.entries(value)) {
        if (v !== null && v !== undefined) el.dataset[name] = String(v);
      }
    } else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'style') {
      throw new Error('inline style is not allowed; use a class');
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  return el;
}

/** Creates an HTML element: h('td', {class: 'num', data: {gpu: 0}}, 'text', childNode). */
export function h(tag, attrs, ...children) {
  return appendAll(applyAttrs(document.createElement(tag), attrs), children);
}

/** Creates an SVG element. */
export function s(tag, attrs, ...children) {
  return appendAll(applyAttrs(document.createElementNS(SVG_NS, tag), attrs), children);
}

/** Replaces the children of el. */
export function replace(el, ...children) {
  el.replaceChildren();
  return appendAll(el, children);
}

/** Returns a function that calls fn at most once per `ms`, after the last call. */
export function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
