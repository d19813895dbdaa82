// Kenning dashboard: a hash-routed one-page app over the JSON API (/api/openapi.json).
// Plain DOM building with textContent only: memory text is never parsed as HTML.
import { GraphView } from "./graph.js";

const main = document.getElementById("main");
const announcer = document.getElementById("announcer");
const state = { status: null, graph: null };

// -- small helpers --------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code;
  }
}

async function api(path, options = {}) {
  const init = { method: options.method || "GET", headers: { Accept: "application/json" } };
  if (options.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  const response = await fetch(path, init);
  let body = null;
  try { body = await response.json(); } catch (_) { body = null; }
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== "") search.set(key, value);
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

function announce(text) {
  announcer.textContent = "";
  window.setTimeout(() => { announcer.textContent = text; }, 30);
}

function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 16).replace("T", " ");
}

function pct(x, digits = 0) { return `${(100 * x).toFixed(digits)}%`; }

function memoryLink(m) {
  if (!m) return el("span", { class: "muted", text: "(deleted)" });
  return el("a", { href: `#/memory/${encodeURIComponent(m.id)}`, text: m.summary || m.id });
}

function badge(text, kind) {
  return el("span", { class: `badge ${kind || ""}`.trim(), text });
}

function driftBadge(m) {
  const drift = m && (m.drift || (m.stale ? (m.obsolete ? "obsolete" : "stale") : null));
  return drift ? badge(`code ${drift}`, `drift-${drift}`) : null;
}

function outcomeBadge(m) {
  return m && m.outcome ? badge(m.outcome, `outcome-${m.outcome}`) : null;
}

function confidenceMeter(value, label) {
  return el("span", { class: "conf" },
    el("meter", { min: "0", max: "1", value: String(value), "aria-label": label || "confidence" }),
    el("span", { class: "num", text: Number(value).toFixed(2) }));
}

function panel(title, ...children) {
  return el("section", { class: "panel", "aria-label": title }, el("h2", { text: title }),
    ...children);
}

function notice(text, kind = "info") {
  return el("div", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "note" }, text);
}

function unavailablePanel(body) {
  return el("div", { class: "notice unavailable", role: "note" },
    el("strong", { text: "Not available yet. " }), body.message);
}

function readOnly() { return !state.status || state.status.read_only; }

// A button for a write route: disabled with the reason when the server is read-only.
function writeButton(label, onclick, extra = {}) {
  const attrs = { type: "button", class: "btn write", onclick, ...extra };
  if (readOnly()) {
    attrs.disabled = true;
    attrs["aria-describedby"] = "read-only-note";
    attrs.title = "Read-only: restart with kenning serve --allow-writes";
  }
  return el("button", attrs, label);
}

function readOnlyNote() {
  return readOnly()
    ? el("p", { id: "read-only-note", class: "notice info" },
      "Actions are disabled: this dashboard is read-only. Restart it with ",
      el("code", { text: "kenning serve --allow-writes" }), " to act on recommendations, memories and links.")
    : null;
}

async function act(button, run, done) {
  button.disabled = true;
  try {
    const result = await run();
    announce("Done.");
    if (done) done(result);
  } catch (err) {
    button.disabled = false;
    button.after(notice(err.message, "error"));
  }
}

function heading(text, sub) {
  return [el("h1", { tabindex: "-1", id: "view-title", text }),
    sub ? el("p", { class: "sub", text: sub }) : null];
}

