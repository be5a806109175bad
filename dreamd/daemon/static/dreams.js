// The Dreams page: reads the daemon's JSON API with the operator's bearer token and polls it.
// Workspaces are one compact table (sortable, filterable: a fleet has hundreds of them); only the
// chosen workspace's details are fetched and shown. In a fleet, a table of hosts comes first.
// Buttons that change anything are shown only to an admin token (/v1/whoami says which). On a
// phone, tables become stacked rows (each cell labelled with its column) and the long sections
// start folded.
"use strict";

const POLL_MS = 10000;
const CHART_SWEEPS = 30;
const TOKEN_KEY = "dreamd.token";
const COLOURS = ["#b3461b", "#7a4fb3", "#a0006e", "#00677f", "#6b5d00", "#5d6b7a", "#8a3a00"];
const NUMERIC = new Set(["shortTerm", "candidates", "promotedToday"]);
const PHONE = window.matchMedia("(max-width: 40rem)");
const state = {
  admin: false, status: null, timer: null, rendered: new Map(), keys: {},
  sort: { key: "path", direction: 1 }, filter: "", selected: null, rows: [], histories: new Map(),
};

function $(selector, root = document) {
  return root.querySelector(selector);
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function api(path, options = {}) {
  const token = sessionStorage.getItem(TOKEN_KEY) || "";
  const headers = { Authorization: `Bearer ${token}`, Accept: "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method: options.method || "GET",
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    cache: "no-store",
  });
  let document = null;
  try {
    document = await response.json();
  } catch (_) {
    document = null;
  }
  if (!response.ok) {
    const message = document && document.error ? document.error : response.statusText;
    throw new ApiError(response.status, message);
  }
  return document;
}

function refusal(error) {
  if (error.status === 403) return `Refused: ${error.message}. This token may only read.`;
  if (error.status === 401) return "Refused: the token is missing or unknown.";
  return `Failed (${error.status || "network"}): ${error.message}`;
}

// "2026-11-30 03:00 Europe/Berlin": the instant in the configured timezone.
function inZone(instant, zone) {
  if (!instant) return "never";
  const moment = new Date(instant);
  if (Number.isNaN(moment.getTime())) return instant;
  let parts;
  try {
    parts = new Intl.DateTimeFormat("en-CA", {
      timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23",
    }).formatToParts(moment);
  } catch (_) {
    return instant;
  }
  const part = (type) => (parts.find((p) => p.type === type) || {}).value;
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")} ${zone}`;
}

// Show admin-only controls to admin tokens alone (under ``root``: the page or a new card).
function applyAdmin(root = document) {
  for (const node of root.querySelectorAll(".admin-only")) node.hidden = !state.admin;
}

// On a phone, sections marked data-phone="closed" start folded (the reader opens what they need).
function foldForPhone(root = document) {
  if (!PHONE.matches) return;
  for (const node of root.querySelectorAll('details[data-phone="closed"]')) node.open = false;
}

// Each cell carries its column's name, shown beside it when a row is stacked on a phone.
function labelCells(table) {
  const names = [...table.querySelectorAll("thead th")].map((th) => th.textContent.replace(/[▲▼]/g, "").trim());
  for (const row of table.querySelectorAll("tbody tr")) {
    [...row.children].forEach((cell, index) => {
      if (names[index]) cell.dataset.label = names[index];
    });
  }
}

async function loadScopes() {
  try {
    state.admin = Boolean((await api("/v1/whoami")).admin);
  } catch (_) {
    state.admin = false;
  }
  applyAdmin();
}

function setConnection(text, isError) {
  const node = $("#connection");
  node.textContent = text;
  node.classList.toggle("error", Boolean(isError));
}

