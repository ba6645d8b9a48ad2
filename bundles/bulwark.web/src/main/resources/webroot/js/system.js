// System page: the appliance's state and each subsystem's report (what it sees, what to do), uptime,
// detectors, what the detectors cannot see (fields the exporters do not serve), telemetry targets and the
// bundles of the appliance.

import { getJson } from '/js/api.js';
import { h, replace } from '/js/dom.js';
import { absolute, relative } from '/js/format.js';

export function mount(root) {
  const facts = h('dl', { class: 'facts', id: 'system-facts' });
  const subsystemsHost = h('div', { class: 'table-wrap' });
  const targetsHost = h('div', { class: 'table-wrap' });
  const coverageHost = h('div', { class: 'table-wrap', id: 'coverage' });
  const bundlesHost = h('div', { class: 'table-wrap' });
  const error = h('p', { class: 'notice error', hidden: true, id: 'system-error' });
  replace(root,
    h('div', { class: 'page-head' }, h('h1', {}, 'System')),
    error, facts,
    h('section', { class: 'panel' }, h('h2', {}, 'Subsystems'), subsystemsHost),
    h('section', { class: 'panel' }, h('h2', {}, 'Detector coverage'), coverageHost),
    h('section', { class: 'panel' }, h('h2', {}, 'Telemetry targets'), targetsHost),
    h('section', { class: 'panel' }, h('h2', {}, 'Bundles'), bundlesHost));

  async function refresh() {
    try {
      const [health, targets, coverage] = await Promise.all(
        [getJson('health'), getJson('telemetry/targets'), getJson('telemetry/coverage')]);
      const active = health.bundles.filter((b) => b.state === 'active').length;
      replace(facts,
        h('div', { class: 'fact' }, h('dt', {}, 'Status'),
          h('dd', { id: 'system-status' }, h('span', { class: `badge subsystem-${health.status.toLowerCase()}` }, health.status))),
        fact('Up since', `${absolute(health.startedAt)} (${Math.floor(health.uptimeSeconds / 3600)} h ${Math.floor((health.uptimeSeconds % 3600) / 60)} min)`),
        fact('Detectors', health.detectors.length ? health.detectors.join(', ') : 'none', 'detector-list'),
        fact('Targets up', `${targets.up} of ${targets.count}`),
        scrapeIntervalFact(health.subsystems || []),
        fact('Bundles active', `${active} of ${health.bundles.length}`));
      replace(subsystemsHost, h('table', { id: 'subsystem-list', class: 'table' },
        h('thead', {}, h('tr', {}, ['Subsystem', 'State', 'Since', 'What it sees', 'What to do'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, (health.subsystems || []).map((s) => h('tr', { data: { subsystem: s.subsystem, state: s.state }, class: s.state === 'UP' ? '' : `sev-row-${s.state === 'DOWN' ? 'critical' : 'warning'}` },
          h('td', { class: 'mono' }, s.subsystem),
          h('td', {}, h('span', { class: `badge subsystem-${s.state.toLowerCase()}` }, s.state)),
          h('td', { class: 'nowrap', title: absolute(s.since) }, relative(s.since)),
          h('td', {}, s.summary),
          h('td', {}, s.action || '–'))))));
      replace(coverageHost, [coverageView(coverage, seriesBudgetSpent(health.subsystems || [])), namingLine(targets.targets)].flat());
      replace(targetsHost, h('table', { id: 'target-list', class: 'table' },
        h('thead', {}, h('tr', {}, ['URL', 'Health', 'Node', 'Names', 'Last scrape', 'Duration', 'Samples', 'Not used', 'Last error'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, targets.targets.length ? targets.targets.map((t) => h('tr', { data: { health: t.health, url: t.url } },
          h('td', { class: 'mono' }, t.url),
          h('td', {}, h('span', { class: `badge target-${t.health}` }, t.health)),
          h('td', { class: 'mono' }, t.node || '–'),
          h('td', { class: 'nowrap', data: { naming: t.naming || '' } }, t.naming || '–'),
          h('td', { class: 'nowrap', title: absolute(t.lastScrape) }, relative(t.lastScrape)),
          h('td', { class: 'num' }, `${(t.lastDurationMicros / 1000).toFixed(1)} ms`),
          h('td', { class: 'num' }, t.samples),
          h('td', { class: 'target-skipped' }, t.skipped || '–'),
          h('td', { class: 'error-text' }, t.lastError || ''))) : h('tr', { class: 'empty' }, h('td', { colspan: 9 }, 'No scrape targets configured.')))));
      replace(bundlesHost, h('table', { id: 'bundle-list', class: 'table' },
        h('thead', {}, h('tr', {}, ['ID', 'Symbolic name', 'Version', 'State'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, health.bundles.map((b) => h('tr', { data: { bundle: b.symbolicName, state: b.state } },
          h('td', { class: 'num' }, b.id),
          h('td', { class: 'mono' }, b.symbolicName),
          h('td', { class: 'mono' }, b.version),
          h('td', {}, h('span', { class: `badge bundle-${b.state}` }, b.state)))))));
      error.hidden = true;
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    }
  }

  refresh();
  return { refresh, onCapacity() {}, onFinding() {}, unmount() {} };
}

/** True when telemetry keeps no new series because its series budget is spent. */
function seriesBudgetSpent(subsystems) {
  const telemetry = subsystems.find((s) => s.subsystem === 'telemetry');
  const m = telemetry && telemetry.measurements;
  return Boolean(m && m.bulwark_telemetry_series_limit > 0
    && m.bulwark_telemetry_series >= m.bulwark_telemetry_series_limit);
}

/**
 * The detectors that cannot fully see some nodes, grouped by the fields missing there: not served by
 * their exporters, or, while the series budget is spent, served but not kept.
 */
function coverageView(coverage, budgetSpent) {
  const cause = budgetSpent
    ? 'Telemetry keeps no new series while its series budget is spent (see the telemetry row above), so '
      + 'these fields may be served but dropped: raise the heap or maxSeries first; if gaps remain, enable '
      + 'the fields in the exporter (appliance-image/etc/dcgm-exporter/bulwark-counters.csv).'
    : 'Enable the fields in the exporter (appliance-image/etc/dcgm-exporter/bulwark-counters.csv).';
  const summary = h('p', { id: 'coverage-summary', class: coverage.gaps.length ? 'notice warning' : 'muted' },
    coverage.gaps.length
      ? `${coverage.nodesReporting - coverage.nodesComplete} of ${coverage.nodesReporting} reporting nodes `
        + `(${coverage.gpusPartlyCovered} GPUs) lack fields some detectors read: those detectors cannot see `
        + `those faults there. ${cause}`
      : `Every detector sees every field it reads on all ${coverage.nodesReporting} reporting nodes.`);
  if (!coverage.gaps.length) return summary;
  return [summary, h('table', { id: 'coverage-list', class: 'table' },
    h('thead', {}, h('tr', {}, ['Detector', 'Missing fields', 'Nodes', 'GPUs', 'For example'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, coverage.gaps.map((g) => h('tr', { data: { detector: g.detector } },
      h('td', { class: 'mono' }, g.detector),
      h('td', { class: 'mono' }, g.missing.join(', ')),
      h('td', { class: 'num' }, g.nodes),
      h('td', { class: 'num' }, g.gpus),
      h('td', { class: 'mono' }, g.sampleNodes.join(', ') + (g.nodes > g.sampleNodes.length ? ', …' : ''))))))];
}

/**
 * Which generations of DCGM field names the targets' pages use, and how many DCGM blank values (fields
 * DCGM could not read) their last pages carried: both are read, neither is a fault by itself.
 */
function namingLine(targets) {
  const counts = new Map();
  let blanks = 0;
  for (const t of targets) {
    if (t.naming) counts.set(t.naming, (counts.get(t.naming) || 0) + 1);
    blanks += t.blankValues || 0;
  }
  const parts = [...counts.entries()].sort().map(([naming, n]) => `${n} ${n === 1 ? 'target uses' : 'targets use'} ${naming} field names`);
  if (!parts.length && !blanks) return [];
  const text = (parts.length ? `${parts.join('; ')} (both generations are read).` : '')
    + (blanks ? ` The last pages carried ${blanks} DCGM blank value${blanks === 1 ? '' : 's'} (fields DCGM could not read), taken as absences: see Not used below.` : '');
  return [h('p', { id: 'coverage-naming', class: 'muted' }, text.trim())];
}

/**
 * How often the fleet is scraped now: the configured interval, or longer while telemetry sheds load
 * because the appliance cannot keep up (its subsystem row says why).
 */
function scrapeIntervalFact(subsystems) {
  const telemetry = subsystems.find((s) => s.subsystem === 'telemetry');
  const m = telemetry && telemetry.measurements;
  if (!m || m.bulwark_telemetry_scrape_interval_seconds === undefined) {
    return fact('Scrape interval', '–', 'scrape-interval');
  }
  const now = m.bulwark_telemetry_scrape_interval_seconds;
  const configured = m.bulwark_telemetry_scrape_interval_configured_seconds;
  if (m.bulwark_telemetry_load_shedding) {
    return fact('Scrape interval', h('span', { class: 'badge subsystem-degraded', title: telemetry.summary },
      `${now.toFixed(1)} s: shedding load (configured ${configured.toFixed(1)} s)`), 'scrape-interval');
  }
  return fact('Scrape interval', `${now.toFixed(1)} s`, 'scrape-interval');
}

function fact(label, value, id) {
  return h('div', { class: 'fact' }, h('dt', {}, label), h('dd', { id }, value));
}