function setView(name, ...children) {
  main.replaceChildren(...children.flat().filter(Boolean));
  for (const link of document.querySelectorAll("nav a[data-view]")) {
    if (link.dataset.view === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const title = main.querySelector("h1");
  document.title = `${title ? title.textContent : name} · Kenning`;
}

function focusTitle() {
  const title = document.getElementById("view-title");
  if (title) title.focus({ preventScroll: false });
}

// -- memories --------------------------------------------------------------------------------

async function memoriesView(params) {
  const status = state.status;
  const types = (status && status.memory_types) || [];
  const field = (label, input) => el("div", { class: "field" },
    el("label", { for: input.id, text: label }), input);
  const select = (id, name, options, current) => el("select", { id, name },
    el("option", { value: "", text: "any" }),
    options.map((o) => el("option", { value: o, text: o, selected: o === current })));
  const form = el("form", { class: "filters", role: "search", "aria-label": "Search memories" },
    el("div", { class: "field grow" },
      el("label", { for: "q", text: "Search (hybrid recall)" }),
      el("input", { id: "q", name: "q", type: "search", value: params.get("q") || "",
        placeholder: "e.g. why did we pick JWT?", autocomplete: "off" })),
    field("Type", select("f-type", "type", types, params.get("type"))),
    field("Topic", el("input", { id: "f-topic", name: "topic", value: params.get("topic") || "",
      list: "topic-list", size: "14" })),
    field("Scope", select("f-scope", "scope", (status && status.scopes) || [],
      params.get("scope"))),
    field("Agent", el("input", { id: "f-agent", name: "agent", value: params.get("agent") || "",
      size: "10" })),
    field("Since", el("input", { id: "f-since", name: "since", type: "date",
      value: params.get("since") || "" })),
    field("Until", el("input", { id: "f-until", name: "until", type: "date",
      value: params.get("until") || "" })),
    el("div", { class: "field" }, el("span", { class: "label-spacer", "aria-hidden": "true" }),
      el("button", { type: "submit", class: "btn primary" }, "Search")),
    el("datalist", { id: "topic-list" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const next = {};
    for (const [key, value] of data.entries()) if (value) next[key] = value;
    location.hash = `#/memories${query(next)}`;
  });
  const results = el("div", { id: "results", "aria-live": "polite" }, el("p", { text: "Loading…" }));
  setView("memories", heading("Memories"), form, results);
  api("/api/topics?limit=300").then((t) => {
    form.querySelector("#topic-list").replaceChildren(
      ...t.items.map((x) => el("option", { value: x.topic })));
  }).catch(() => {});

  const request = {};
  for (const key of ["q", "type", "topic", "scope", "agent", "since", "until", "offset"]) {
    if (params.get(key)) request[key] = params.get(key);
  }
  request.limit = 50;
  let data;
  try {
    data = await api(`/api/memories${query(request)}`);
  } catch (err) {
    results.replaceChildren(notice(err.message, "error"));
    return;
  }
  const searching = Boolean(data.query);
  const rows = data.items.map((m) => el("tr", {},
    el("td", {}, memoryLink(m), " ", outcomeBadge(m), " ", driftBadge(m)),
    el("td", {}, badge(m.type, `type-${m.type}`)),
    el("td", { text: m.topic || "" }),
    el("td", { class: "num" }, confidenceMeter(m.confidence)),
    el("td", { class: "nowrap", text: when(m.created_at) }),
    searching ? el("td", { class: "num" }, el("details", {},
      el("summary", { text: m.score.toFixed(3) }),
      el("dl", { class: "explain" }, Object.entries(m.explain || {}).flatMap(([k, v]) => [
        el("dt", { text: k }), el("dd", { text: Number(v).toFixed(3) })])))) : null));
  const caption = searching
    ? `${data.items.length} best matches for “${data.query}”`
    : `${data.total} memories, newest first (showing ${data.offset + 1}–${data.offset + data.items.length})`;
  const table = el("table", { class: "data" }, el("caption", { text: caption }),
    el("thead", {}, el("tr", {}, ["Summary", "Type", "Topic", "Confidence", "Created",
      searching ? "Score" : null].filter(Boolean).map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, rows));
  const pager = [];
  if (!searching) {
    const offset = data.offset;
    const go = (to) => { const next = Object.fromEntries(params); next.offset = to; location.hash = `#/memories${query(next)}`; };
    if (offset > 0) pager.push(el("button", { type: "button", class: "btn", onclick: () => go(Math.max(0, offset - 50)) }, "← Newer"));
    if (offset + data.items.length < data.total) pager.push(el("button", { type: "button", class: "btn", onclick: () => go(offset + 50) }, "Older →"));
  }
  results.replaceChildren(data.items.length ? table : notice("No memories match."),
    el("div", { class: "pager" }, pager));
  announce(caption);
}

// -- one memory ------------------------------------------------------------------------------

function timeline(items, currentId) {
  if (!items.length) return notice("No decisions on this topic yet.");
  const known = new Map(items.map((entry) => [entry.memory.id, entry.memory.summary]));
  return el("ol", { class: "timeline" }, items.map((entry) => {
    const m = entry.memory;
    return el("li", { class: m.id === currentId ? "current" : "" },
      el("div", { class: "when", text: when(m.created_at) }),
      el("div", { class: "what" }, memoryLink(m), " ", badge(m.type, `type-${m.type}`), " ",
        outcomeBadge(m), " ", confidenceMeter(m.confidence),
        m.outcome_reason ? el("p", { class: "reason", text: `Outcome: ${m.outcome_reason}` }) : null,
        entry.evolves.length ? el("ul", { class: "evolves" }, entry.evolves.map((e) =>
          el("li", {}, el("span", { class: "rel", text: e.relationship.replaceAll("_", " ") }), " ",
            el("a", { href: `#/memory/${encodeURIComponent(e.target)}`, text: known.get(e.target) || e.target.slice(0, 10) }),
            e.reason ? ` — ${e.reason}` : ""))) : null,
        entry.outcomes.length ? el("div", { class: "outcomes" }, el("strong", { text: "Outcomes: " }),
          entry.outcomes.map((o) => el("span", { class: "outcome-item" }, memoryLink(o), " ", outcomeBadge(o)))) : null,
        entry.implementations.length ? el("div", { class: "impls" }, el("strong", { text: "Implemented by: " }),
          entry.implementations.map((o) => el("span", { class: "outcome-item" }, memoryLink(o)))) : null));
  }));
}

function linkActions(link, onChange) {
  const down = writeButton("Down-vote", (event) => act(event.currentTarget,
    () => api(`/api/links/${encodeURIComponent(link.id)}/downvote`, { method: "POST", body: { step: 0.2 } }),
    onChange), { "aria-label": `Down-vote link ${link.relationship}` });
  const del = writeButton("Delete", (event) => {
    if (!window.confirm(`Delete the link “${link.relationship}”?`)) return;
    act(event.currentTarget, () => api(`/api/links/${encodeURIComponent(link.id)}`, { method: "DELETE" }), onChange);
  }, { "aria-label": `Delete link ${link.relationship}`, class: "btn write danger" });
  return el("span", { class: "actions" }, down, del);
}

async function memoryView(id) {
  setView("memories", el("p", { text: "Loading…" }));
  let data;
  try {
    data = await api(`/api/memories/${encodeURIComponent(id)}`);
  } catch (err) {
    setView("memories", heading("Memory"), notice(err.message, "error"));
    focusTitle();
    return;
  }
  const m = data.memory;
  const reload = () => memoryView(id);
  const facts = el("dl", { class: "facts" }, [
    ["Id", m.id], ["Type", m.type], ["Topic", m.topic || "—"], ["Category", m.category],
    ["Scope", m.scope], ["Agent", m.agent || "—"], ["Source", m.source || "—"],
    ["Tags", m.tags.join(", ") || "—"], ["Created", when(m.created_at)],
    ["Updated", when(m.updated_at)], ["Recalled", `${m.access_count} times`],
  ].flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })]),
  el("dt", { text: "Confidence" }), el("dd", {}, confidenceMeter(m.confidence)),
  el("dt", { text: "Outcome" }), el("dd", {}, m.outcome ? [outcomeBadge(m), " ", m.outcome_reason || ""] : "—"),
  el("dt", { text: "Code" }), el("dd", {}, m.stale ? [driftBadge(m), " changed since: ", m.stale_reason || ""] : "unchanged since recorded (or not anchored)"));

  const history = data.confidence_history.available
    ? (data.confidence_history.items.length
      ? el("table", { class: "data" }, el("caption", { text: "Confidence over time" }),
        el("thead", {}, el("tr", {}, ["When", "Confidence", "Why"].map((h) => el("th", { scope: "col", text: h })))),
        el("tbody", {}, data.confidence_history.items.map((h) => el("tr", {},
          el("td", { class: "nowrap", text: when(h.at) }), el("td", {}, confidenceMeter(h.confidence)),
          el("td", { text: h.reason || "" })))))
      : notice("No confidence changes recorded."))
    : unavailablePanel(data.confidence_history);

  const linkRows = (dir) => data.links.filter((l) => l.direction === dir).map((l) => el("tr", {},
    el("td", {}, el("span", { class: `rel core-${l.link_type}`, text: l.relationship.replaceAll("_", " ") })),
    el("td", {}, memoryLink(l.other)),
    el("td", { text: l.link_type }),
    el("td", {}, confidenceMeter(l.confidence, `link confidence ${l.confidence}`)),
    el("td", { text: l.reason || "" }),
    el("td", { text: l.created_by }),
    el("td", {}, linkActions(l, reload))));
  const linkTable = (dir, title) => {
    const rows = linkRows(dir);
    return rows.length ? el("table", { class: "data" }, el("caption", { text: title }),
      el("thead", {}, el("tr", {}, ["Relationship", "Memory", "Core type", "Confidence", "Reason",
        "By", "Actions"].map((h) => el("th", { scope: "col", text: h })))), el("tbody", {}, rows))
      : el("p", { class: "muted", text: `${title}: none.` });
  };
  const forget = writeButton("Forget this memory", (event) => {
    if (!window.confirm("Forget this memory and its links? This cannot be undone.")) return;
    act(event.currentTarget, () => api(`/api/memories/${encodeURIComponent(m.id)}`, { method: "DELETE" }),
      () => { location.hash = "#/memories"; });
  }, { class: "btn write danger" });

  setView("memories",
    el("p", { class: "crumbs" }, el("a", { href: "#/memories", text: "← Memories" }), " · ",
      el("a", { href: `#/graph?focus=${encodeURIComponent(m.id)}`, text: "Show in graph" }),
      m.topic ? [" · ", el("a", { href: `#/timeline?topic=${encodeURIComponent(m.topic)}`, text: "Topic timeline" })] : null),
    heading(m.summary),
    el("div", { class: "grid2" },
      panel("Content", el("pre", { class: "content", text: m.content })),
      panel("Details", facts, readOnlyNote(), el("p", {}, forget))),
    panel("Confidence history", history),
    panel(`Links (${data.links.length})`, linkTable("out", "Links out"), linkTable("in", "Links in")),
    panel("Why: the topic's decisions", m.topic ? timeline(data.why, m.id) : notice("This memory has no topic.")),
    panel("Impact: what happened after", data.impact.length
      ? el("ul", { class: "plain" }, data.impact.map((x) => el("li", {}, memoryLink(x), " ",
        el("span", { class: "muted", text: `via ${x.via || "?"}, depth ${x.depth}, path confidence ${x.confidence.toFixed(2)}` }))))
      : notice("Nothing later is linked to this memory.")));
  focusTitle();
}

