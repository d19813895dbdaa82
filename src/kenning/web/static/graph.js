// The memory graph on a canvas. Positions come laid out from the server; this file only draws:
// edges batched into one path per core link type, nodes into one path per colour, redrawn on
// demand (pan, zoom, hover, selection), so thousands of nodes stay smooth.

const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#e15759", "#76b7b2", "#edc948",
  "#9c755f", "#ff9da7", "#86bcb6", "#8cd17d", "#d4a6c8"];
const EDGE_COLORS = { evolution: "#d64545", implementation: "#2f9e44", association: "#8a94a6",
  temporal: "#e8890c" };
const UNSCORED = "#9aa0a6";

export class GraphView {
  constructor(container, data, options = {}) {
    this.data = data;
    this.onSelect = options.onSelect || (() => {});
    this.n = data.count;
    const nodes = data.nodes;
    this.x = Float32Array.from(nodes.x);
    this.y = Float32Array.from(nodes.y);
    this.r = Float32Array.from(nodes.rank, (v) => 1.8 + 5.5 * Math.sqrt(Math.max(0, v)));
    this.order = Array.from({ length: this.n }, (_, i) => i).sort((a, b) => nodes.rank[b] - nodes.rank[a]);
    // Nodes bucketed by colour, edges by core type: one canvas path each.
    this.colorOf = new Uint8Array(this.n);
    const buckets = PALETTE.map(() => []);
    const unscored = [];
    for (let i = 0; i < this.n; i += 1) {
      const c = nodes.community[i];
      if (c < 0) { unscored.push(i); this.colorOf[i] = 255; continue; }
      this.colorOf[i] = c % PALETTE.length;
      buckets[c % PALETTE.length].push(i);
    }
    this.buckets = buckets.map((idx, k) => ({ color: PALETTE[k], idx: Int32Array.from(idx) }));
    if (unscored.length) this.buckets.push({ color: UNSCORED, idx: Int32Array.from(unscored) });
    const edges = data.edges;
    this.edgeBuckets = data.core_types.map((type, t) => {
      const pairs = [];
      for (let e = 0; e < edges.source.length; e += 1) {
        if (edges.type[e] === t) pairs.push(edges.source[e], edges.target[e]);
      }
      return { type, color: EDGE_COLORS[type] || "#888", pairs: Int32Array.from(pairs) };
    });
    // Adjacency (CSR) for neighbourhood focus.
    const degree = new Int32Array(this.n + 1);
    for (let e = 0; e < edges.source.length; e += 1) { degree[edges.source[e] + 1] += 1; degree[edges.target[e] + 1] += 1; }
    for (let i = 0; i < this.n; i += 1) degree[i + 1] += degree[i];
    this.adjStart = degree;
    this.adj = new Int32Array(degree[this.n]);
    const fill = degree.slice(0, this.n);
    for (let e = 0; e < edges.source.length; e += 1) {
      const a = edges.source[e]; const b = edges.target[e];
      this.adj[fill[a]++] = b; this.adj[fill[b]++] = a;
    }
    this.selected = -1;
    this.hover = -1;
    this.near = null;
    this.scale = 1; this.tx = 0; this.ty = 0;
    this.frame = 0;
    this.firstDrawn = false;

    this.canvas = document.createElement("canvas");
    this.canvas.id = "graph-canvas";
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute("role", "application");
    this.canvas.setAttribute("aria-roledescription", "memory graph");
    this.canvas.setAttribute("aria-label", `Memory graph of ${this.n} memories. Arrow keys pan, + and - zoom, 0 fits, N and P select the next or previous memory by PageRank, Enter opens the selected memory, Escape clears the focus.`);
    this.tip = document.createElement("div");
    this.tip.className = "graph-tip";
    this.tip.hidden = true;
    container.replaceChildren(this.canvas, this.tip);
    this.ctx = this.canvas.getContext("2d", { alpha: false });
    this.listeners = [];
    this.bind();
    this.resize();
    this.fit();
    this.observer = new ResizeObserver(() => { this.resize(); this.request(); });
    this.observer.observe(container);
  }

  on(target, type, fn, opts) { target.addEventListener(type, fn, opts); this.listeners.push([target, type, fn, opts]); }

  destroy() {
    for (const [target, type, fn, opts] of this.listeners) target.removeEventListener(type, fn, opts);
    this.observer.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
  }

  resize() {
    const rect = this.canvas.parentElement.getBoundingClientRect();
    this.w = Math.max(200, rect.width);
    this.h = Math.max(300, rect.height);
    this.dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(this.w * this.dpr);
    this.canvas.height = Math.round(this.h * this.dpr);
    this.canvas.style.width = `${this.w}px`;
    this.canvas.style.height = `${this.h}px`;
  }