function renderStatus(status) {
  state.status = status;
  const zone = status.timezone;
  $("#enabled-state").textContent = status.enabled ? "on" : "off";
  $("#enabled-source").textContent = `(${status.enabledSource})`;
  const overall = $("#overall");
  overall.textContent = status.status;
  overall.className = `badge ${status.status}`;
  const toggle = $("#toggle");
  toggle.textContent = status.enabled ? "Turn dreaming off" : "Turn dreaming on";
  toggle.setAttribute("aria-pressed", String(status.enabled));
  const next = $("#next-run");
  next.textContent = status.enabled ? inZone(status.nextRun, zone) : "none (dreaming is off)";
  next.dataset.instant = status.nextRun || "";
  $("#frequency").textContent = `${status.frequency} (${zone})`;
  $("#owner").textContent = status.owner || "none";
  $("#updated").textContent = inZone(status.now, zone);
  const warnings = $("#warnings");
  warnings.replaceChildren();
  if (status.blocked) {
    warnings.append(el("li", { text: `Blocked: ${status.blocked.reason}. Fix: ${status.blocked.fix}` }));
    for (const event of status.schedule.pending || []) {
      const minutes = Math.floor(event.ageSeconds / 60);
      warnings.append(el("li", { text: `Pending: ${event.reason} sweep for ${event.owner}, ${minutes} min old` }));
    }
  }
  for (const warning of status.warnings) warnings.append(el("li", { text: warning }));
  const totals = { shortTerm: 0, grounded: 0, signals: 0, promotedToday: 0 };
  for (const workspace of status.workspaces) {
    for (const key of Object.keys(totals)) totals[key] += Number(workspace[key] || 0);
  }
  for (const [key, value] of Object.entries(totals)) $(`#count-${key}`).textContent = String(value);
}

function workspaceCard(path) {
  let card = state.rendered.get(path);
  if (card) return card;
  const fragment = $("#workspace-template").content.cloneNode(true);
  const node = fragment.querySelector("article");
  node.dataset.workspace = path;
  node.querySelector(".clear-grounded").addEventListener("click", () => clearGrounded(node, path));
  const form = node.querySelector("form.backfill");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    backfill(node, path, "preview");
  });
  for (const button of form.querySelectorAll("button[type=button]")) {
    button.addEventListener("click", () => backfill(node, path, button.dataset.action));
  }
  applyAdmin(node);
  foldForPhone(node);
  $("#workspaces").append(node);
  card = { node, keys: {} };
  state.rendered.set(path, card);
  return card;
}

function changed(card, part, value) {
  const key = JSON.stringify(value);
  if (card.keys[part] === key) return false;
  card.keys[part] = key;
  return true;
}

function phaseRows(entry, history) {
  const last = entry.lastOutcome;
  const phases = (history && history.phases) || {};
  const when = last ? inZone(last.at, state.status.timezone) : "never";
  const outcome = last ? last.status : "no sweep yet";
  const unseen = "not swept by this daemon yet";
  const light = phases.light ? `${phases.light.staged} staged (${phases.light.newlyStaged} new)` : unseen;
  const rem = phases.rem ? `${phases.rem.themes} themes, ${phases.rem.truths} truths` : unseen;
  const deep = phases.deep
    ? `${phases.deep.promoted} promoted of ${phases.deep.ranked} ranked`
    : last ? `${last.promoted} promoted of ${last.ranked} ranked` : "–";
  const diary = last ? (last.diary ? `entry: ${last.diary}` : "no new entry") : "–";
  return [["Light", light], ["REM", rem], ["Deep", deep], ["Diary", diary]].map(([name, counts]) =>
    el("tr", {}, el("th", { scope: "row", text: name }), el("td", { text: when }),
      el("td", { text: outcome }), el("td", { text: counts })));
}

function renderWorkspace(entry, history) {
  const card = workspaceCard(entry.path);
  const node = card.node;
  const agents = (entry.agents || []).join(", ");
  node.querySelector(".ws-title").textContent = agents ? `${entry.path} (${agents})` : entry.path;
  const warnings = node.querySelector(".ws-warnings");
  warnings.replaceChildren();
  if (entry.error) warnings.append(el("li", { text: `Error: ${entry.error}` }));
  for (const message of Object.values(entry.health || {})) warnings.append(el("li", { text: message }));
  for (const message of entry.warnings || []) warnings.append(el("li", { text: message }));
  if (entry.counting) warnings.append(el("li", { text: "Counting…" }));
  node.querySelector(".phases tbody").replaceChildren(...phaseRows(entry, history));
  labelCells(node.querySelector(".phases"));
  return card;
}

