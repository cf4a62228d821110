// Tropos's web console: one page over SCM's JSON routes (/api/...), redrawn every few seconds.
// Views by the address's fragment: #overview, #datanodes, #pipelines, #containers[?health=H], #containers/ID,
// #om, #s3. ?refresh=MS on the page's address sets how often (default 2000 ms).
'use strict';

const REFRESH_MS = Number(new URLSearchParams(location.search).get('refresh')) || 2000;
const view = document.getElementById('view');
// The previous sample of each counter, for rates per second.
const previous = {};

async function get(path) {
  const response = await fetch(path, {cache: 'no-store'});
  const body = await response.json();
  if (!response.ok) {
    throw new Error(body.error || response.status);
  }
  return body;
}

function esc(value) {
  return String(value ?? '').replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;',
    "'": '&#39;'})[c]);
}

// Protobuf JSON writes int64 as strings.
const num = value => Number(value || 0);

function uuid(u) {
  if (!u) {
    return '';
  }
  const hex = v => BigInt.asUintN(64, BigInt(v || 0)).toString(16).padStart(16, '0');
  const h = hex(u.mostSignificantBits) + hex(u.leastSignificantBits);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function bytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = num(n);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

// Per second since the previous sample of `key` (null on the first).
function rate(key, value) {
  const now = performance.now();
  const before = previous[key];
  previous[key] = {value, now};
  if (!before || now <= before.now || value < before.value) {
    return null;
  }
  return (value - before.value) * 1000 / (now - before.now);
}

const perSecond = r => r === null ? '…' : r.toFixed(1);

function table(headers, rows, attributes = () => '') {
  return `<table><tr>${headers.map(h => `<th>${esc(h)}</th>`).join('')}</tr>${rows.map((cells, i) =>
    `<tr ${attributes(i)}>${cells.join('')}</tr>`).join('')}</table>`;
}

const cell = (value, cls = '') => `<td class="${esc(cls)}">${esc(value)}</td>`;
const stateCell = (value, cls = '') => `<td class="${esc(cls)} ${esc(value)}">${esc(value)}</td>`;
const numCell = value => `<td class="num">${esc(value)}</td>`;

function countBy(items, key) {
  const counts = {};
  items.forEach(item => {
    counts[key(item)] = (counts[key(item)] || 0) + 1;
  });
  return counts;
}

function counts(title, map, cls) {
  return `<h2>${esc(title)}</h2>` + table(['state', 'count'], Object.entries(map).map(([k, v]) =>
    [stateCell(k, cls), numCell(v)]));
}

function nodeName(details) {
  return details ? details.hostName || details.ipAddress || uuid(details.uuid) : '';
}

function volumesOf(node) {
  return (node.lastReport && node.lastReport.volumes) || [];
}

function statusLink(details) {
  const port = (details.ports || []).find(p => p.name === 'HTTP');
  return port ? `<a href="http://${esc(details.ipAddress)}:${esc(port.value)}/">status</a>` : '';
}

async function overview() {
  const [datanodes, pipelines, replication] = await Promise.all([get('/api/datanodes'), get('/api/pipelines'),
    get('/api/replication')]);
  const nodes = datanodes.datanodes || [];
  const live = nodes.filter(n => n.state !== 'DEAD');
  const capacity = live.flatMap(volumesOf).reduce((sum, v) => sum + num(v.capacityBytes), 0);
  const used = live.flatMap(volumesOf).reduce((sum, v) => sum + num(v.usedBytes), 0);
  const available = live.flatMap(volumesOf).reduce((sum, v) => sum + num(v.availableBytes), 0);
  const racks = {};
  nodes.forEach(n => {
    const rack = n.details.networkLocation || '(none)';
    racks[rack] = racks[rack] || {nodes: 0, healthy: 0};
    racks[rack].nodes++;
    racks[rack].healthy += n.state === 'HEALTHY' ? 1 : 0;
  });
  const health = {};
  (replication.counts || []).forEach(c => {
    health[c.health] = num(c.count);
  });
  let html = `<div class="cards">
    <div class="card">Capacity<div class="big" id="capacity">${bytes(capacity)}</div></div>
    <div class="card">Used<div class="big" id="used">${bytes(used)}</div></div>
    <div class="card">Available<div class="big">${bytes(available)}</div></div>
    <div class="card">Datanodes<div class="big" id="datanode-count">${nodes.length}</div></div>
    <div class="card">Containers (last replication round)<div class="big" id="container-count">${
      num(replication.lastRunEpochMs) ? num(replication.containers) : 'not yet'}</div></div>
    </div>`;
  html += counts('Datanodes by state', countBy(nodes, n => n.state), 'node-state');
  html += counts('Datanodes by operational state', countBy(nodes, n => n.operationalState), 'operational-state');
  html += '<h2>Racks</h2>' + table(['rack', 'datanodes', 'healthy'], Object.entries(racks).map(([rack, r]) =>
    [cell(rack), numCell(r.nodes), numCell(r.healthy)]));
  html += counts('Pipelines by state', countBy(pipelines.pipelines || [], p => p.state), 'pipeline-state');
  html += '<h2>Containers by health</h2>' + (num(replication.lastRunEpochMs) ? table(['health', 'containers'],
    Object.entries(health).map(([h, n]) => [`<td class="${esc(h)}"><a href="#containers?health=${esc(h)}">${esc(h)}`
      + '</a></td>', numCell(n)])) : '<p>The replication manager has not run yet: <a href="#containers">all'
      + ' containers</a>.</p>');
  if ((replication.classCounts || []).length) {
    html += '<h2>Containers by replication and health</h2>' + table(['replication', 'health', 'containers'],
      replication.classCounts.map(c => [cell(c.replication), stateCell(c.health, 'container-health'),
        numCell(c.count)]));
  }
  html += `<h2>Replication</h2>` + table(['copies in flight', 'deletions in flight', 'last round'],
    [[numCell(replication.copiesInFlight), numCell(replication.deletionsInFlight),
      cell(num(replication.lastRunEpochMs) ? new Date(num(replication.lastRunEpochMs)).toISOString() : 'not yet')]]);
  html += '<h2>OM</h2>' + await summaryOr('/api/om', omTable);
  html += '<h2>S3 gateway</h2>' + await summaryOr('/api/s3', s3Totals);
  return html;
}

async function summaryOr(path, render) {
  try {
    return render(await get(path));
  } catch (e) {
    return `<p class="error">${esc(e.message)}</p>`;
  }
}

async function datanodes() {
  const [list, pipelines] = await Promise.all([get('/api/datanodes'), get('/api/pipelines')]);
  const memberOf = {};
  (pipelines.pipelines || []).forEach(p => (p.members || []).forEach(m => {
    const id = uuid(m.datanode.uuid);
    memberOf[id] = memberOf[id] || [];
    memberOf[id].push(uuid(p.id.id).slice(0, 8) + (uuid(p.leader) === id ? ' (leader)' : ''));
  }));
  const nodes = list.datanodes || [];
  const rows = nodes.map(n => {
    const id = uuid(n.details.uuid);
    const volumes = volumesOf(n);
    return [cell(nodeName(n.details), 'host'), cell(n.details.networkLocation), stateCell(n.state, 'node-state'),
      stateCell(n.operationalState, 'operational-state'),
      numCell(`${num(n.lastHeartbeatAgeMs) / 1000} s`),
      cell(volumes.map(v => `${v.storageLocation} ${v.state} ${bytes(v.usedBytes)} / ${bytes(v.capacityBytes)}`)
        .join('; ')),
      numCell(n.pipelineCount), numCell(n.leaderCount), cell((memberOf[id] || []).join(', ')),
      `<td>${statusLink(n.details)}</td>`];
  });
  return `<h2>Datanodes (${nodes.length})</h2>` + table(['host', 'rack', 'state', 'operational state',
    'last heartbeat', 'volumes (used / capacity)', 'pipelines', 'leaders', 'pipeline ids', ''], rows,
  i => `data-host="${esc(nodeName(nodes[i].details))}" data-uuid="${esc(uuid(nodes[i].details.uuid))}"`);
}

async function pipelines() {
  const list = (await get('/api/pipelines')).pipelines || [];
  const rows = list.map(p => {
    const leader = (p.members || []).find(m => uuid(m.datanode.uuid) === uuid(p.leader));
    const racks = [...new Set((p.members || []).map(m => m.datanode.networkLocation))];
    return [cell(uuid(p.id.id), 'pipeline'), cell(p.factor), stateCell(p.state, 'pipeline-state'),
      cell(leader ? nodeName(leader.datanode) : '(none)', 'leader'),
      cell((p.members || []).map(m => `${nodeName(m.datanode)} ${m.datanode.networkLocation} ${m.role}`
        + ` ${m.nodeState}`).join('; ')), cell(racks.join(', '))];
  });
  return `<h2>Pipelines (${list.length})</h2>`
    + table(['pipeline', 'factor', 'state', 'leader', 'members (rack, role, state)', 'racks'], rows);
}

async function containers(query) {
  const health = query.get('health');
  const path = '/api/containers' + (health ? `?health=${encodeURIComponent(health)}` : '');
  const [list, replication] = await Promise.all([get(path), get('/api/replication')]);
  const filters = ['<a href="#containers">all</a>'].concat((replication.counts || []).map(c =>
    `<a href="#containers?health=${esc(c.health)}">${esc(c.health)} (${num(c.count)})</a>`)).join(' · ');
  const rows = (list.containers || []).map(c => [
    `<td><a href="#containers/${esc(c.containerId)}">${esc(c.containerId)}</a></td>`,
    stateCell(c.state), stateCell(c.health, 'container-health'), cell(c.replication),
    numCell(`${c.replicaCount} / ${c.required}`), numCell(bytes(c.usedBytes)), numCell(c.blockCount),
    cell(c.pipelineId ? uuid(c.pipelineId.id) : '-')]);
  return `<p>${filters}</p><h2>Containers${health ? ' ' + esc(health) : ''} (${rows.length})</h2>`
    + table(['container', 'state', 'health', 'replication', 'replicas', 'used', 'blocks', 'pipeline'], rows);
}

async function container(id) {
  const c = await get(`/api/containers/${encodeURIComponent(id)}`);
  const s = c.summary;
  const rows = (c.replicas || []).map(r => [cell(num(r.replicaIndex) || '-', 'replica-index'),
    cell(nodeName(r.datanode), 'host'), cell(r.datanode.networkLocation),
    stateCell(r.nodeState, 'node-state'), stateCell(r.operationalState), stateCell(r.state, 'replica-state'),
    numCell(r.bcsid), numCell(r.blockCount), numCell(bytes(r.usedBytes)),
    cell(num(r.dataScanEpochMs) ? new Date(num(r.dataScanEpochMs)).toISOString() : 'never'),
    cell(r.reportedBad ? 'reported bad' : '')]);
  return `<h2>Container ${esc(s.containerId)}</h2>`
    + table(['state', 'health', 'replication', 'replicas', 'used', 'blocks'], [[stateCell(s.state),
      stateCell(s.health), cell(s.replication), numCell(`${s.replicaCount} / ${s.required}`),
      numCell(bytes(s.usedBytes)), numCell(s.blockCount)]])
    + '<h2>Replicas</h2>' + table(['index', 'datanode', 'rack', 'node state', 'operational state', 'replica state',
      'bcsid', 'blocks', 'used', 'last data scan', ''], rows);
}

function omTable(om) {
  const commits = rate('om.commits', num(om.commits));
  const conflicts = rate('om.conflicts', num(om.conflicts));
  const attempts = num(om.commits) + num(om.conflicts);
  return table(['volumes', 'buckets', 'keys', 'directories', 'commits', 'commits/s', 'conflicts', 'conflicts/s',
    'conflict rate', 'serving'], [[numCell(om.volumes), numCell(om.buckets), numCell(om.keys),
    numCell(om.directories), numCell(om.commits), numCell(perSecond(commits)), numCell(om.conflicts),
    numCell(perSecond(conflicts)),
    numCell(attempts ? `${(100 * num(om.conflicts) / attempts).toFixed(2)} %` : '0 %'),
    cell(om.serving ? 'yes' : 'no')]]) + '<p>Row counts are RocksDB\'s estimates.</p>';
}

function s3Totals(s3) {
  const requests = (s3.operations || []).reduce((sum, o) => sum + num(o.requests), 0);
  const errors = (s3.operations || []).reduce((sum, o) => sum + num(o.errors), 0);
  return table(['requests', 'requests/s', 'errors', 'bytes in', 'in/s', 'bytes out', 'out/s'], [[
    `<td class="num" id="s3-requests">${requests}</td>`, numCell(perSecond(rate('s3.requests', requests))),
    numCell(errors), numCell(bytes(s3.bytesIn)), numCell(bytes(rate('s3.in', num(s3.bytesIn)) || 0) + '/s'),
    numCell(bytes(s3.bytesOut)), numCell(bytes(rate('s3.out', num(s3.bytesOut)) || 0) + '/s')]]);
}

async function om() {
  return '<h2>OM</h2>' + omTable(await get('/api/om'));
}

async function s3() {
  const summary = await get('/api/s3');
  const rows = (summary.operations || []).map(o => [cell(o.operation, 'operation'), numCell(o.requests),
    numCell(perSecond(rate('s3.op.' + o.operation, num(o.requests)))), numCell(o.errors)]);
  return '<h2>S3 gateway</h2>' + s3Totals(summary) + '<h2>By operation</h2>'
    + table(['operation', 'requests', 'requests/s', 'errors'], rows)
    + `<p>Up ${(num(summary.uptimeMs) / 1000).toFixed(0)} s.</p>`;
}

async function render() {
  const [route, queryText] = (location.hash.slice(1) || 'overview').split('?');
  const query = new URLSearchParams(queryText || '');
  const [name, id] = route.split('/');
  const views = {overview, datanodes, pipelines, om, s3,
    containers: () => id ? container(id) : containers(query)};
  const show = views[name] || overview;
  document.querySelectorAll('nav a').forEach(a => a.classList.toggle('current', a.hash === '#' + name));
  try {
    view.innerHTML = await show();
    document.body.dataset.view = name;
    document.getElementById('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
  } catch (e) {
    view.innerHTML = `<p class="error">${esc(e.message)}</p>`;
  }
}

let timer = null;
// A view chosen while another is drawn starts a new loop; the old one stops when its draw ends.
let generation = 0;

function schedule() {
  const mine = ++generation;
  clearTimeout(timer);
  render().finally(() => {
    if (mine === generation) {
      timer = setTimeout(schedule, REFRESH_MS);
    }
  });
}

window.addEventListener('hashchange', schedule);
schedule();
