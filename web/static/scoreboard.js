/* The scoreboard: big scores per seat, round, whose turn, the last calls; live over SSE. */
"use strict";
(() => {
  const { el, colourHex, cap, gameTitle, seatName } = Ref;
  const $ = (id) => document.getElementById(id);
  const STATE_WORDS = { idle: "No match", setup: "Ready", running: "Playing", paused: "Paused",
                        stopped: "Stopped", finished: "Finished" };
  const lastScores = new Map();
  const verdicts = Ref.verdictList($("verdicts"), $("no-verdicts"), 6);
  let snap = null;

  function seatRow(s, snapshot) {
    const turn = snapshot.state === "running" && snapshot.turn === s.seat;
    const won = snapshot.winner === s.seat;
    const changed = lastScores.has(s.seat) && lastScores.get(s.seat) !== s.score;
    lastScores.set(s.seat, s.score);
    const info = Object.entries(s.info || {}).map(([k, v]) =>
      el("span", { text: `${cap(k.replace(/_/g, " "))} ${v}` }));
    const nameLine = el("div", { class: "name" }, s.name,
      turn ? el("span", { class: "tag", text: "TURN" }) : null,
      won ? el("span", { class: "tag", text: "WINNER" }) : null);
    return el("li", {
      class: `seat${turn ? " turn-now" : ""}${changed ? " changed" : ""}`, "data-seat": s.seat,
      "aria-label": `${s.name}, ${s.colour} deck, ${s.score} points${turn ? ", their turn" : ""}`,
    },
      el("span", { class: "swatch", style: `background:${colourHex(s.colour)}`, "aria-hidden": "true" }),
      el("div", { class: "who" }, nameLine,
        el("div", { class: "colour-name", text: `Seat ${s.seat} · ${s.colour} deck` }),
        info.length ? el("div", { class: "info" }, ...info) : null),
      el("div", { class: "pts" },
        el("div", { class: "score", text: String(s.score) }),
        el("div", { class: "round-score", text: `${s.round_score >= 0 ? "+" : ""}${s.round_score} this round` })));
  }

  function render(s) {
    snap = s;
    $("game-title").textContent = s.game ? gameTitle(s.game) : "Waiting for a match…";
    $("round").textContent = s.round ? `Round ${s.round}` : "";
    const st = $("state");
    st.textContent = STATE_WORDS[s.state] || s.state;
    st.className = `badge ${s.state}`;
    const turn = $("turn");
    if (s.state === "running" && s.turn) {
      const dir = s.direction === -1 ? "↺ anticlockwise" : s.direction === 1 ? "↻ clockwise" : "";
      turn.textContent = `${seatName(s, s.turn)} to play${dir ? " · " + dir : ""}`;
      turn.hidden = false;
    } else turn.hidden = true;
    const win = $("winner");
    if (s.winner) { win.textContent = `🏆 ${seatName(s, s.winner)} wins!`; win.hidden = false; }
    else win.hidden = true;
    $("seats").replaceChildren(...s.seats.map((x) => seatRow(x, s)));
    verdicts.fromSnapshot(s);
  }

  Ref.loadGames().then(() => { if (snap) render(snap); });
  Ref.getJSON("/api/match").then(render).catch(() => {});
  Ref.live({ state: render, verdict: (v) => verdicts.add(v) });
})();