// -- graph -----------------------------------------------------------------------------------

let graphView = null;

async function graphPage(params) {
  const canvasWrap = el("div", { class: "graph-wrap" });
  const info = el("aside", { class: "graph-info", "aria-label": "Selected memory", "aria-live": "polite" },
    el("p", { class: "muted", text: "Click a node (or press Tab into the graph and use the arrow keys) to focus its neighbourhood." }));
  const legend = el("div", { class: "legend", "aria-label": "Legend" });
  const focusForm = el("form", { class: "inline", "aria-label": "Focus a memory" },
    el("label", { for: "focus-id", text: "Focus memory id" }),
    el("input", { id: "focus-id", name: "focus", size: "28", value: params.get("focus") || "" }),
    el("button", { type: "submit", class: "btn" }, "Focus"));
  const controls = el("div", { class: "toolbar", role: "toolbar", "aria-label": "Graph controls" },
    el("button", { type: "button", class: "btn", id: "zoom-in", "aria-label": "Zoom in" }, "+"),
    el("button", { type: "button", class: "btn", id: "zoom-out", "aria-label": "Zoom out" }, "−"),
    el("button", { type: "button", class: "btn", id: "zoom-fit" }, "Fit"),
    el("button", { type: "button", class: "btn", id: "clear-focus" }, "Clear focus"),
    focusForm);
  const meta = el("p", { class: "sub", id: "graph-meta", text: "Loading the graph…" });
  setView("graph", heading("Graph"), meta, controls, el("div", { class: "graph-layout" }, canvasWrap, el("div", {}, info, legend)));
  let data;
  try {
    const t0 = performance.now();
    data = state.graph || await api("/api/graph");
    state.graph = data;
    state.graphFetchMs = performance.now() - t0;
  } catch (err) {
    meta.replaceChildren(notice(err.message, "error"));
    return;
  }
  if (graphView) graphView.destroy();
  graphView = new GraphView(canvasWrap, data, {
    onSelect: (index, neighbours) => showNode(info, data, index, neighbours),
  });
  controls.querySelector("#zoom-in").addEventListener("click", () => graphView.zoomBy(1.4));
  controls.querySelector("#zoom-out").addEventListener("click", () => graphView.zoomBy(1 / 1.4));
  controls.querySelector("#zoom-fit").addEventListener("click", () => graphView.fit());
  controls.querySelector("#clear-focus").addEventListener("click", () => graphView.select(-1));
  focusForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = focusForm.querySelector("input").value.trim().toUpperCase();
    const index = data.nodes.id.findIndex((mid) => mid === value || (value.length >= 6 && mid.startsWith(value)));
    if (index < 0) announce("No memory with that id in the graph.");
    else graphView.select(index, true);
  });
  legend.replaceChildren(...graphView.legend().map((item) => el("div", { class: "legend-item" },
    el("span", { class: `swatch ${item.kind}`, "data-color": item.color }), item.label)));
  for (const swatch of legend.querySelectorAll(".swatch")) swatch.style.background = swatch.dataset.color;
  meta.textContent = `${data.count} memories, ${data.edge_count} links · node size: PageRank · colour: community · edge colour: core link type` +
    (data.scores_from === "computed" ? " · (scores computed now; run kenning consolidate to store them)" : "");
  const focus = params.get("focus");
  if (focus) {
    const index = data.nodes.id.indexOf(focus);
    if (index >= 0) graphView.select(index, true);
  }
}

