"use strict";
// The create form: sends the settings, keeps the other seat's link to share, opens our seat.
(function () {
  const form = document.getElementById("create");
  const error = document.getElementById("error");
  const classic = document.getElementById("classic-settings");
  const level = document.getElementById("level-label");

  function refresh() {
    classic.hidden = form.elements.game.value !== "classic";
    level.hidden = form.elements.opponent.value !== "computer";
  }
  form.addEventListener("change", refresh);
  refresh();

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    error.textContent = "";
    const f = form.elements;
    const body = { game: f.game.value, opponent: f.opponent.value, seat: f.seat.value };
    if (body.game === "classic") {
      body.size = Number(f.size.value);
      body.misere = f.misere.checked;
      body.free_choice = f.free_choice.checked;
      body.gravity = f.gravity.checked;
    }
    if (body.opponent === "computer") body.level = f.level.value;
    let reply;
    try {
      const response = await fetch("/api/tables", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      reply = await response.json();
      if (!response.ok) throw new Error(reply.error || response.statusText);
    } catch (e) {
      error.textContent = "The table was not created: " + e.message;
      return;
    }
    const other = body.seat === "X" ? "O" : "X";
    if (reply.seats[other]) {
      sessionStorage.setItem("share:" + reply.id, new URL(reply.seats[other], location.href).href);
    }
    location.assign(reply.seats[body.seat]);
  });
})();
