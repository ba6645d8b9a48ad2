// TLS page (admins): the admin plane's current certificate, and importing an operator's certificate chain and
// private key (pasted, or read from files in the browser). The appliance's refusal is shown as it wrote it.

import { getJson, send } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { absolute } from '/js/format.js';
import { clearProblem, showProblem } from '/js/problems.js';

const DAY_MS = 86_400_000;

export function mount(root) {
  const error = h('p', { class: 'notice error', hidden: true, id: 'tls-error-load', role: 'alert' });
  const facts = h('dl', { class: 'facts cert-facts', id: 'tls-facts' });
  const importError = h('p', { class: 'notice error', hidden: true, id: 'tls-error', role: 'alert' });
  const importOk = h('p', { class: 'notice ok', hidden: true, id: 'tls-ok' });
  const chain = h('textarea', { id: 'tls-chain', class: 'pem', rows: 8, spellcheck: 'false', required: true,
    placeholder: '-----BEGIN CERTIFICATE-----\n… server certificate first, then the intermediates …' });
  const key = h('textarea', { id: 'tls-key', class: 'pem', rows: 6, spellcheck: 'false', autocomplete: 'off', required: true,
    placeholder: '-----BEGIN PRIVATE KEY-----' });
  const chainFile = h('input', { id: 'tls-chain-file', type: 'file', accept: '.pem,.crt,.cer,.txt' });
  const keyFile = h('input', { id: 'tls-key-file', type: 'file', accept: '.pem,.key,.txt' });
  const submit = h('button', { type: 'submit', id: 'tls-submit', class: 'primary' }, 'Import and use');
  const form = h('form', { class: 'form-stack', id: 'tls-form' },
    h('label', {}, 'Certificate chain (PEM)', chain, h('span', { class: 'file-row' }, 'or read a file: ', chainFile)),
    h('label', {}, 'Private key (PEM, unencrypted)', key, h('span', { class: 'file-row' }, 'or read a file: ', keyFile)),
    h('p', { class: 'hint' }, 'The key must match the first certificate, each certificate must be issued by the next, none may be expired or not yet valid, and the key must be EC P-256, P-384 or RSA of 2048 bits or more. New connections use the imported certificate at once; nothing changes if it is refused.'),
    h('div', { class: 'form-actions' }, submit));

  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'TLS certificate')),
    error,
    h('section', { class: 'panel' }, h('h2', {}, 'Current certificate'), facts),
    h('section', { class: 'panel' }, h('h2', {}, 'Import a certificate'), form, importError, importOk));

  async function readInto(input, textarea) {
    const file = input.files && input.files[0];
    if (!file) return;
    try {
      textarea.value = await file.text();
    } catch (e) {
      showProblem(importError, { message: `Could not read ${file.name}: ${e.message}` });
    } finally {
      input.value = '';
    }
  }
  chainFile.addEventListener('change', () => readInto(chainFile, chain));
  keyFile.addEventListener('change', () => readInto(keyFile, key));

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearProblem(importError);
    importOk.hidden = true;
    submit.disabled = true;
    try {
      const cert = await send('POST', 'tls/certificate', { chainPem: chain.value, keyPem: key.value });
      key.value = '';
      show(cert);
      importOk.textContent = `Imported. New connections now get ${cert.subject} (SHA-256 ${cert.sha256}).`;
      importOk.hidden = false;
    } catch (e) {
      showProblem(importError, e);
    } finally {
      submit.disabled = false;
    }
  });

  function show(cert) {
    const daysLeft = Math.floor((Date.parse(cert.notAfter) - Date.now()) / DAY_MS);
    replace(facts,
      fact('Subject', cert.subject, 'tls-subject'),
      fact('Issuer', cert.issuer, 'tls-issuer'),
      cert.serialNumber ? fact('Serial number', cert.serialNumber, 'tls-serial', 'mono') : null,
      cert.notBefore ? fact('Valid from', absolute(cert.notBefore), 'tls-not-before') : null,
      fact('Valid until', `${absolute(cert.notAfter)} (${daysLeft < 0 ? 'expired' : `${daysLeft} days left`})`, 'tls-not-after',
        daysLeft < 30 ? 'expiring' : null),
      cert.chainLength ? fact('Chain', `${cert.chainLength} certificate${cert.chainLength === 1 ? '' : 's'}`, 'tls-chain-length') : null,
      fact('SHA-256 fingerprint', cert.sha256, 'tls-sha256', 'mono fingerprint'));
  }

  async function refresh() {
    try {
      show(await getJson('tls/certificate'));
      clearProblem(error);
    } catch (e) {
      showProblem(error, e);
    }
  }

  refresh();
  return { refresh, onCapacity() {}, onFinding() {}, unmount() { key.value = ''; } };
}

function fact(label, value, id, cls) {
  return h('div', { class: 'fact' }, h('dt', {}, label), h('dd', { id, class: cls }, value));
}
