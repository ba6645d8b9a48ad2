// Provisioning page: the image store (each image's SHA-256 and whether its signature verifies with a
// trusted key), the machines the boot environment has reported (inventory summary, the hardware tests of
// their last commissioning with exit status and output, the last deployment, the last lines its boot
// environment logged), for admins the upload of a signed image (streamed, with its progress), and, for
// admins and operators, testing with chosen tests, deployment with an image and cloud-init user data and
// release with an erase mode.

import { getJson, send, upload } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { absolute, relative } from '/js/format.js';
import { clearProblem, showProblem } from '/js/problems.js';

export function mount(root, params, navigate, session) {
  const operator = session && (session.role === 'admin' || session.role === 'operator');
  const error = h('p', { class: 'notice error', hidden: true, id: 'provisioning-error', role: 'alert' });
  const done = h('p', { class: 'notice', hidden: true, id: 'provisioning-result', role: 'status' });
  const imagesHost = h('div', { class: 'table-wrap' });
  const machinesHost = h('div', { class: 'table-wrap' });
  const imageSelect = h('select', { id: 'deploy-image' });
  const deployMachine = h('input', { id: 'deploy-machine', type: 'text', placeholder: 'm-525400b10501', autocomplete: 'off' });
  const userData = h('textarea', { id: 'deploy-user-data', rows: 4, placeholder: '#cloud-config' });
  const releaseMachine = h('input', { id: 'release-machine', type: 'text', placeholder: 'm-525400b10501', autocomplete: 'off' });
  const admin = session && session.role === 'admin';
  const uploadName = h('input', { id: 'upload-name', type: 'text', placeholder: 'debian-12', autocomplete: 'off' });
  const uploadImage = h('input', { id: 'upload-image', type: 'file' });
  const uploadSignature = h('input', { id: 'upload-signature', type: 'file', accept: '.sig' });
  const uploadProgress = h('progress', { id: 'upload-progress', max: 100, value: 0, hidden: true });
  const testMachine = h('input', { id: 'test-machine', type: 'text', placeholder: 'm-525400b10501', autocomplete: 'off' });
  const testNames = h('input', { id: 'test-names', type: 'text', placeholder: 'disk-read, memory', autocomplete: 'off' });
  const erase = h('select', { id: 'release-erase' },
    h('option', { value: 'none' }, 'no erase'),
    h('option', { value: 'quick' }, 'quick erase (first and last 16 MiB)'),
    h('option', { value: 'secure' }, 'secure erase (every byte)'));

  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'Provisioning')),
    h('p', { class: 'muted' }, 'Machines that boot from the provisioning network are enlisted, commissioned with '
      + 'hardware tests, deployed with a signed image and released with their disks erased. A machine with a BMC '
      + 'is powered through it for each boot; commissioning starts from the Machines page.'),
    error, done,
    h('section', { class: 'panel' }, h('h2', {}, 'Image store'), imagesHost,
      admin ? h('h3', {}, 'Upload an image') : '',
      admin ? h('form', { id: 'upload-form', class: 'form-grid', onsubmit: (e) => { e.preventDefault(); uploadFile(); } },
        h('label', { for: 'upload-name' }, 'Name'), uploadName,
        h('label', { for: 'upload-image' }, 'Image (raw disk)'), uploadImage,
        h('label', { for: 'upload-signature' }, 'Signature (openssl dgst -sha384 -sign)'), uploadSignature,
        uploadProgress, h('button', { type: 'submit', id: 'upload-submit' }, 'Upload')) : ''),
    h('section', { class: 'panel' }, h('h2', {}, 'Reported machines'), machinesHost),
    operator ? h('section', { class: 'panel' }, h('h2', {}, 'Test'),
      h('form', { id: 'test-form', class: 'form-grid', onsubmit: (e) => { e.preventDefault(); test(); } },
        h('label', { for: 'test-machine' }, 'Machine'), testMachine,
        h('label', { for: 'test-names' }, 'Tests'), testNames,
        h('span', {}), h('button', { type: 'submit', id: 'test-submit' }, 'Test'))) : '',
    operator ? h('section', { class: 'panel' }, h('h2', {}, 'Deploy'),
      h('form', { id: 'deploy-form', class: 'form-grid', onsubmit: (e) => { e.preventDefault(); deploy(); } },
        h('label', { for: 'deploy-machine' }, 'Machine'), deployMachine,
        h('label', { for: 'deploy-image' }, 'Image'), imageSelect,
        h('label', { for: 'deploy-user-data' }, 'User data'), userData,
        h('span', {}), h('button', { type: 'submit', id: 'deploy-submit' }, 'Deploy'))) : '',
    operator ? h('section', { class: 'panel' }, h('h2', {}, 'Release'),
      h('form', { id: 'release-form', class: 'form-grid', onsubmit: (e) => { e.preventDefault(); release(); } },
        h('label', { for: 'release-machine' }, 'Machine'), releaseMachine,
        h('label', { for: 'release-erase' }, 'Disks'), erase,
        h('span', {}), h('button', { type: 'submit', id: 'release-submit', class: 'danger' }, 'Release'))) : '');

  function size(bytes) {
    if (bytes >= 1 << 30) return `${(bytes / (1 << 30)).toFixed(1)} GiB`;
    if (bytes >= 1 << 20) return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
    return `${bytes} B`;
  }

  function imageRow(i) {
    return h('tr', { data: { image: i.name } },
      h('td', {}, h('strong', {}, i.name)),
      h('td', { class: 'num' }, size(i.size)),
      h('td', { class: 'mono small', title: i.sha256 }, i.sha256 ? `${i.sha256.slice(0, 16)}…` : '—'),
      h('td', {}, i.deployable
        ? h('span', { class: 'badge subsystem-up' }, `signed by ${i.signer}`)
        : h('span', { class: 'badge sev-critical', title: i.problem }, 'not deployable'),
        i.deployable ? '' : h('div', { class: 'small' }, i.problem)));
  }

  function tests(m) {
    if (!m.tests.length) return h('span', { class: 'muted' }, m.reportedBy === 'enlist' ? 'enlisted, not commissioned' : 'no tests');
    return h('details', {},
      h('summary', {}, `${m.tests.filter((t) => t.exitStatus === 0).length} of ${m.tests.length} passed`),
      h('ul', { class: 'small' }, m.tests.map((t) => h('li', {},
        h('span', { class: t.exitStatus === 0 ? 'badge subsystem-up' : 'badge sev-critical' }, t.exitStatus === 0 ? 'pass' : `exit ${t.exitStatus}`),
        ` ${t.name} (${t.seconds} s): `, h('span', { class: 'mono' }, (t.output || '').split('\n').filter((l) => l).slice(-1)[0] || '')))));
  }

  function machineRow(m) {
    return h('tr', { data: { machine: m.machine } },
      h('td', {}, h('a', { href: `#/machine/${encodeURIComponent(m.machine)}` }, m.machine), h('div', { class: 'muted small mono' }, m.mac)),
      h('td', {}, h('span', { class: 'badge' }, m.state)),
      h('td', { class: 'small' }, m.summary),
      h('td', {}, tests(m)),
      h('td', { class: 'small' }, m.deployment && m.deployment.image ? `${m.deployment.image}: ${m.deployment.outcome}` : '—'),
      h('td', { class: 'nowrap small', title: absolute(m.at) }, `${m.reportedBy}, ${relative(m.at)}`),
      h('td', { class: 'small' }, m.lastLog && m.lastLog.length
        ? h('details', { class: 'boot-log' }, h('summary', {}, m.lastLog[m.lastLog.length - 1].replace(/^bulwark: /, '')),
          h('pre', { class: 'mono small' }, m.lastLog.join('\n')))
        : h('span', { class: 'muted' }, '—')));
  }

  async function refresh() {
    try {
      const [{ images, folder }, { machines }] = await Promise.all([getJson('images'), getJson('provisioning/machines')]);
      replace(imagesHost, h('table', { id: 'image-list', class: 'table' },
        h('thead', {}, h('tr', {}, ['Image', 'Size', 'SHA-256', 'Signature'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, images.length ? images.map(imageRow)
          : h('tr', { class: 'empty' }, h('td', { colspan: 4 }, `No images: upload one with its signature, or copy NAME.img and NAME.img.sig into ${folder}.`)))));
      replace(imageSelect, ...images.filter((i) => i.deployable).map((i) => h('option', { value: i.name }, i.name)));
      replace(machinesHost, h('table', { id: 'reported-list', class: 'table' },
        h('thead', {}, h('tr', {}, ['Machine', 'State', 'Hardware', 'Hardware tests', 'Deployment', 'Last report', 'Boot log'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, machines.length ? machines.map(machineRow)
          : h('tr', { class: 'empty' }, h('td', { colspan: 7 }, 'No machine has booted from the provisioning network yet.')))));
      clearProblem(error);
    } catch (e) {
      showProblem(error, e);
    }
  }

  async function act(path, body, what) {
    done.hidden = true;
    try {
      const r = await send('POST', path, body);
      done.hidden = false;
      done.textContent = `${what}: ${r.machine} is ${r.state}.`;
      clearProblem(error);
      refresh();
    } catch (e) {
      showProblem(error, e);
    }
  }

  function deploy() {
    act(`provisioning/machines/${encodeURIComponent(deployMachine.value.trim())}/deploy`,
      { image: imageSelect.value, userData: userData.value }, 'Deployment started');
  }

  async function uploadFile() {
    done.hidden = true;
    const image = uploadImage.files[0];
    const sig = uploadSignature.files[0];
    const name = uploadName.value.trim() || (image ? image.name.replace(/\.img$/, '') : '');
    if (!image || !sig) {
      showProblem(error, new Error('Choose the image and its signature file.'));
      return;
    }
    const bytes = new Uint8Array(await sig.arrayBuffer());
    let binary = '';
    bytes.forEach((b) => { binary += String.fromCharCode(b); });
    uploadProgress.hidden = false;
    uploadProgress.value = 0;
    try {
      const r = await upload(`images/${encodeURIComponent(name)}`, image, { 'Bulwark-Signature': btoa(binary) },
        (sent, total) => { uploadProgress.value = Math.round((100 * sent) / total); });
      done.hidden = false;
      done.textContent = `Image ${r.name} added: ${r.sha256.slice(0, 16)}…, signed by ${r.signer}.`;
      clearProblem(error);
      refresh();
    } catch (e) {
      showProblem(error, e);
    } finally {
      uploadProgress.hidden = true;
    }
  }

  function test() {
    const tests = testNames.value.split(/[\s,]+/).map((t) => t.trim()).filter((t) => t);
    act(`provisioning/machines/${encodeURIComponent(testMachine.value.trim())}/test`, { tests }, 'Testing started');
  }

  function release() {
    act(`provisioning/machines/${encodeURIComponent(releaseMachine.value.trim())}/release`,
      { erase: erase.value }, 'Release started');
  }

  refresh();
  const timer = setInterval(refresh, 5000);
  return { refresh, onEvent() {}, onCapacity() {}, onFinding() {}, unmount() { clearInterval(timer); } };
}