function renderGrounded(card, lane, groundedLed) {
  if (!changed(card, "grounded", [lane, groundedLed])) return;
  const node = card.node;
  const led = lane.entries.filter((item) => item.groundedLed).length;
  node.querySelector(".lane-summary").textContent =
    `${lane.total} entries staged from historical replay; ${led} grounded-led.` +
    (groundedLed.length ? ` Grounded-led promotions today: ${groundedLed.join(", ")}.` : "");
  node.querySelector(".lane-entries").replaceChildren(...lane.entries.map((item) => {
    const li = el("li", {}, el("code", { text: `${item.path}:${item.startLine}-${item.endLine}` }),
      ` ${item.snippet} `,
      el("span", { class: "muted", text: `(${item.groundedCount} of ${item.signalCount} signals grounded)` }));
    if (item.groundedLed) li.append(el("span", { class: "tag", text: "grounded-led" }));
    if (item.promotedAt) li.append(el("span", { class: "tag", text: "promoted" }));
    return li;
  }));
}

function bar(label, value, max, threshold, display, passes) {
  const track = el("div", { class: "bar", role: "img",
    "aria-label": `${label}: ${display}${threshold === null ? "" : `, threshold ${threshold}`}` });
  const fill = el("div", { class: `fill ${passes === null ? "" : passes ? "pass" : "fail"}` });
  fill.style.width = `${Math.max(0, Math.min(100, (value / max) * 100))}%`;
  track.append(fill);
  if (threshold !== null) {
    const mark = el("div", { class: "threshold" });
    mark.style.left = `${Math.max(0, Math.min(100, (threshold / max) * 100))}%`;
    track.append(mark);
  }
  return [el("span", { text: label }), track, el("span", { text: display })];
}

function renderCandidates(card, document) {
  if (!changed(card, "candidates", document)) return;
  const t = document.thresholds;
  const rejected = Object.entries(document.rejected || {}).map(([k, v]) => `${k} ${v}`).join(", ");
  card.node.querySelector(".candidates-summary").textContent =
    `${document.candidates.length} pass every gate` + (rejected ? `; held back: ${rejected}.` : ".");
  card.node.querySelector(".candidate-list").replaceChildren(...document.candidates.map((c) => {
    const maxSignals = Math.max(t.minRecallCount * 2, c.signalCount, 1);
    const maxQueries = Math.max(t.minUniqueQueries * 2, c.uniqueQueries, 1);
    const rows = [
      ...bar("score", c.score, 1, t.minScore, c.score.toFixed(3), c.score >= t.minScore),
      ...bar("signals", c.signalCount, maxSignals, t.minRecallCount, String(c.signalCount), c.signalCount >= t.minRecallCount),
      ...bar("unique queries", c.uniqueQueries, maxQueries, t.minUniqueQueries, String(c.uniqueQueries), c.uniqueQueries >= t.minUniqueQueries),
    ];
    if (t.maxAgeDays >= 0) {
      rows.push(...bar("age (days)", c.ageDays, Math.max(t.maxAgeDays, c.ageDays, 1), t.maxAgeDays,
        c.ageDays.toFixed(1), c.ageDays <= t.maxAgeDays));
    }
    for (const [name, value] of Object.entries(c.components)) {
      rows.push(...bar(name, value, 1, null, value.toFixed(2), null));
    }
    return el("div", { class: "candidate" },
      el("p", {}, el("code", { text: `${c.path}:${c.startLine}-${c.endLine}` }), ` ${c.snippet}`),
      el("div", { class: "bars" }, ...rows));
  }));
}

async function explainInto(button, path, key) {
  const target = button.parentElement.querySelector(".explain-lines");
  if (!target.hidden) {
    target.hidden = true;
    button.setAttribute("aria-expanded", "false");
    return;
  }
  try {
    const query = `workspace=${encodeURIComponent(path)}&selector=${encodeURIComponent(key)}`;
    const result = await api(`/v1/candidates?${query}`);
    target.textContent = (result.verdictLines || []).join("\n") || "No verdicts.";
  } catch (error) {
    target.textContent = refusal(error);
  }
  target.hidden = false;
  button.setAttribute("aria-expanded", "true");
}