function showNode(info, data, index, neighbours) {
  if (index < 0) {
    info.replaceChildren(el("p", { class: "muted", text: "No memory selected." }));
    return;
  }
  const n = data.nodes;
  info.replaceChildren(
    el("h2", { text: n.label[index] || n.id[index] }),
    el("p", {}, badge(data.types[n.type[index]] || "?", ""), " ", n.topic[index] ? badge(n.topic[index], "topic") : null),
    el("p", { class: "muted", text: `PageRank ${n.rank[index].toFixed(3)} · community ${n.community[index]} · ${n.degree[index]} links` }),
    el("p", {}, el("a", { href: `#/memory/${encodeURIComponent(n.id[index])}`, text: "Open this memory" })),
    neighbours.length ? el("div", {}, el("h3", { text: `Neighbours (${neighbours.length})` }),
      el("ul", { class: "plain neighbours" }, neighbours.slice(0, 30).map((j) => el("li", {},
        el("button", { type: "button", class: "linklike", onclick: () => graphView.select(j, true) }, n.label[j] || n.id[j])))))
      : el("p", { class: "muted", text: "No links." }));
}

// -- topic timeline --------------------------------------------------------------------------

async function timelineView(params) {
  const topic = params.get("topic") || "";
  const form = el("form", { class: "inline", role: "search", "aria-label": "Choose a topic" },
    el("label", { for: "topic", text: "Topic" }),
    el("input", { id: "topic", name: "topic", value: topic, list: "timeline-topics", size: "30" }),
    el("datalist", { id: "timeline-topics" }),
    el("button", { type: "submit", class: "btn primary" }, "Show"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = `#/timeline${query({ topic: form.querySelector("input").value.trim() })}`;
  });
  const out = el("div", { id: "timeline-out" });
  setView("timeline", heading("Topic timeline", "“Why did we decide X?”: a topic's decisions, newest first, with how they evolved and turned out."), form, out);
  let topics = [];
  try { topics = (await api("/api/topics?limit=500")).items; } catch (_) { topics = []; }
  form.querySelector("datalist").replaceChildren(...topics.map((t) => el("option", { value: t.topic })));
  if (!topic) {
    const withDecisions = topics.filter((t) => t.decisions > 0).slice(0, 40);
    out.replaceChildren(withDecisions.length
      ? panel("Topics with decisions", el("ul", { class: "chips" }, withDecisions.map((t) => el("li", {},
        el("a", { href: `#/timeline${query({ topic: t.topic })}`, text: `${t.topic} (${t.decisions})` })))))
      : notice("No decisions recorded yet."));
    return;
  }
  try {
    const data = await api(`/api/why${query({ topic })}`);
    out.replaceChildren(panel(`${topic}: ${data.items.length} decisions`, timeline(data.items)));
    announce(`${data.items.length} decisions on ${topic}`);
  } catch (err) {
    out.replaceChildren(notice(err.message, "error"));
  }
}

