// A file the appliance signed with its audit key (the audit log's and the compliance exports), as the download
// answered it: links to save the file and its detached signature (DER, from X-Bulwark-Signature), the signature
// in Base64 and its algorithm. The caller revokes the object URLs when it replaces the links.

import { h } from '/js/dom.js';

/**
 * Returns { fileLink, signatureLink (null when unsigned), signature, algorithm, urls } for a download from
 * api.js's download(); ids = { file, signature } are the links' element ids.
 */
export function signedFile(file, ids) {
  const fileUrl = URL.createObjectURL(file.blob);
  const urls = [fileUrl];
  const fileLink = h('a', { href: fileUrl, download: file.filename, id: ids.file }, file.filename);
  const signature = file.headers.get('X-Bulwark-Signature');
  const algorithm = file.headers.get('X-Bulwark-Signature-Algorithm') || 'unknown';
  let signatureLink = null;
  if (signature) {
    const sigUrl = URL.createObjectURL(new Blob([base64Bytes(signature)], { type: 'application/octet-stream' }));
    urls.push(sigUrl);
    signatureLink = h('a', { href: sigUrl, download: `${file.filename}.sig`, id: ids.signature }, `${file.filename}.sig`);
  }
  return { fileLink, signatureLink, signature, algorithm, urls };
}

function base64Bytes(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