function explainable(path, item, ...children) {
  const button = el("button", { type: "button", class: "link", "aria-expanded": "false", text: "explain" });
  button.addEventListener("click", () => explainInto(button, path, item.key));
  const lines = el("pre", { class: "explain-lines" });
  lines.hidden = true;
  return el("li", {}, ...children, button, lines);
}

function renderPromotions(card, path, document) {
  if (!changed(card, "promotions", [document.promotions, document.nearMisses])) return;
  const node = card.node;
  const promotions = document.promotions || [];
  node.querySelector(".promotions-summary").textContent = promotions.length
    ? `${promotions.length} promoted into MEMORY.md today.` : "Nothing promoted today.";
  node.querySelector(".promotion-list").replaceChildren(...promotions.map((item) =>
    explainable(path, item, el("code", { text: item.source }), ` ${item.snippet} `)));
  const near = document.nearMisses || [];
  node.querySelector(".near-summary").textContent = near.length
    ? "The best candidates each gate held back." : "No candidate was held back.";
  node.querySelector(".near-list").replaceChildren(...near.map((item) =>
    explainable(path, item, el("span", { class: "tag", text: item.gate }), " ",
      el("code", { text: item.source }), ` ${item.snippet} `,
      el("span", { class: "muted", text: `(score ${item.score.toFixed(3)}${item.detail ? `; ${item.detail}` : ""})` }))));
}

function renderDiary(card, entries) {
  if (!changed(card, "diary", entries)) return;
  const list = card.node.querySelector(".diary-entries");
  if (!entries.length) {
    list.replaceChildren(el("p", { class: "muted", text: "No diary entries yet." }));
    return;
  }
  list.replaceChildren(...entries.slice().reverse().map((entry) => {
    const lines = entry.split("\n");
    const title = lines[0].replace(/^\*(.*)\*$/, "$1").trim() || "Entry";
    const rest = lines.slice(1).join("\n");
    const replay = /<!--\s*dreamd:dreaming:backfill-entry[^>]*source=(\S+)\s*-->/.exec(rest);
    const body = rest.replace(/<!--[\s\S]*?-->/g, "").trim();
    const summary = el("summary", { text: title });
    if (replay) summary.append(el("span", { class: "tag", text: `replayed from ${replay[1]}` }));
    return el("details", { class: "diary-entry" }, summary, el("p", { text: body }));
  }));
}

function sweepsOf(history) {
  const byAt = new Map();
  for (const workspace of history.workspaces) {
    for (const record of workspace.history) {
      const sweep = byAt.get(record.at) || { at: record.at, promoted: 0, rejected: {} };
      sweep.promoted += Number(record.promoted || 0);
      if (record.rejected && typeof record.rejected === "object") {
        for (const [name, count] of Object.entries(record.rejected)) {
          sweep.rejected[name] = (sweep.rejected[name] || 0) + Number(count);
        }
      } else {
        const held = Math.max(0, Number(record.ranked || 0) - Number(record.promoted || 0));
        if (held) sweep.rejected["ranked, not promoted"] = (sweep.rejected["ranked, not promoted"] || 0) + held;
      }
      byAt.set(record.at, sweep);
    }
  }
  return [...byAt.values()].sort((a, b) => (a.at < b.at ? -1 : 1)).slice(-CHART_SWEEPS);
}

