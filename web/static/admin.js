/* Admin controls: commands, manual entries and corrections (session cookie from the PIN). */
"use strict";
(() => {
  const { el, gameTitle } = Ref;
  const $ = (id) => document.getElementById(id);
  let snap = null;

  function message(ok, text) {
    $("admin-msg").hidden = !ok; $("admin-err").hidden = ok;
    $(ok ? "admin-msg" : "admin-err").textContent = text;
  }

  async function command(body) {
    try {
      const r = await Ref.postJSON("/api/command", body);
      message(true, `Done: ${body.action}`);
      return r;
    } catch (e) { message(false, e.message); return null; }
  }

  function decorate(li, v) {
    if (v.verdict === "info") return;
    const note = el("input", { type: "text", placeholder: "note (optional)", "aria-label": `Note for call ${v.id}` });
    const btn = (ruling) => el("button", { class: "btn small", type: "button", text: `Make ${ruling}`,
      onclick: () => command({ action: "correct", verdict_id: v.id, ruling, note: note.value }) });
    li.append(el("div", { class: "correct-row" }, btn("legal"), btn("illegal"), note));
  }
  const verdicts = Ref.verdictList($("verdicts"), null, 20, decorate);

  function render(s) {
    snap = s;
    $("a-game").textContent = s.game ? gameTitle(s.game) : "No match";
    $("round").textContent = s.round ? `Round ${s.round}` : "–";
    $("state").textContent = s.state;
    $("state").className = `badge ${s.state}`;
    for (const id of ["m-seat", "a-seat"]) {
      const sel = $(id);
      if (!sel) continue;
      const cur = sel.value;
      sel.replaceChildren(...s.seats.map((x) => el("option", { value: x.seat, text: `${x.seat}: ${x.name} (${x.colour})` })));
      if (cur) sel.value = cur;
    }
    verdicts.fromSnapshot(s);
  }

  document.querySelectorAll("[data-action]").forEach((b) =>
    b.addEventListener("click", () => command({ action: b.dataset.action })));
  $("manual-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    command({ action: "manual", seat: Number($("m-seat").value), what: $("m-what").value,
              value: Number($("m-value").value) });
  });
  // what the camera missed, in the table log's form (docs/table-log.md)
  $("add-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const kind = $("a-kind").value, seat = Number($("a-seat").value);
    const card = $("a-card").value.trim().toUpperCase(), place = $("a-place").value.trim();
    const event = { card: { kind, seat, card, to: place }, take_back: { kind, seat, card, at: place },
      block: { kind, seat, colour: $("a-colour").value.trim().toLowerCase(), size: $("a-size").value },
      tower_fell: { kind, blocks_left: 0 } }[kind];
    command({ action: "add", event });
  });
  Ref.loadGames().then(() => Ref.getJSON("/api/match")).then(render).catch(() => {});
  Ref.live({ state: render });
})();