// -- health ----------------------------------------------------------------------------------

function metric(label, value, hint) {
  return el("div", { class: "metric" }, el("div", { class: "value", text: value }),
    el("div", { class: "label", text: label }), hint ? el("div", { class: "hint", text: hint }) : null);
}

async function healthView() {
  setView("health", heading("Graph health"), el("p", { text: "Loading…" }));
  let data;
  try { data = await api("/api/health"); } catch (err) {
    setView("health", heading("Graph health"), notice(err.message, "error"));
    return;
  }
  const h = data.health;
  const s = data.stats;
  const recs = data.recommendations.map((r) => {
    const item = el("li", {}, el("span", { text: r.text }), " ");
    if (r.action === "merge") {
      item.append(writeButton(`Merge “${r.word}” into “${r.into}”`, (event) => act(event.currentTarget,
        () => api("/api/relationships/merge", { method: "POST", body: { word: r.word, into: r.into } }),
        (res) => { item.append(el("span", { class: "ok", text: ` merged ${res.moved} links` })); state.graph = null; })));
    } else if (r.action === "review_links") {
      const box = el("div", { class: "word-links" });
      item.append(el("button", { type: "button", class: "btn", onclick: async () => {
        const res = await api(`/api/relationships/${encodeURIComponent(r.word)}/links`);
        box.replaceChildren(res.items.length ? el("ul", { class: "plain" }, res.items.map((l) => el("li", {},
          el("a", { href: `#/memory/${encodeURIComponent(l.from_id)}`, text: l.from_id.slice(0, 10) }), ` ${l.relationship} `,
          el("a", { href: `#/memory/${encodeURIComponent(l.to_id)}`, text: l.to_id.slice(0, 10) }), " ",
          confidenceMeter(l.confidence), " ", linkActions(l, () => healthView()))))
          : notice("No links use this word any more."));
      } }, `Review links said “${r.word}”`), box);
    }
    return item;
  });
  setView("health", heading("Graph health", `Graph computed ${s.graph_computed_at ? when(s.graph_computed_at) : "never (run kenning consolidate)"}`),
    el("div", { class: "metrics" },
      metric("Connectivity", pct(h.connectivity, 1), "share of memories with at least one link"),
      metric("Memories", String(h.node_count)), metric("Links", String(h.edge_count)),
      metric("Components", String(h.component_count), `largest: ${h.largest_component}`),
      metric("Isolated memories", String(h.isolated_count)),
      metric("Orphan relationships", String(h.orphaned_relationships.length), "words used once"),
      metric("Relationship words", String(h.relationship_diversity)),
      metric("Canonical coverage", pct(h.canonical_coverage, 0)),
      metric("Link storage", pct(h.link_storage_share, 1), "of the store file"),
      metric("Communities", String(s.communities))),
    panel("Recommendations", readOnlyNote(), recs.length ? el("ul", { class: "recs" }, recs) : notice("Nothing to do: the graph looks healthy.")),
    el("div", { class: "grid2" },
      panel("Links by core type", el("table", { class: "data" },
        el("tbody", {}, Object.entries(s.by_core_type || {}).map(([k, v]) => el("tr", {},
          el("th", { scope: "row" }, el("span", { class: `rel core-${k}`, text: k })), el("td", { class: "num", text: String(v) })))))),
      panel("Orphan relationship words", h.orphaned_relationships.length
        ? el("ul", { class: "chips" }, h.orphaned_relationships.slice(0, 60).map((w) => el("li", { text: w })))
        : notice("None."))),
    el("div", { class: "grid2" },
      panel("Most central memories", el("ol", { class: "plain" }, data.top.map((m) => el("li", {}, memoryLink(m), " ",
        el("span", { class: "muted", text: `rank ${m.rank.toFixed(3)}, community ${m.community}` }))))),
      panel(`Isolated memories (${h.isolated_count})`, data.isolated.length
        ? el("ul", { class: "plain" }, data.isolated.map((m) => el("li", {}, memoryLink(m))))
        : notice("None: every memory has a link."))),
    panel("Largest communities", el("ul", { class: "plain" }, data.communities.map((c) => el("li", {},
      `#${c.community}: ${c.size} memories`, c.topics.length ? ` — ${c.topics.join(", ")}` : "")))));
  focusTitle();
}