  fit() {
    if (!this.n) { this.request(); return; }
    let x0 = Infinity; let x1 = -Infinity; let y0 = Infinity; let y1 = -Infinity;
    for (let i = 0; i < this.n; i += 1) {
      x0 = Math.min(x0, this.x[i]); x1 = Math.max(x1, this.x[i]);
      y0 = Math.min(y0, this.y[i]); y1 = Math.max(y1, this.y[i]);
    }
    const pad = 30;
    this.scale = Math.min((this.w - 2 * pad) / Math.max(1, x1 - x0), (this.h - 2 * pad) / Math.max(1, y1 - y0), 4);
    this.tx = this.w / 2 - this.scale * (x0 + x1) / 2;
    this.ty = this.h / 2 - this.scale * (y0 + y1) / 2;
    this.request();
  }

  zoomBy(factor, sx = this.w / 2, sy = this.h / 2) {
    const next = Math.min(40, Math.max(0.02, this.scale * factor));
    const k = next / this.scale;
    this.tx = sx - k * (sx - this.tx);
    this.ty = sy - k * (sy - this.ty);
    this.scale = next;
    this.request();
  }

  panBy(dx, dy) { this.tx += dx; this.ty += dy; this.request(); }

  centreOn(i) {
    this.scale = Math.max(this.scale, 1.5);
    this.tx = this.w / 2 - this.scale * this.x[i];
    this.ty = this.h / 2 - this.scale * this.y[i];
  }

  neighbours(i) {
    const out = [];
    for (let p = this.adjStart[i]; p < this.adjStart[i + 1]; p += 1) if (!out.includes(this.adj[p])) out.push(this.adj[p]);
    return out;
  }

  select(i, centre = false) {
    this.selected = i;
    if (i < 0) { this.near = null; this.onSelect(-1, []); this.request(); return; }
    const first = this.neighbours(i);
    this.near = new Set([i, ...first]);
    for (const j of first) for (const k of this.neighbours(j)) this.near.add(k);
    this.first = new Set(first);
    if (centre) this.centreOn(i);
    this.onSelect(i, first);
    this.request();
  }

  pick(sx, sy) {
    const wx = (sx - this.tx) / this.scale;
    const wy = (sy - this.ty) / this.scale;
    let best = -1; let bestD = Infinity;
    const slack = 6 / this.scale;
    for (let i = 0; i < this.n; i += 1) {
      const dx = this.x[i] - wx; const dy = this.y[i] - wy;
      const d = dx * dx + dy * dy;
      const reach = this.r[i] + slack;
      if (d < reach * reach && d < bestD) { best = i; bestD = d; }
    }
    return best;
  }

  bind() {
    const c = this.canvas;
    let drag = null;
    this.on(c, "pointerdown", (e) => { drag = { x: e.clientX, y: e.clientY, moved: 0 }; c.setPointerCapture(e.pointerId); });
    this.on(c, "pointermove", (e) => {
      const rect = c.getBoundingClientRect();
      if (drag) {
        const dx = e.clientX - drag.x; const dy = e.clientY - drag.y;
        drag.moved += Math.abs(dx) + Math.abs(dy);
        drag.x = e.clientX; drag.y = e.clientY;
        this.panBy(dx, dy);
        return;
      }
      const i = this.pick(e.clientX - rect.left, e.clientY - rect.top);
      if (i !== this.hover) {
        this.hover = i;
        this.showTip(i, e.clientX - rect.left, e.clientY - rect.top);
        this.request();
      }
    });
    this.on(c, "pointerup", (e) => {
      if (drag && drag.moved < 5) {
        const rect = c.getBoundingClientRect();
        this.select(this.pick(e.clientX - rect.left, e.clientY - rect.top));
      }
      drag = null;
    });
    this.on(c, "pointerleave", () => { this.hover = -1; this.tip.hidden = true; this.request(); });
    this.on(c, "wheel", (e) => {
      e.preventDefault();
      const rect = c.getBoundingClientRect();
      this.zoomBy(Math.exp(-e.deltaY * 0.0015), e.clientX - rect.left, e.clientY - rect.top);
    }, { passive: false });
    this.on(c, "keydown", (e) => {
      const step = 60;
      const keys = {
        ArrowLeft: () => this.panBy(step, 0), ArrowRight: () => this.panBy(-step, 0),
        ArrowUp: () => this.panBy(0, step), ArrowDown: () => this.panBy(0, -step),
        "+": () => this.zoomBy(1.4), "=": () => this.zoomBy(1.4), "-": () => this.zoomBy(1 / 1.4),
        0: () => this.fit(), Escape: () => this.select(-1),
        n: () => this.step(1), N: () => this.step(1), p: () => this.step(-1), P: () => this.step(-1),
        Enter: () => { if (this.selected >= 0) location.hash = `#/memory/${encodeURIComponent(this.data.nodes.id[this.selected])}`; },
      };
      const run = keys[e.key];
      if (run) { e.preventDefault(); run(); }
    });
  }

  step(dir) {
    const at = this.selected < 0 ? -1 : this.order.indexOf(this.selected);
    const next = this.order[(at + dir + this.n) % this.n];
    if (next !== undefined) this.select(next, true);
  }

