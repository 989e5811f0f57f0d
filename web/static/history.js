/* Past matches list. */
"use strict";
(() => {
  const { el, gameTitle } = Ref;
  const list = document.getElementById("matches");
  Ref.loadGames().then(() => Ref.getJSON("/api/history")).then((d) => {
    document.getElementById("no-matches").hidden = d.matches.length > 0;
    list.replaceChildren(...d.matches.map((m) => {
      const winner = (m.seats || []).find((s) => s.seat === m.winner);
      const when = m.started ? new Date(m.started * 1000).toLocaleString() : "";
      return el("li", {}, el("a", { href: `/history/${m.id}` },
        el("div", { class: "title", text: `#${m.id} ${gameTitle(m.game)}` }),
        el("div", { class: "muted", text: (m.seats || []).map((s) => `${s.name} (${s.colour})`).join(", ") }),
        el("div", { class: "muted", text: `${when}${winner ? ` · winner ${winner.name}` : " · no winner"}` })));
    }));
  }).catch(() => {});
})();
