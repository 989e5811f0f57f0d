/* Live table: the MJPEG picture (falls back to polling single frames) and the latest calls. */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const verdicts = Ref.verdictList($("verdicts"), $("no-verdicts"), 8);
  const img = $("live-img");
  let polling = false;
  img.addEventListener("error", () => {
    // No MJPEG (too many viewers or no picture yet): poll single frames instead.
    if (polling) return;
    polling = true;
    $("camera-note").textContent = "Showing a new picture every two seconds.";
    const tick = () => { img.src = `/api/frame.jpg?t=${Date.now()}`; };
    setInterval(tick, 2000);
    tick();
  });
  Ref.getJSON("/api/match").then((s) => verdicts.fromSnapshot(s)).catch(() => {});
  Ref.live({ state: (s) => verdicts.fromSnapshot(s), verdict: (v) => verdicts.add(v) });
})();