function renderChart(history) {
  const sweeps = sweepsOf(history);
  const box = $("#chart");
  if (!changed(state, "chart", sweeps)) return;
  if (!sweeps.length) {
    box.replaceChildren(el("p", { class: "muted", text: "No sweeps recorded yet." }));
    return;
  }
  const categories = [...new Set(sweeps.flatMap((s) => Object.keys(s.rejected)))].sort();
  const colour = (name) => COLOURS[categories.indexOf(name) % COLOURS.length];
  const peak = Math.max(1, ...sweeps.map((s) => s.promoted + Object.values(s.rejected).reduce((a, b) => a + b, 0)));
  const width = 640, height = 220, left = 36, bottom = 24, top = 10;
  const slot = (width - left - 8) / CHART_SWEEPS;
  const scale = (height - bottom - top) / peak;
  const total = sweeps.reduce((n, s) => n + s.promoted, 0);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "chart-title" });
  const title = svg("title", { id: "chart-title" });
  title.textContent = `${sweeps.length} sweeps: ${total} promoted`;
  chart.append(title);
  chart.append(svg("line", { class: "axis", x1: left, y1: height - bottom, x2: width - 4, y2: height - bottom }));
  chart.append(svg("line", { class: "axis", x1: left, y1: top, x2: left, y2: height - bottom }));
  const label = svg("text", { x: left - 6, y: top + 10, "text-anchor": "end" });
  label.textContent = String(peak);
  chart.append(label);
  const span = svg("text", { x: width - 4, y: height - 6, "text-anchor": "end" });
  span.textContent = `oldest → newest (${sweeps.length} of the last ${CHART_SWEEPS} sweeps)`;
  chart.append(span);
  sweeps.forEach((sweep, index) => {
    let y = height - bottom;
    const x = left + 4 + index * slot;
    const parts = [["promoted", sweep.promoted, "#1f7a3a"],
      ...categories.map((name) => [name, sweep.rejected[name] || 0, colour(name)])];
    for (const [name, count, fill] of parts) {
      if (!count) continue;
      const h = count * scale;
      y -= h;
      const rect = svg("rect", { x, y, width: Math.max(2, slot - 4), height: h, fill, class: `seg ${name === "promoted" ? "promoted" : "rejected"}` });
      const tip = svg("title");
      tip.textContent = `${sweep.at}: ${name} ${count}`;
      rect.append(tip);
      chart.append(rect);
    }
  });
  const legend = el("ul", { class: "legend" },
    ...[["promoted", "#1f7a3a"], ...categories.map((n) => [n, colour(n)])].map(([name, fill]) => {
      const swatch = el("span", { class: "swatch" });
      swatch.style.background = fill;
      return el("li", {}, swatch, name);
    }));
  box.replaceChildren(chart, legend);
}

function renderHosts(summary, fleet) {
  const section = $("#fleet");
  section.hidden = !summary;
  if (!summary) return;
  $("#fleet-line").textContent = summary.line;
  const hosts = (fleet && fleet.hosts) || summary.hosts || [];
  if (!changed(state, "hosts", hosts)) return;
  const zone = state.status.timezone;
  $("#hosts tbody").replaceChildren(...hosts.map((host) => {
    const condition = host.lost ? "lost" : host.state || "ok";
    return el("tr", {},
      el("th", { scope: "row", text: host.id }),
      el("td", { class: host.lost ? "lost" : "", text: condition }),
      el("td", { text: inZone(host.lastSeen, zone) }),
      el("td", { text: `${host.jobsInUse || 0}/${host.jobsLimit || "?"}` }),
      el("td", { text: (host.leads || []).join(", ") || "–" }),
      el("td", { text: String(host.sweptLast || 0) }),
      el("td", { text: host.lastError || "–" }));
  }));
  labelCells($("#hosts"));
}

function tableRows(status, fleet) {
  const swept = new Map(((fleet && fleet.workspaces) || []).map((w) => [w.path, w.lastSweep]));
  return status.workspaces.map((entry) => {
    const last = swept.get(entry.path);
    const own = entry.lastOutcome;
    return {
      entry,
      path: entry.path,
      agents: (entry.agents || []).join(", "),
      shortTerm: Number(entry.shortTerm || 0),
      candidates: Number(entry.candidates || 0),
      promotedToday: Number(entry.promotedToday || 0),
      lastSweep: (last && last.at) || entry.lastSweep || "",
      host: last ? last.host : fleet ? "" : "this host",
      outcome: entry.error ? "error" : (last && last.status) || (own && own.status) || "never",
    };
  });
}