// -- stale code ------------------------------------------------------------------------------

async function staleView() {
  const title = () => heading("Stale code", "Memories whose code changed (stale) or went (obsolete) since they were recorded, as of the last check (`kenning stale` checks again).");
  setView("stale", title(), el("p", { text: "Loading…" }));
  let data;
  try { data = await api("/api/stale?limit=500"); } catch (err) {
    main.append(notice(err.message, "error"));
    return;
  }
  const body = !data.items.length ? notice("No memory's code has changed since it was recorded.")
    : el("table", { class: "data stale" }, el("caption", { text: `${data.total} memories` }),
      el("thead", {}, el("tr", {}, ["Memory", "State", "Code changed since", "Anchored to"].map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, data.items.map((m) => el("tr", {},
        el("td", {}, memoryLink(m)),
        el("td", { text: m.obsolete ? "obsolete" : "stale" }),
        el("td", { text: m.stale_reason || "" }),
        el("td", { text: m.anchors.map((a) => a.symbol ? `${a.path}:${a.symbol} (${a.state})` : `${a.path} (${a.state})`).join(", ") })))));
  setView("stale", title(), body);
  focusTitle();
}

// -- injected --------------------------------------------------------------------------------

async function injectedView() {
  setView("injected", heading("Injected", "What Kenning put into recent prompts, and why (the score's parts)."), el("p", { text: "Loading…" }));
  let data;
  try { data = await api("/api/injections?limit=50"); } catch (err) {
    main.append(notice(err.message, "error"));
    return;
  }
  const body = !data.available ? unavailablePanel(data) : !data.items.length ? notice("Nothing injected yet.")
    : el("ol", { class: "injections" }, data.items.map((inj) => el("li", { class: "panel" },
      el("h2", { text: `${when(inj.at)} · ${inj.event}` }),
      el("p", { class: "muted", text: `session ${inj.session_id || "?"}` }),
      inj.prompt ? el("blockquote", { text: inj.prompt }) : null,
      inj.memories.length ? el("table", { class: "data" }, el("caption", { text: `${inj.memories.length} memories injected` }),
        el("thead", {}, el("tr", {}, ["Memory", "Score", "Why (parts)", "Used"].map((h) => el("th", { scope: "col", text: h })))),
        el("tbody", {}, inj.memories.map((m) => el("tr", {},
          el("td", {}, memoryLink(m), m.seen_before ? el("span", { class: "muted", text: " (already in the conversation)" }) : null),
          el("td", { class: "num", text: Number(m.score).toFixed(3) }),
          el("td", {}, el("span", { class: "parts", text: Object.entries(m.parts || {}).map(([k, v]) => `${k} ${Number(v).toFixed(2)}`).join(" · ") })),
          el("td", { class: "num use", text: `${m.used_sessions ?? 0} of ${m.shown_sessions ?? 0} sessions` })))))
        : notice("No memories were injected."))));
  setView("injected", heading("Injected", "What Kenning put into recent prompts, and why (the score's parts)."), body);
  focusTitle();
}

// -- MEMORY.md -------------------------------------------------------------------------------

async function memoryMdView() {
  setView("memory-md", heading("MEMORY.md preview"), el("p", { text: "Loading…" }));
  let data;
  try { data = await api("/api/memory-md"); } catch (err) {
    main.append(notice(err.message, "error"));
    return;
  }
  if (!data.available) {
    setView("memory-md", heading("MEMORY.md preview"), unavailablePanel(data));
    focusTitle();
    return;
  }
  const lines = data.text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  let bytes = 0;
  const encoder = new TextEncoder();
  const rows = lines.map((line, i) => {
    bytes += encoder.encode(line).length + 1;
    const cut = i + 1 > data.max_lines || bytes > data.max_bytes;
    return el("div", { class: cut ? "line cut" : "line" },
      el("span", { class: "ln", "aria-hidden": "true", text: String(i + 1) }), el("span", { text: line }));
  });
  const over = data.lines > data.max_lines || data.bytes > data.max_bytes;
  setView("memory-md", heading("MEMORY.md preview", "Exactly what Claude Code loads at session start."),
    el("p", {}, el("code", { text: data.path })),
    el("div", { class: "metrics" },
      el("div", { class: "metric" }, el("div", { class: "value", text: `${data.lines} / ${data.max_lines}` }),
        el("div", { class: "label", text: "lines" }),
        el("meter", { min: "0", max: String(data.max_lines), value: String(data.lines), high: String(data.max_lines * 0.9), "aria-label": "lines used" })),
      el("div", { class: "metric" }, el("div", { class: "value", text: `${data.bytes.toLocaleString()} / ${data.max_bytes.toLocaleString()}` }),
        el("div", { class: "label", text: "bytes" }),
        el("meter", { min: "0", max: String(data.max_bytes), value: String(data.bytes), high: String(data.max_bytes * 0.9), "aria-label": "bytes used" }))),
    over ? notice("Over the limit: Claude Code will not read the struck-through lines.", "error") : notice("Within Claude Code's limits."),
    rows.length ? el("div", { class: "md-preview", role: "region", "aria-label": "MEMORY.md text", tabindex: "0" }, rows)
      : notice("MEMORY.md would be empty: no memory qualifies for it yet."));
  focusTitle();
}

// -- router ----------------------------------------------------------------------------------

async function route() {
  const hash = location.hash || "#/memories";
  const [path, search] = hash.slice(1).split("?");
  const params = new URLSearchParams(search || "");
  const parts = path.split("/").filter(Boolean);
  if (graphView && parts[0] !== "graph") { graphView.destroy(); graphView = null; }
  try {
    switch (parts[0]) {
      case "memory": await memoryView(decodeURIComponent(parts[1] || "")); break;
      case "graph": await graphPage(params); break;
      case "timeline": await timelineView(params); break;
      case "health": await healthView(); break;
      case "injected": await injectedView(); break;
      case "stale": await staleView(); break;
      case "memory-md": await memoryMdView(); break;
      default: await memoriesView(params);
    }
  } catch (err) {
    main.replaceChildren(notice(`Something went wrong: ${err.message}`, "error"));
  }
}

async function start() {
  try {
    state.status = await api("/api/status");
  } catch (err) {
    main.replaceChildren(notice(`Cannot reach the Kenning server: ${err.message}`, "error"));
    return;
  }
  const mode = document.getElementById("server-mode");
  mode.textContent = `${state.status.project} · ${state.status.memories} memories · ${state.status.read_only ? "read-only" : "writes allowed"}`;
  mode.classList.add(state.status.read_only ? "ro" : "rw");
  window.addEventListener("hashchange", () => { route(); });
  await route();
  document.body.dataset.ready = "1";
}

start();
