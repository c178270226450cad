"use strict";
// A table's page. It knows no rules: the server sends the board picture, the
// legal moves, whose turn it is and how the game ended; the page shows them
// and sends the moves picked from the server's list.
(function () {
  const id = location.pathname.split("/").pop();
  const token = new URLSearchParams(location.hash.slice(1)).get("k");
  const $ = (name) => document.getElementById(name);
  let state = null;
  let socket = null;
  let retry = 500;

  function text(node, value) {
    node.textContent = value == null ? "" : String(value);
  }

  function button(label, handler, dataMove) {
    const b = document.createElement("button");
    b.type = "button";
    text(b, label);
    if (dataMove != null) b.dataset.move = dataMove;
    b.addEventListener("click", handler);
    return b;
  }

  async function post(path, body) {
    text($("error"), "");
    const headers = { "content-type": "application/json" };
    if (token) headers.authorization = "Bearer " + token;
    let response, reply;
    try {
      response = await fetch("/api/tables/" + id + path, { method: "POST", headers, body: JSON.stringify(body || {}) });
      reply = await response.json();
    } catch (e) {
      text($("error"), "No answer from the server: " + e.message);
      return null;
    }
    if (!response.ok) {
      text($("error"), reply.error || response.statusText);
      return null;
    }
    return reply;
  }

  function show(newState) {
    // Live updates and replies to our requests can cross: never go back to an older state.
    if (state && newState.version < state.version) return;
    state = newState;
    const seat = state.you;
    text($("title"), state.title);
    document.title = "noughts: " + state.title;
    $("rules-link").href = "/rules/" + state.game;
    const players = "X: " + state.players.X + " · O: " + state.players.O;
    text($("players"), seat ? players + " · you play " + seat : players + " · you are watching");
    text($("status"), state.status);
    text($("outcome"), state.outcome ? state.outcome.text : "");
    $("board").dataset.number = state.number;

    const doc = new DOMParser().parseFromString(state.svg, "image/svg+xml");
    const picture = document.importNode(doc.documentElement, true);
    $("board").replaceChildren(picture);

    const mine = seat && state.to_move === seat;
    $("legal-section").hidden = !mine;
    const legal = $("legal");
    legal.replaceChildren();
    if (mine) {
      for (const move of state.legal) {
        legal.appendChild(button(move, () => play(move), move));
      }
    }

    const moves = $("moves");
    moves.replaceChildren();
    for (const m of state.moves) {
      const li = document.createElement("li");
      text(li, m.seat + " " + m.move + (m.note ? " (" + m.note + ")" : ""));
      if (m.number === state.number) li.className = "last";
      moves.appendChild(li);
    }

    const undo = $("undo");
    undo.replaceChildren();
    if (seat && !state.rematch) {
      const asker = state.undo_requested_by;
      if (asker && asker !== seat) {
        const p = document.createElement("p");
        text(p, asker + " asks to take back their last move.");
        undo.append(p, button("Accept the undo", () => post("/undo", { action: "accept" }).then(update)),
          button("Decline", () => post("/undo", { action: "decline" }).then(update)));
      } else if (asker === seat) {
        const p = document.createElement("p");
        text(p, "You asked to undo; waiting for your opponent.");
        undo.append(p, button("Cancel the request", () => post("/undo", { action: "cancel" }).then(update)));
      } else if (state.moves.some((m) => m.seat === seat) && !(state.outcome && state.outcome.how === "resigned")) {
        undo.append(button("Ask to undo", () => post("/undo", { action: "request" }).then(update)));
      }
    }
    $("resign").hidden = !(seat && !state.finished);
    $("rematch").hidden = !(seat && state.finished && !state.rematch);
    const link = $("rematch-link");
    link.replaceChildren();
    if (state.rematch) {
      const a = document.createElement("a");
      a.id = "rematch-go";
      a.href = "/t/" + state.rematch + (seat && token ? "#k=" + encodeURIComponent(token) : "");
      text(a, seat ? "Play the rematch (you play " + (seat === "X" ? "O" : "X") + ")" : "Watch the rematch");
      link.appendChild(a);
    }
    $("record").href = "/api/tables/" + id + "/record";
    $("share-spectator").value = new URL("/t/" + id, location.href).href;
    const share = sessionStorage.getItem("share:" + id);
    $("share-seat-line").hidden = !share;
    if (share) $("share-seat").value = share;
  }

  function update(reply) {
    if (reply && reply.moves) show(Object.assign({}, reply, { you: state ? state.you : null }));
  }

  async function play(move) {
    for (const b of $("legal").querySelectorAll("button")) b.disabled = true;
    const reply = await post("/moves", { move: move, number: state.number + 1 });
    if (reply) update(reply.state);
    else for (const b of $("legal").querySelectorAll("button")) b.disabled = false;
  }

  $("resign").addEventListener("click", () => {
    if (confirm("Resign this game?")) post("/resign").then(update);
  });
  $("rematch").addEventListener("click", async () => {
    const reply = await post("/rematch");
    if (reply) location.assign(reply.url + (token ? "#k=" + encodeURIComponent(token) : ""));
  });

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/api/tables/" + id + "/live");
    socket.addEventListener("open", () => {
      retry = 500;
      text($("connection"), "");
      // Resume: the server answers with the current state and the moves we have not seen.
      socket.send(JSON.stringify({ type: "hello", token: token, have: state ? state.number : 0 }));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") show(message);
      else if (message.type === "error") text($("error"), message.error);
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4403 || event.code === 4404) {
        text($("connection"), event.code === 4404 ? "There is no such table." : "This link opens no seat here.");
        if (event.code === 4404) text($("title"), "No such table");
        return;
      }
      text($("connection"), "Connection lost: reconnecting…");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    });
  }
  connect();
})();
