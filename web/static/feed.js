/* Event feed: the table's events (newest first), loaded from /api/feed then followed live. */
"use strict";
(() => {
  const { el, timeOf, cap } = Ref;
  const list = document.getElementById("feed");
  const empty = document.getElementById("no-feed");
  const seen = new Set();
  const MAX = 300;

  function describe(e) {
    const skip = new Set(["id", "t", "kind", "seat"]);
    return Object.entries(e).filter(([k]) => !skip.has(k))
      .map(([k, v]) => `${k.replace(/_/g, " ")}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
  }

  function add(e) {
    if (seen.has(e.id)) return;
    seen.add(e.id);
    const li = el("li", { "data-id": e.id },
      el("span", { class: "muted", text: `#${e.id} ${timeOf(e.t)} ` }),
      el("span", { class: "kind", text: cap(String(e.kind).replace(/_/g, " ")) }),
      e.seat ? el("span", { text: ` · seat ${e.seat}` }) : null,
      el("div", { class: "muted", text: describe(e) }));
    list.prepend(li);
    while (list.children.length > MAX) list.lastElementChild.remove();
    empty.hidden = true;
  }

  Ref.getJSON("/api/feed?limit=1000").then((d) => d.events.slice(-200).forEach(add)).catch(() => {});
  Ref.live({ event: add });
})();