function shownRows() {
  const words = state.filter.toLowerCase().split(/\s+/).filter(Boolean);
  const { key, direction } = state.sort;
  const kept = state.rows.filter((row) => {
    const text = `${row.path} ${row.agents} ${row.host} ${row.outcome}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
  kept.sort((a, b) => {
    const x = a[key], y = b[key];
    const order = NUMERIC.has(key) ? x - y : String(x).localeCompare(String(y));
    return order * direction || a.path.localeCompare(b.path);
  });
  return kept;
}

function renderTable() {
  const rows = shownRows();
  const zone = state.status.timezone;
  for (const th of document.querySelectorAll("#ws-table th[data-key]")) {
    const sorted = th.dataset.key === state.sort.key;
    if (sorted) th.setAttribute("aria-sort", state.sort.direction > 0 ? "ascending" : "descending");
    else th.removeAttribute("aria-sort");
  }
  $("#ws-count").textContent = `${rows.length} of ${state.rows.length} workspaces shown`;
  if (!changed(state, "table", [rows.map((r) => [r.path, r.shortTerm, r.candidates, r.promotedToday,
    r.lastSweep, r.host, r.outcome]), state.selected])) return;
  $("#ws-table tbody").replaceChildren(...rows.map((row) => {
    const tr = el("tr", { tabindex: "0", "aria-selected": String(row.path === state.selected) },
      el("td", {}, el("code", { text: row.path }), row.agents ? el("span", { class: "muted", text: ` (${row.agents})` }) : ""),
      el("td", { text: String(row.shortTerm) }),
      el("td", { text: String(row.candidates) }),
      el("td", { text: String(row.promotedToday) }),
      el("td", { text: row.lastSweep ? inZone(row.lastSweep, zone) : "never" }),
      el("td", { text: row.host || "–" }),
      el("td", { text: row.outcome }));
    tr.dataset.workspace = row.path;
    return tr;
  }));
  labelCells($("#ws-table"));
}

function choose(path) {
  if (!path || path === state.selected) return;
  state.selected = path;
  renderTable();
  refreshDetails();
}

async function refreshDetails() {
  const row = state.rows.find((r) => r.path === state.selected);
  for (const [path, card] of state.rendered) {
    if (path !== state.selected) {
      card.node.remove();
      state.rendered.delete(path);
    }
  }
  if (!row) return;
  const hist = state.histories.get(row.path);
  const card = renderWorkspace(row.entry, hist);
  const query = `workspace=${encodeURIComponent(row.path)}`;
  const [lane, candidates, diary] = await Promise.all([
    api(`/v1/grounded?${query}`), api(`/v1/candidates?${query}`), api(`/v1/diary?${query}&limit=30`),
  ]);
  const led = (hist && hist.phases && hist.phases.deep && hist.phases.deep.groundedLed) || [];
  renderGrounded(card, lane, led);
  renderCandidates(card, candidates);
  renderPromotions(card, row.path, candidates);
  renderDiary(card, diary.entries);
}

async function refresh() {
  if (!sessionStorage.getItem(TOKEN_KEY)) return;
  try {
    const [status, history] = await Promise.all([api("/v1/status"), api("/v1/history")]);
    renderStatus(status);
    $("#main").hidden = false;
    const fleet = status.fleet ? await api("/v1/fleet").catch(() => null) : null;
    renderHosts(status.fleet, fleet);
    state.histories = new Map(history.workspaces.map((w) => [w.path, w]));
    state.rows = tableRows(status, fleet);
    if (!state.rows.some((row) => row.path === state.selected)) {
      const first = shownRows()[0];
      state.selected = first ? first.path : null;
    }
    renderTable();
    await refreshDetails();
    renderChart(history);
    setConnection(`Live: refreshed at ${inZone(status.now, status.timezone)}, every ${POLL_MS / 1000} s.`, false);
  } catch (error) {
    setConnection(error instanceof ApiError ? refusal(error) : `Cannot reach the daemon: ${error.message}`, true);
  }
}

async function toggle() {
  const message = $("#toggle-message");
  const button = $("#toggle");
  if (!state.status) return;
  button.disabled = true;
  try {
    const status = await api("/v1/dreaming", { method: "POST", body: { enabled: !state.status.enabled } });
    renderStatus(status);
    message.className = "message ok";
    message.textContent = `Dreaming is now ${status.enabled ? "on" : "off"}.`;
  } catch (error) {
    message.className = "message";
    message.textContent = refusal(error);
  } finally {
    button.disabled = false;
  }
}

async function clearGrounded(node, path) {
  const message = node.querySelector(".lane-message");
  if (!window.confirm(`Remove backfill entries and grounded-only rows from ${path}?`)) return;
  try {
    const result = await api("/v1/grounded/clear", { method: "POST", body: { workspace: path } });
    message.className = "lane-message message ok";
    message.textContent = `Removed ${result.removedShortTermEntries} grounded-only rows and ${result.removedEntries} backfill entries.`;
    await refresh();
  } catch (error) {
    message.className = "lane-message message";
    message.textContent = refusal(error);
  }
}

function previewFiles(result) {
  if (!result.files.length) return [el("p", { class: "muted", text: "No historical notes found there." })];
  return result.files.map((file) => {
    const lasting = file.lastingUpdates.map((c) => el("li", { text: `${c.text} [${c.refs.join(", ")}]` }));
    return el("details", { class: "backfill-file" },
      el("summary", { text: `${file.path} (${file.day}): ${file.statements} statement${file.statements === 1 ? "" : "s"}` }),
      el("p", { text: file.bodyLines.join("\n") }),
      ...(lasting.length ? [el("h5", { text: "Possible lasting updates" }), el("ul", {}, ...lasting)] : []));
  });
}

async function backfill(node, path, action) {
  const form = node.querySelector("form.backfill");
  const message = node.querySelector(".backfill-message");
  const preview = node.querySelector(".backfill-preview");
  const notes = form.elements.path.value.trim();
  const stage = form.elements.stage.checked;
  if (action === "rollback" && !window.confirm(`Remove every backfill entry from ${path}?`)) return;
  try {
    const body = { workspace: path, action, stage };
    if (action !== "rollback") body.path = notes;
    const result = await api("/v1/backfill", { method: "POST", body });
    message.className = "backfill-message message ok";
    if (action === "preview") {
      message.textContent = `Preview of ${result.sourceFiles.length} notes from ${result.sourcePath}; nothing was written.`;
      preview.replaceChildren(...previewFiles(result));
    } else if (action === "write") {
      const staged = stage ? `, staged ${result.stagedShortTermEntries} grounded rows` : "";
      message.textContent = `Wrote ${result.writtenEntries} backfill entries${staged}.`;
      preview.replaceChildren();
    } else {
      message.textContent = `Removed ${result.removedEntries} backfill entries.`;
      preview.replaceChildren();
    }
    if (action !== "preview") await refresh();
  } catch (error) {
    message.className = "backfill-message message";
    message.textContent = refusal(error);
  }
}

async function start() {
  clearInterval(state.timer);
  await loadScopes();
  state.timer = setInterval(refresh, POLL_MS);
  refresh();
}

document.addEventListener("DOMContentLoaded", () => {
  foldForPhone();
  $("#token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $("#token").value.trim());
    $("#token").value = "";
    setConnection("Loading…", false);
    start();
  });
  $("#forget").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    clearInterval(state.timer);
    $("#main").hidden = true;
    setConnection("Token forgotten. Enter an API token to load the dreams.", false);
  });
  $("#toggle").addEventListener("click", toggle);
  $("#ws-filter").addEventListener("input", (event) => {
    state.filter = event.target.value;
    if (state.status) renderTable();
  });
  for (const th of document.querySelectorAll("#ws-table th[data-key]")) {
    th.querySelector("button").addEventListener("click", () => {
      const key = th.dataset.key;
      const direction = state.sort.key === key ? -state.sort.direction : NUMERIC.has(key) ? -1 : 1;
      state.sort = { key, direction };
      if (state.status) renderTable();
    });
  }
  const body = $("#ws-table tbody");
  body.addEventListener("click", (event) => {
    const tr = event.target.closest("tr");
    if (tr) choose(tr.dataset.workspace);
  });
  body.addEventListener("keydown", (event) => {
    const tr = event.target.closest("tr");
    if (tr && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      choose(tr.dataset.workspace);
    }
  });
  if (sessionStorage.getItem(TOKEN_KEY)) start();
});
