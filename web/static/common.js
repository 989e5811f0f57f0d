/* Shared helpers for every dashboard page: DOM building (text only, never innerHTML with data),
   seat colours (always named in words too), verdict rendering and the live SSE connection. */
"use strict";

const Ref = (() => {
  // Okabe-Ito based swatches; the colour's name is always printed beside them.
  const COLOURS = {
    blue: "#0072B2", orange: "#E69F00", green: "#009E73", yellow: "#F0E442",
    purple: "#CC79A7", red: "#D55E00", black: "#000000", white: "#FFFFFF",
    sky: "#56B4E9", grey: "#999999", gray: "#999999", pink: "#CC79A7",
  };
  const LABELS = {
    legal: "✓ LEGAL", illegal: "✗ ILLEGAL", late: "◔ LATE", ignored: "– IGNORED", info: "ℹ INFO",
  };
  const GAMES = {};

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  function colourHex(name) { return COLOURS[(name || "").toLowerCase()] || "#777777"; }

  function cap(s) { return s ? s.charAt(0).toUpperCase() + s.slice(1) : ""; }

  function gameTitle(name) { return GAMES[name] || (name ? name.replace(/-/g, " ").replace(/\b\w/g, cap) : ""); }

  function seatName(snap, seatNo) {
    const s = (snap && snap.seats || []).find((x) => x.seat === seatNo);
    return s ? `${s.name} (${s.colour})` : seatNo ? `seat ${seatNo}` : "";
  }

  // Table times are seconds on the table's monotonic clock, not wall time: show them as match
  // time (m:ss) from the match's start, which snapshots carry as "t0".
  let matchStart = null;
  function timeOf(t) {
    if (t === null || t === undefined) return "";
    const s = Math.max(0, t - (matchStart === null ? 0 : matchStart));
    const m = Math.floor(s / 60);
    return `${m}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
  }

  function verdictItem(v, fresh) {
    const why = [v.reason, v.consequence].filter(Boolean).join(" → ");
    return el("li", { class: `verdict ${v.verdict}${fresh ? " fresh" : ""}`, "data-id": v.id },
      el("span", { class: "when", text: timeOf(v.t) }),
      el("span", { class: "label", text: LABELS[v.verdict] || v.verdict.toUpperCase() }),
      el("span", { class: "text", text: v.text }),
      why ? el("div", { class: "why", text: why }) : null);
  }

  /** Keep a list of verdicts (newest first, at most `max`) in sync with snapshots and messages. */
  function verdictList(listEl, emptyEl, max, decorate) {
    const shown = new Map();
    function render(items, freshIds) {
      listEl.replaceChildren(...items.slice(0, max).map((v) => {
        const li = verdictItem(v, freshIds && freshIds.has(v.id));
        if (decorate) decorate(li, v);
        return li;
      }));
      if (emptyEl) emptyEl.hidden = items.length > 0;
    }
    return {
      fromSnapshot(snap) {
        const recent = (snap.recent || []).slice().reverse();
        const fresh = new Set(recent.filter((v) => !shown.has(v.id)).map((v) => v.id));
        const first = shown.size === 0;
        shown.clear();
        for (const v of recent) shown.set(v.id, v);
        render(recent, first ? null : fresh);
      },
      add(v) {
        const isNew = !shown.has(v.id);
        shown.set(v.id, v);
        const items = [...shown.values()].sort((a, b) => b.id - a.id).slice(0, 50);
        render(items, isNew ? new Set([v.id]) : null);
      },
    };
  }

  /** Open the SSE stream; handlers: {state(snap), verdict(v), event(e)}. Reconnects by itself. */
  function live(handlers) {
    const status = document.getElementById("live-status");
    function show(on, text) {
      if (!status) return;
      status.hidden = false;
      status.className = `live ${on ? "on" : "off"}`;
      status.textContent = text;
    }
    const es = new EventSource("/api/events");
    for (const type of ["state", "verdict", "event"]) {
      if (!handlers[type]) continue;
      es.addEventListener(type, (msg) => {
        let data;
        try { data = JSON.parse(msg.data); } catch (e) { return; }
        if (type === "state" && typeof data.t0 === "number") matchStart = data.t0;
        handlers[type](data);
      });
    }
    es.onopen = () => show(true, "Live");
    es.onerror = () => show(false, es.readyState === 2 ? "Offline" : "Reconnecting…");
    window.addEventListener("pagehide", () => es.close());
    return es;
  }

  async function getJSON(url) {
    const r = await fetch(url, { headers: { Accept: "application/json" } });
    if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || r.statusText);
    const data = await r.json();
    if (data && typeof data.t0 === "number") matchStart = data.t0;
    return data;
  }

  async function postJSON(url, body) {
    const r = await fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    const data = await r.json().catch(() => ({ error: r.statusText }));
    if (!r.ok) throw new Error(data.error || r.statusText);
    return data;
  }

  async function loadGames() {
    try {
      const data = await getJSON("/api/games");
      for (const g of data.games) GAMES[g.name] = g.title;
      return data.games;
    } catch (e) { return []; }
  }

  return { el, colourHex, cap, gameTitle, seatName, timeOf, verdictItem, verdictList, live,
           getJSON, postJSON, loadGames };
})();
