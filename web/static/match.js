/* One past match: standings, per-round score chart (inline SVG, no library), rounds table. */
"use strict";
(() => {
  const { el, colourHex, gameTitle } = Ref;
  const $ = (id) => document.getElementById(id);
  const NS = "http://www.w3.org/2000/svg";
  const DASHES = ["", "8 5", "2 4", "12 4 2 4", "4 4", "10 3 3 3 3 3"];
  const MARKS = ["circle", "square", "triangle", "diamond", "circle", "square"];

  function svg(tag, attrs, text) {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text !== undefined) n.textContent = text;
    return n;
  }

  function marker(kind, x, y, fill) {
    const r = 5;
    if (kind === "square") return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill });
    if (kind === "triangle") return svg("path", { d: `M${x},${y - r - 1}L${x + r + 1},${y + r}L${x - r - 1},${y + r}Z`, fill });
    if (kind === "diamond") return svg("path", { d: `M${x},${y - r - 1}L${x + r + 1},${y}L${x},${y + r + 1}L${x - r - 1},${y}Z`, fill });
    return svg("circle", { cx: x, cy: y, r, fill });
  }

  /** Cumulative score per seat after each round; lines differ by colour, dash and marker. */
  function chart(seats, rounds, width) {
    // One SVG unit per CSS pixel, so labels stay readable on a phone.
    const W = Math.max(300, Math.min(760, width || 640)), H = Math.round(W * 0.62);
    const L = 40, R = Math.min(110, W * 0.28), T = 16, B = 34;
    const totals = new Map(seats.map((s) => [s.seat, [0]]));
    for (const r of rounds) for (const s of seats) {
      const arr = totals.get(s.seat);
      arr.push(arr[arr.length - 1] + Number(r.scores[s.seat] ?? r.scores[String(s.seat)] ?? 0));
    }
    const all = [...totals.values()].flat();
    const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
    const n = rounds.length;
    const x = (i) => L + (n ? (i / n) * (W - L - R) : 0);
    const y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, "aria-hidden": "true" });
    const step = Math.max(1, Math.ceil((hi - lo) / 5 / 5) * 5);
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
      root.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#3a4552" }));
      root.append(svg("text", { x: L - 6, y: y(v) + 5, "text-anchor": "end", fill: "#b7c0cc", "font-size": 14 }, String(v)));
    }
    for (let i = 0; i <= n; i++) {
      root.append(svg("text", { x: x(i), y: H - 12, "text-anchor": "middle", fill: "#b7c0cc", "font-size": 14 }, i === 0 ? "start" : `R${i}`));
    }
    const ends = [];
    seats.forEach((s, k) => {
      const pts = totals.get(s.seat);
      const col = colourHex(s.colour);
      const stroke = s.colour === "black" ? "#9aa5b1" : col;
      root.append(svg("polyline", { points: pts.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none",
        stroke, "stroke-width": 3, "stroke-dasharray": DASHES[k % DASHES.length], "stroke-linejoin": "round" }));
      pts.forEach((v, i) => root.append(marker(MARKS[k % MARKS.length], x(i), y(v), stroke)));
      ends.push({ s, v: pts[pts.length - 1], stroke });
    });
    ends.sort((a, b) => b.v - a.v);
    let lastY = -Infinity;
    for (const e of ends) {
      const ly = Math.max(y(e.v) + 5, lastY + 16);
      lastY = ly;
      root.append(svg("text", { x: W - R + 8, y: ly, fill: e.stroke, "font-size": 15, "font-weight": 700 }, `${e.s.name} ${e.v}`));
    }
    return root;
  }

  function roundsTable(seats, rounds) {
    const t = $("rounds");
    const head = el("tr", {}, el("th", { scope: "col", text: "Round" }), ...seats.map((s) => el("th", { scope: "col", text: `${s.name} (${s.colour})` })));
    const body = rounds.map((r) => el("tr", {}, el("th", { scope: "row", text: String(r.round) }),
      ...seats.map((s) => el("td", { text: String(r.scores[s.seat] ?? r.scores[String(s.seat)] ?? 0) }))));
    t.append(el("thead", {}, head), el("tbody", {}, ...body));
  }

  Ref.loadGames().then(() => Ref.getJSON(`/api/history/${window.MATCH_ID}`)).then((rec) => {
    const h = rec.header || {};
    const seats = h.seats || [];
    $("match-title").textContent = `#${h.id ?? window.MATCH_ID} ${gameTitle(h.game)}`;
    const when = h.started ? new Date(h.started * 1000).toLocaleString() : "";
    $("match-sub").textContent = `${when}${h.state ? " · " + h.state : ""}`;
    $("standings").replaceChildren(...(rec.standings || []).map((s) => {
      const seat = seats.find((x) => x.seat === s.seat);
      return el("li", { text: `${s.name}${seat ? ` (${seat.colour})` : ""}: ${s.score}` });
    }));
    $("chart").replaceChildren(chart(seats, rec.rounds || [], $("chart").clientWidth));
    roundsTable(seats, rec.rounds || []);
    $("verdicts").replaceChildren(...(rec.verdicts || []).slice().reverse().map((v) => Ref.verdictItem(v)));
  }).catch((e) => { $("match-sub").textContent = e.message; });
})();
