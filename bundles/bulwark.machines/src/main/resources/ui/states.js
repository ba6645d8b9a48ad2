// How the machine pages show a state: MAAS's label on a badge whose colour says at rest and well, under way,
// failed or set aside, or not yet known.

import { h } from '/js/dom.js';

const WELL = new Set(['ready', 'allocated', 'deployed', 'rescue-mode']);
const UNDER_WAY = new Set(['commissioning', 'deploying', 'releasing', 'disk-erasing', 'entering-rescue-mode',
  'exiting-rescue-mode', 'testing', 'remediating']);

export function stateBadge(m) {
  const cls = WELL.has(m.state) ? 'subsystem-up'
    : UNDER_WAY.has(m.state) ? 'subsystem-degraded'
      : m.state === 'new' ? 'target-unknown' : 'subsystem-down';
  return h('span', { class: `badge ${cls}`, data: { state: m.state }, title: m.stateReason || '' }, m.stateLabel);
}

export function bmcBadge(m) {
  if (!m.bmc) return h('span', { class: 'muted' }, 'none');
  if (m.bmc.presentedSha256) return h('span', { class: 'badge subsystem-degraded', title: m.bmc.error || '' }, 'certificate to approve');
  if (m.bmc.error) return h('span', { class: 'badge subsystem-down', title: m.bmc.error }, 'error');
  // Never greener than what is known: a BMC not probed yet is unknown, not well.
  return m.bmc.pinnedSha256
    ? h('span', { class: 'badge subsystem-up' }, 'ok')
    : h('span', { class: 'badge target-unknown' }, 'not probed');
}

export const POWER_LABEL = { on: 'on', off: 'off', 'powering-on': 'powering on', 'powering-off': 'powering off', unknown: 'unknown' };
