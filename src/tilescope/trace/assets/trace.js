// tilescope trace page: draws each array's cells from the embedded data, shows a block's
// footprint, steps through its loop iterations and names the source line of each access.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("trace-data").textContent);
  const RACE = 1, PADDING = 2, OOB = 4, UNWRITTEN = 8, ATOMIC = 16, SHARED = 32;
  const GOLDEN = 0.6180339887;
  const grid = D.grid;
  const state = { block: null, step: -1, marker: null };

  function bytes(b64) {
    const s = atob(b64), out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  function typed(b64, Kind) {
    const u8 = bytes(b64);
    return new Kind(u8.buffer, 0, u8.length / Kind.BYTES_PER_ELEMENT);
  }
  function ints(text) {                    // "u8:" or "u16:" before the base64: that width, else int32
    if (text.startsWith("u8:")) return bytes(text.slice(3));
    if (text.startsWith("u16:")) return typed(text.slice(4), Uint16Array);
    return typed(text, Int32Array);
  }
  function occurrences(occ, n) {           // "": every access in the first occurrence
    return occ === "" ? new Int32Array(n) : ints(occ);
  }
  function blockOf(lin) {
    return [lin % grid[0], Math.floor(lin / grid[0]) % grid[1], Math.floor(lin / (grid[0] * grid[1]))];
  }
  function linear(b) { return b[0] + grid[0] * (b[1] + grid[1] * b[2]); }
  function blockText(lin) { return "(" + blockOf(lin).join(", ") + ")"; }
  function rgb(block, light) {
    const h = (block * GOLDEN) % 1.0, out = [];
    for (const n of [5, 3, 1]) {
      const k = (n + h * 6) % 6;
      const v = (1 - 0.75 * Math.max(0, Math.min(Math.min(k, 4 - k), 1))) * 0.85;
      out.push(Math.floor(255 * (v * (1 - light) + light)));
    }
    return out;
  }
  function colour(A, s, i, y, x) {
    const f = A.flags[s][i], w = A.wblock[s][i], r = A.rblock[s][i];
    if (f & OOB) return [230, 20, 20];
    if (f & RACE) return [230, 0, 200];
    if (f & ATOMIC && w < 0) return [150, 120, 40];
    if (f & PADDING) return ((y + x) % 4 < 2) ? [205, 214, 226] : [236, 240, 245];
    if (f & UNWRITTEN) return [72, 82, 96];
    if (w >= 0) return rgb(w, 0.0);
    if (r >= 0 && (f & SHARED)) {
      const depth = Math.min(1, Math.max(0, Math.log2(1 + A.rcount[s][i]) / 8));
      const g = Math.floor(215 - 110 * depth);
      return [g, g, g];
    }
    if (r >= 0) return rgb(r, 0.6);
    return [255, 255, 255];
  }

  // ---- arrays ------------------------------------------------------------------------
  const arrays = D.arrays.map(function (a) {
    const n = a.slices.length, cells = a.rows * a.cols;
    function expand(runs, Kind) {          // {runs, values}: each value repeated its run's length
      const lengths = ints(runs.runs), values = typed(runs.values, Kind), out = new Kind(n * cells);
      for (let k = 0, at = 0; k < lengths.length; at += lengths[k], k++) out.fill(values[k], at, at + lengths[k]);
      return out;
    }
    function split(v, Kind, none) {       // "": nothing in this map (every cell `none`); else base64 or runs
      const all = v === "" ? new Kind(n * cells).fill(none) : typeof v === "object" ? expand(v, Kind) : typed(v, Kind);
      const parts = [];
      for (let s = 0; s < n; s++) parts.push(all.subarray(s * cells, (s + 1) * cells));
      return parts;
    }
    function blocks(b64) {                 // uint16 (65535: none) for grids that fit, else int32 (-1: none)
      if (!a.narrow || b64 === "") return split(b64, Int32Array, -1);
      return split(b64, Uint16Array).map(function (p) { return Int32Array.from(p, function (v) { return v === 65535 ? -1 : v; }); });
    }
    const wblock = blocks(a.wblock), rblock = blocks(a.rblock), flags = split(a.flags, Uint8Array, 0);
    function written(s, i) { return wblock[s][i] >= 0; }
    function read(s, i) { return rblock[s][i] >= 0; }
    function alike(v, Kind, none, accessed) {   // a number: that value at every cell accessed, `none` elsewhere
      if (typeof v !== "number") return split(v, Kind, none);
      return wblock.map(function (_, s) {
        const out = new Kind(cells).fill(none);
        for (let i = 0; i < cells; i++) if (accessed(s, i)) out[i] = v;
        return out;
      });
    }
    return Object.assign({}, a, {
      wblock: wblock, rblock: rblock, flags: flags,
      wcount: alike(a.wcount, Uint8Array, 0, written), rcount: alike(a.rcount, Uint8Array, 0, read),
      op: alike(a.op, a.op_narrow ? Int8Array : Int16Array, -1,
                function (s, i) { return written(s, i) || read(s, i) || (flags[s][i] & OOB) !== 0; }),
      tiles: a.tiles.reduce(function (done, t) {
        const index = t.index.map(function (x) {       // [r, k]: the same as tile record r's index k
          return Array.isArray(x) ? done[x[0]].index[x[1]] : ints(x);
        });
        const blocks = typeof t.blocks === "number" ? index[t.blocks] : ints(t.blocks);   // a number: that index
        const occ = typeof t.occ === "number" ? index[t.occ] : occurrences(t.occ, blocks.length);
        done.push(Object.assign({}, t, { blocks: blocks, occ: occ, index: index }));
        return done;
      }, []),
      lanes: a.lanes.map(function (l) {
        const blocks = ints(l.blocks);
        return Object.assign({}, l, { blocks: blocks, occ: occurrences(l.occ, blocks.length),
                                      coords: l.coords.map(ints) });
      }),
      canvases: [], marks: null
    });
  });

  // element coordinates (array axes) -> [slice, row, col] in cells, or null when not shown
  function cellOf(A, coords) {
    if (A.shape.length === 0) return [0, 0, 0];
    let s = 0, y, x;
    if (A.wrap) {
      y = Math.floor(coords[0] / A.wrap); x = coords[0] % A.wrap;
    } else {
      const lead = A.shape.slice(0, -2);
      for (let k = 0; k < lead.length; k++) {
        if (coords[k] < 0 || coords[k] >= lead[k]) return null;
        s = s * lead[k] + coords[k];
      }
      if (s >= A.slices.length) return null;
      y = coords[coords.length - 2]; x = coords[coords.length - 1];
    }
    const r = Math.floor(y / A.step[0]), c = Math.floor(x / A.step[1]);
    if (r < 0 || c < 0 || r >= A.rows || c >= A.cols) return null;
    return [s, r, c];
  }

  // The mark access `i` of a tile or lane record `rec` leaves: 0 none (another block, or a
  // later step of its loop), 1 another step, 2 this step.
  function stepMark(rec, i) {
    if (rec.blocks[i] !== state.block) return 0;
    const inLoop = D.ops[rec.op].loop;
    if (inLoop && state.step >= 0 && rec.occ[i] > state.step) return 0;
    return (state.step < 0 || (inLoop && rec.occ[i] === state.step)) ? 2 : 1;
  }

  // Marks of the selected block's accesses: 0 none, 1 another step, 2 this step.
  function footprint(A) {
    const cells = A.rows * A.cols, marks = A.slices.map(function () { return new Uint8Array(cells); });
    if (state.block === null) return null;
    let count = 0;
    function mark(s, r, c, v) {
      const i = r * A.cols + c;
      if (marks[s][i] < v) { if (marks[s][i] === 0) count++; marks[s][i] = v; }
    }
    for (const t of A.tiles) {
      for (let i = 0; i < t.blocks.length; i++) {
        const v = stepMark(t, i);
        if (!v) continue;
        const lo = new Array(A.shape.length).fill(0), hi = new Array(A.shape.length).fill(0);
        for (let k = 0; k < t.shape.length; k++) {
          const ax = t.order[k];
          lo[ax] = t.index[k][i] * t.shape[k];
          hi[ax] = lo[ax] + t.shape[k] - 1;
        }
        boxCells(A, lo, hi, function (s, r, c) { mark(s, r, c, v); });
      }
    }
    for (const l of A.lanes) {
      for (let i = 0; i < l.blocks.length; i++) {
        const v = stepMark(l, i);
        if (!v) continue;
        const cs = l.coords.map(function (x) { return x[i]; });
        const at = cellOf(A, cs);
        if (at) mark(at[0], at[1], at[2], v);
      }
    }
    A.footprintCount = count;
    return marks;
  }

  function boxCells(A, lo, hi, visit) {
    if (A.wrap) {
      const lo0 = Math.max(0, lo[0]), hi0 = Math.min(hi[0], A.rows * A.step[0] * A.wrap - 1);
      for (let y = Math.floor(lo0 / A.wrap); y <= Math.floor(hi0 / A.wrap); y++) {
        const x0 = y === Math.floor(lo0 / A.wrap) ? lo0 % A.wrap : 0;
        const x1 = y === Math.floor(hi0 / A.wrap) ? hi0 % A.wrap : A.wrap - 1;
        const r = Math.floor(y / A.step[0]);
        if (y % A.step[0] && y !== Math.floor(lo0 / A.wrap)) continue;      // one visit per cell row
        for (let c = Math.floor(x0 / A.step[1]); c <= Math.floor(x1 / A.step[1]); c++) visit(0, r, c);
      }
      return;
    }
    const nd = A.shape.length;
    if (nd === 0) { visit(0, 0, 0); return; }
    const lead = A.shape.slice(0, -2), rows = [lo[nd - 2], hi[nd - 2]], cols = [lo[nd - 1], hi[nd - 1]];
    const r0 = Math.max(0, Math.floor(rows[0] / A.step[0])), r1 = Math.min(A.rows - 1, Math.floor(rows[1] / A.step[0]));
    const c0 = Math.max(0, Math.floor(cols[0] / A.step[1])), c1 = Math.min(A.cols - 1, Math.floor(cols[1] / A.step[1]));
    const slices = [];
    (function walk(k, s) {
      if (k === lead.length) { if (s < A.slices.length) slices.push(s); return; }
      for (let j = Math.max(0, lo[k]); j <= Math.min(lead[k] - 1, hi[k]); j++) walk(k + 1, s * lead[k] + j);
    })(0, 0);
    for (const s of slices) for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) visit(s, r, c);
  }

  function scaleFor(A) {
    const room = Math.max(200, Math.min(1100, window.innerWidth - 520));
    return Math.max(1, Math.min(16, Math.floor(Math.min(512, room) / Math.max(A.rows, A.cols, 1)) || 1));
  }

  function draw(A) {
    const marks = footprint(A);
    A.slices.forEach(function (sl, s) {
      const canvas = A.canvases[s], k = scaleFor(A);
      canvas.width = A.cols * k; canvas.height = A.rows * k;
      const img = new ImageData(A.cols, A.rows);
      for (let y = 0, i = 0; y < A.rows; y++) {
        for (let x = 0; x < A.cols; x++, i++) {
          let c = colour(A, s, i, y, x);
          if (marks && marks[s][i] === 0) c = c.map(function (v) { return Math.floor(v * 0.25 + 255 * 0.75); });
          else if (marks && marks[s][i] === 1) c = c.map(function (v) { return Math.floor(v * 0.6 + 255 * 0.4); });
          img.data[4 * i] = c[0]; img.data[4 * i + 1] = c[1]; img.data[4 * i + 2] = c[2]; img.data[4 * i + 3] = 255;
        }
      }
      const off = document.createElement("canvas");
      off.width = A.cols; off.height = A.rows;
      off.getContext("2d").putImageData(img, 0, 0);
      const g = canvas.getContext("2d");
      g.imageSmoothingEnabled = false;
      g.drawImage(off, 0, 0, canvas.width, canvas.height);
      if (k >= 4) {
        g.strokeStyle = "rgba(0,0,0,0.12)"; g.lineWidth = 1; g.beginPath();
        for (let x = 0; x <= A.cols; x++) { g.moveTo(x * k + 0.5, 0); g.lineTo(x * k + 0.5, canvas.height); }
        for (let y = 0; y <= A.rows; y++) { g.moveTo(0, y * k + 0.5); g.lineTo(canvas.width, y * k + 0.5); }
        g.stroke();
      }
      // the array's edge, when tiles reached past it
      const iy = Math.ceil(A.inside[0] / A.step[0]), ix = Math.ceil(A.inside[1] / A.step[1]);
      if (iy < A.rows || ix < A.cols) {
        g.strokeStyle = "#222"; g.lineWidth = 2;
        g.strokeRect(1, 1, ix * k - 1, iy * k - 1);
      }
      if (marks) outline(g, marks[s], A, k);
      if (state.marker && state.marker.array === A.name && state.marker.slice === s) {
        g.strokeStyle = "#000"; g.lineWidth = 3;
        g.strokeRect(state.marker.col * k - 3, state.marker.row * k - 3, k + 6, k + 6);
      }
    });
    A.marks = marks;
  }

  function outline(g, marks, A, k) {
    g.fillStyle = "rgba(0,0,0,0.55)";
    for (let y = 0; y < A.rows; y++) {
      for (let x = 0; x < A.cols; x++) {
        const i = y * A.cols + x;
        if (marks[i] !== 2) continue;
        const edge = function (yy, xx) { return yy < 0 || xx < 0 || yy >= A.rows || xx >= A.cols || marks[yy * A.cols + xx] !== 2; };
        const w = Math.max(1, Math.floor(k / 4));
        if (edge(y - 1, x)) g.fillRect(x * k, y * k, k, w);
        if (edge(y + 1, x)) g.fillRect(x * k, (y + 1) * k - w, k, w);
        if (edge(y, x - 1)) g.fillRect(x * k, y * k, w, k);
        if (edge(y, x + 1)) g.fillRect((x + 1) * k - w, y * k, w, k);
      }
    }
  }

  function drawAll() {
    let total = 0;
    arrays.forEach(function (A) { draw(A); total += A.footprintCount || 0; });
    const fc = document.getElementById("footprint-count");
    fc.textContent = state.block === null ? "" : total + " cell(s) touched" + (state.step >= 0 ? " up to this step" : "");
    document.body.dataset.selectedBlock = state.block === null ? "" : String(state.block);
    document.body.dataset.footprintCells = String(state.block === null ? 0 : total);
    showSteps();
  }

  // ---- hover, click --------------------------------------------------------------
  const tip = document.getElementById("tip");
  function cellAt(A, s, ev) {
    const canvas = A.canvases[s], rect = canvas.getBoundingClientRect(), k = canvas.width / A.cols;
    const x = Math.floor((ev.clientX - rect.left) * (canvas.width / rect.width) / k);
    const y = Math.floor((ev.clientY - rect.top) * (canvas.height / rect.height) / k);
    if (x < 0 || y < 0 || x >= A.cols || y >= A.rows) return null;
    return [y, x];
  }
  function elementText(A, s, y, x) {
    const y0 = y * A.step[0], x0 = x * A.step[1];
    if (A.wrap) {
      const e = y0 * A.wrap + x0;
      return A.step[1] > 1 || A.step[0] > 1 ? "elements from " + e + " (a cell holds " + A.step[0] * A.step[1] + ")" : "element " + e;
    }
    const lead = A.slices[s].lead || [];
    const at = lead.concat([y0, x0]);
    const box = (A.step[0] > 1 || A.step[1] > 1) ? " … (" + lead.concat([y0 + A.step[0] - 1, x0 + A.step[1] - 1]).join(", ") + ")" : "";
    return "element (" + at.join(", ") + ")" + box;
  }
  function describe(A, s, y, x) {
    const i = y * A.cols + x, f = A.flags[s][i], lines = [A.name + " " + elementText(A, s, y, x)];
    if (A.wblock[s][i] >= 0) lines.push("written by block " + blockText(A.wblock[s][i]) + (A.wcount[s][i] > 1 ? " (" + A.wcount[s][i] + " writes)" : ""));
    if (A.rblock[s][i] >= 0) lines.push("read by block " + blockText(A.rblock[s][i]) + ((f & SHARED) ? " and others" : "") + " (" + A.rcount[s][i] + " read" + (A.rcount[s][i] > 1 ? "s" : "") + ")");
    if (f & RACE) lines.push("RACE: several blocks access it, one writing, without atomics");
    if (f & PADDING) lines.push("past the array's edge: read as padding");
    if (f & OOB) lines.push("OUT OF BOUNDS access attempted");
    if (f & UNWRITTEN) lines.push("never written by any block");
    if (f & ATOMIC) lines.push("updated atomically");
    const op = A.op[s][i];
    if (op >= 0) { const o = D.ops[op]; lines.push("line " + o.line + ": " + (D.source[o.line] || o.name).trim()); }
    if (!(A.wblock[s][i] >= 0 || A.rblock[s][i] >= 0 || f)) lines.push("not accessed");
    return lines;
  }

  function buildArrays() {
    const main = document.getElementById("arrays");
    arrays.forEach(function (A) {
      const card = document.createElement("section");
      card.className = "array";
      const h = document.createElement("h2");
      h.textContent = A.name + (A.also.length ? " (also passed as " + A.also.join(", ") + ")" : "") + "  " + A.dtype +
        "[" + A.shape.join(", ") + "]" + (A.written ? "  (written)" : "  (read)");
      card.appendChild(h);
      A.notes.forEach(function (n) { const p = document.createElement("p"); p.className = "note"; p.textContent = n; card.appendChild(p); });
      const row = document.createElement("div"); row.className = "slices";
      A.slices.forEach(function (sl, s) {
        const fig = document.createElement("figure");
        const canvas = document.createElement("canvas");
        canvas.className = "cells"; canvas.dataset.array = A.name; canvas.dataset.slice = String(s);
        canvas.addEventListener("mousemove", function (ev) {
          const at = cellAt(A, s, ev);
          if (!at) { tip.hidden = true; return; }
          tip.textContent = describe(A, s, at[0], at[1]).join("\n");
          tip.hidden = false;
          tip.style.left = (ev.pageX + 14) + "px"; tip.style.top = (ev.pageY + 14) + "px";
        });
        canvas.addEventListener("mouseleave", function () { tip.hidden = true; });
        canvas.addEventListener("click", function (ev) {
          const at = cellAt(A, s, ev);
          if (!at) return;
          const i = at[0] * A.cols + at[1];
          const b = A.wblock[s][i] >= 0 ? A.wblock[s][i] : A.rblock[s][i];
          const op = A.op[s][i];
          if (op >= 0) showSource(D.ops[op].line);
          if (b >= 0) select(b, -1);
        });
        A.canvases.push(canvas);
        fig.appendChild(canvas);
        if (sl.label) { const cap = document.createElement("figcaption"); cap.textContent = A.name + sl.label; fig.appendChild(cap); }
        row.appendChild(fig);
      });
      card.appendChild(row);
      main.appendChild(card);
    });
  }

  // ---- block and step controls ---------------------------------------------------------
  const inputs = ["bx", "by", "bz"].map(function (id) { return document.getElementById(id); });
  function select(b, step) {
    state.block = b; state.step = step;
    blockOf(b).forEach(function (v, k) { inputs[k].value = v; });
    drawAll();
  }
  function stepsOf(b) {
    const steps = new Map();
    arrays.forEach(function (A) {
      A.tiles.forEach(function (t) {
        for (let i = 0; i < t.blocks.length; i++) if (t.blocks[i] === b) addStep(steps, t.occ[i], t.op, t.write ? "write" : "read", A.name, t.index.map(function (x) { return x[i]; }));
      });
      A.lanes.forEach(function (l) {
        for (let i = 0; i < l.blocks.length; i++) if (l.blocks[i] === b) addStep(steps, l.occ[i], l.op, l.kind, A.name, null);
      });
    });
    return steps;
  }
  function addStep(steps, occ, op, kind, array, index) {
    if (!D.ops[op].loop) occ = -1;              // outside loops: shown with every iteration
    if (!steps.has(occ)) steps.set(occ, new Map());
    const key = op + kind + array + (index ? index.join(",") : "");
    const m = steps.get(occ);
    if (!m.has(key)) m.set(key, { op: op, kind: kind, array: array, index: index, lanes: 0 });
    m.get(key).lanes++;
  }
  function showSteps() {
    const box = document.getElementById("steps"), slider = document.getElementById("step"), label = document.getElementById("step-label");
    box.textContent = "";
    if (state.block === null) { slider.disabled = true; label.textContent = "pick a block"; return; }
    const steps = stepsOf(state.block), keys = Array.from(steps.keys()).sort(function (a, b) { return a - b; });
    const last = keys.length ? Math.max(0, keys[keys.length - 1]) : 0;
    slider.disabled = last === 0;
    slider.max = String(last + 1);
    if (state.step > last) state.step = last;
    slider.value = String(state.step < 0 ? 0 : state.step + 1);
    label.textContent = state.step < 0 ? "all " + (last + 1) + " iteration(s)" : "iteration " + state.step + " of " + (last + 1);
    const shown = state.step < 0 ? keys : [-1, state.step];
    for (const k of shown) {
      const m = steps.get(k);
      if (!m) continue;
      for (const e of m.values()) {
        const o = D.ops[e.op], li = document.createElement("li");
        li.textContent = (k < 0 ? "outside loops: " : "iteration " + k + ": ") + "line " + o.line + ": " + e.kind + " " + e.array +
          (e.index ? " tile (" + e.index.join(", ") + ")" : " (" + e.lanes + " element" + (e.lanes > 1 ? "s" : "") + ")") +
          " — " + (D.source[o.line] || "").trim();
        li.addEventListener("click", function () { showSource(o.line); });
        box.appendChild(li);
        if (box.childElementCount > 400) return;
      }
    }
  }
  function showSource(line) {
    const pre = document.getElementById("source");
    pre.textContent = "";
    for (let l = line - 2; l <= line + 2; l++) {
      if (D.source[l] === undefined) continue;
      const span = document.createElement("span");
      span.textContent = String(l).padStart(5) + "  " + D.source[l] + "\n";
      if (l === line) span.className = "here";
      pre.appendChild(span);
    }
  }

  function setup() {
    document.getElementById("pick").addEventListener("click", function () {
      const b = inputs.map(function (x) { return Math.max(0, parseInt(x.value || "0", 10) || 0); });
      if (b[0] < grid[0] && b[1] < grid[1] && b[2] < grid[2]) select(linear(b), -1);
    });
    document.getElementById("prev").addEventListener("click", function () {
      if (state.block !== null && state.block > 0) select(state.block - 1, -1);
    });
    document.getElementById("next").addEventListener("click", function () {
      const n = grid[0] * grid[1] * grid[2];
      select(state.block === null ? 0 : Math.min(n - 1, state.block + 1), -1);
    });
    document.getElementById("clear").addEventListener("click", function () { state.block = null; state.marker = null; drawAll(); });
    document.getElementById("step").addEventListener("input", function (ev) {
      state.step = parseInt(ev.target.value, 10) - 1; drawAll();
    });
    const list = document.getElementById("reports");
    D.reports.forEach(function (r) {
      const li = document.createElement("li");
      li.textContent = r.text;
      li.className = "report";
      li.addEventListener("click", function () {
        if (r.line) showSource(r.line);
        state.marker = null;
        if (r.array && r.element) {
          const A = arrays.find(function (a) { return a.name === r.array; });
          const at = A && cellOf(A, r.element);
          if (at) state.marker = { array: A.name, slice: at[0], row: at[1], col: at[2] };
        }
        if (r.blocks.length) select(r.blocks[0], -1); else drawAll();
      });
      list.appendChild(li);
    });
    if (!D.reports.length) { const li = document.createElement("li"); li.textContent = "none"; list.appendChild(li); }
  }

  buildArrays();
  setup();
  drawAll();
  window.addEventListener("resize", drawAll);
})();