  showTip(i, sx, sy) {
    if (i < 0) { this.tip.hidden = true; return; }
    const nodes = this.data.nodes;
    this.tip.textContent = `${nodes.label[i] || nodes.id[i]}${nodes.topic[i] ? ` · ${nodes.topic[i]}` : ""}`;
    this.tip.style.left = `${Math.min(sx + 12, this.w - 260)}px`;
    this.tip.style.top = `${sy + 12}px`;
    this.tip.hidden = false;
  }

  legend() {
    return [
      ...this.edgeBuckets.map((b) => ({ kind: "edge", color: b.color, label: `${b.type} link (${b.pairs.length / 2})` })),
      { kind: "node", color: PALETTE[0], label: "memory: size = PageRank, colour = community" },
    ];
  }

  request() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
  }

  draw() {
    const t0 = performance.now();
    const ctx = this.ctx;
    const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = dark ? "#15181d" : "#fbfbfd";
    ctx.fillRect(0, 0, this.w, this.h);
    ctx.setTransform(this.dpr * this.scale, 0, 0, this.dpr * this.scale, this.dpr * this.tx, this.dpr * this.ty);
    const focus = this.near;
    const x = this.x; const y = this.y; const r = this.r;
    // Visible world rectangle, for culling nodes.
    const vx0 = -this.tx / this.scale - 20; const vy0 = -this.ty / this.scale - 20;
    const vx1 = (this.w - this.tx) / this.scale + 20; const vy1 = (this.h - this.ty) / this.scale + 20;
    ctx.lineWidth = Math.max(0.6, 1.1 / this.scale);
    for (const b of this.edgeBuckets) {
      const p = b.pairs;
      ctx.strokeStyle = b.color;
      ctx.globalAlpha = focus ? 0.08 : 0.45;
      ctx.beginPath();
      for (let e = 0; e < p.length; e += 2) { ctx.moveTo(x[p[e]], y[p[e]]); ctx.lineTo(x[p[e + 1]], y[p[e + 1]]); }
      ctx.stroke();
      if (focus) {
        ctx.globalAlpha = 0.95;
        ctx.lineWidth = Math.max(1.2, 2 / this.scale);
        ctx.beginPath();
        for (let e = 0; e < p.length; e += 2) {
          if (p[e] === this.selected || p[e + 1] === this.selected) { ctx.moveTo(x[p[e]], y[p[e]]); ctx.lineTo(x[p[e + 1]], y[p[e + 1]]); }
        }
        ctx.stroke();
        ctx.lineWidth = Math.max(0.6, 1.1 / this.scale);
      }
    }
    const TAU = Math.PI * 2;
    const minR = 1.3 / this.scale;  // every node stays visible when zoomed out
    for (const b of this.buckets) {
      ctx.fillStyle = b.color;
      for (const pass of focus ? [false, true] : [true]) {
        ctx.globalAlpha = pass ? 0.92 : 0.15;
        ctx.beginPath();
        for (const i of b.idx) {
          if (focus && focus.has(i) !== pass) continue;
          if (x[i] < vx0 || x[i] > vx1 || y[i] < vy0 || y[i] > vy1) continue;
          const ri = Math.max(r[i], minR);
          ctx.moveTo(x[i] + ri, y[i]);
          ctx.arc(x[i], y[i], ri, 0, TAU);
        }
        ctx.fill();
      }
    }
    ctx.globalAlpha = 1;
    for (const i of [this.selected, this.hover]) {
      if (i < 0) continue;
      ctx.strokeStyle = dark ? "#ffffff" : "#111111";
      ctx.lineWidth = 2.5 / this.scale;
      ctx.beginPath(); ctx.arc(x[i], y[i], r[i] + 3 / this.scale, 0, TAU); ctx.stroke();
    }
    // Labels once zoomed in far enough to read them.
    if (this.scale > 1.2) {
      ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
      ctx.font = "12px system-ui, sans-serif";
      ctx.fillStyle = dark ? "#e8eaed" : "#1f2328";
      let shown = 0;
      const taken = new Set();  // coarse cells already holding a label: no pile-ups
      for (const i of this.order) {
        if (shown > 150) break;
        const sx = x[i] * this.scale + this.tx; const sy = y[i] * this.scale + this.ty;
        if (sx < 0 || sx > this.w || sy < 0 || sy > this.h) continue;
        if (focus && !focus.has(i)) continue;
        const lx = sx + r[i] * this.scale + 3;
        const cells = [0, 1, 2].map((k) => `${Math.floor(lx / 90) + k},${Math.floor(sy / 16)}`);
        if (cells.some((c) => taken.has(c))) continue;
        for (const c of cells) taken.add(c);
        ctx.fillText((this.data.nodes.label[i] || "").slice(0, 40), lx, sy + 4);
        shown += 1;
      }
    }
    const drawMs = performance.now() - t0;
    if (!this.firstDrawn) {
      this.firstDrawn = true;
      const at = performance.now();
      window.kenningGraph = { renderedAtMs: at, firstDrawMs: drawMs, nodes: this.n, edges: this.data.edge_count };
      this.canvas.dataset.renderedMs = at.toFixed(1);
    }
    window.kenningGraphLastDrawMs = drawMs;
  }
}
