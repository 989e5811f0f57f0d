/* Match setup form: game, players (name + deck colour), options typed from /api/games. */
"use strict";
(() => {
  const { el } = Ref;
  const $ = (id) => document.getElementById(id);
  const colours = [...$("colour-list").content.querySelectorAll("option")].map((o) => o.value);
  const defaults = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Finn"];
  let games = [];

  function game() { return games.find((g) => g.name === $("game").value); }

  function seatRow(i) {
    const sel = el("select", { id: `colour-${i}`, name: `colour-${i}`, "aria-label": `Deck colour for player ${i}` },
      ...colours.map((c) => el("option", { value: c, text: c })));
    sel.value = colours[(i - 1) % colours.length];
    return el("div", { class: "seat-row" },
      el("span", { class: "num", text: String(i), "aria-hidden": "true" }),
      el("input", { id: `name-${i}`, name: `name-${i}`, value: defaults[i - 1] || `Player ${i}`,
                    maxlength: "24", required: true, "aria-label": `Name of player ${i}` }),
      sel);
  }

  function setSeats(n) {
    const rows = $("seat-rows");
    while (rows.children.length < n) rows.append(seatRow(rows.children.length + 1));
    while (rows.children.length > n) rows.lastElementChild.remove();
    const [lo, hi] = game() ? game().seats : [2, 6];
    $("add-seat").disabled = n >= hi;
    $("remove-seat").disabled = n <= lo;
  }

  function renderGame() {
    const g = game();
    if (!g) return;
    $("game-seats").textContent = `${g.seats[0]} to ${g.seats[1]} players`;
    const n = Math.min(Math.max($("seat-rows").children.length || 4, g.seats[0]), g.seats[1]);
    setSeats(n);
    const box = $("options");
    box.replaceChildren();
    for (const [name, spec] of Object.entries(g.options)) {
      const id = `opt-${name}`;
      const d = spec.default;
      let input;
      if (typeof d === "boolean") input = el("input", { id, type: "checkbox", checked: d, "data-kind": "bool" });
      else if (typeof d === "number") input = el("input", { id, type: "number", step: Number.isInteger(d) ? "1" : "any",
        value: String(d), inputmode: "decimal", "data-kind": Number.isInteger(d) && !String(d).includes(".") ? "int" : "float",
        "data-default": String(d) });
      else input = el("input", { id, type: "text", value: String(d ?? ""), "data-kind": "str" });
      input.dataset.name = name;
      box.append(el("div", { class: "opt" },
        el("label", { for: id, text: name.replace(/_s$/, " (seconds)").replace(/_/g, " ") }), input,
        el("div", { class: "help", text: spec.help || "" })));
    }
    $("options-box").hidden = Object.keys(g.options).length === 0;
  }

  function collect() {
    const seats = [...$("seat-rows").children].map((row, i) => ({
      name: row.querySelector("input").value.trim(), colour: row.querySelector("select").value,
    }));
    const options = {};
    const g = game();
    for (const input of $("options").querySelectorAll("input")) {
      const name = input.dataset.name;
      const spec = g.options[name];
      let v;
      if (input.dataset.kind === "bool") v = input.checked;
      else if (input.dataset.kind === "str") v = input.value;
      else {
        v = Number(input.value);
        if (input.value === "" || Number.isNaN(v)) throw new Error(`Option ${name.replace(/_/g, " ")} needs a number`);
        if (typeof spec.default === "number" && Number.isInteger(spec.default) && !String(spec.default).includes(".")
            && !Number.isInteger(v)) throw new Error(`Option ${name.replace(/_/g, " ")} needs a whole number`);
      }
      if (v !== spec.default) options[name] = v;
    }
    return { game: g.name, seats, options };
  }

  async function submit(start) {
    const err = $("setup-error"), ok = $("setup-ok");
    err.hidden = ok.hidden = true;
    try {
      await Ref.postJSON("/api/setup", collect());
      if (start) await Ref.postJSON("/api/command", { action: "start" });
      ok.textContent = start ? "Match started." : "Match set up. Start it from Admin.";
      ok.hidden = false;
      if (start) setTimeout(() => { location.href = "/"; }, 600);
    } catch (e) {
      err.textContent = e.message;
      err.hidden = false;
    }
  }

  $("game").addEventListener("change", renderGame);
  $("add-seat").addEventListener("click", () => setSeats($("seat-rows").children.length + 1));
  $("remove-seat").addEventListener("click", () => setSeats($("seat-rows").children.length - 1));
  $("setup-form").addEventListener("submit", (ev) => { ev.preventDefault(); submit(false); });
  $("setup-start").addEventListener("click", () => submit(true));

  Ref.loadGames().then((gs) => {
    games = gs;
    $("game").replaceChildren(...gs.map((g) => el("option", { value: g.name, text: g.title })));
    renderGame();
  });
})();
