// ayo serve's page: the notebook widget's board (widget_board.js), given a
// model that talks to the server's websocket instead of Jupyter's.
//
// The board asks its model for `view`, `sowing` and the settings, sets
// settings, and sends {kind: "play" | "undo" | "new_game"}; here those go to
// the server, which alone decides (a pit choice is all a move sends), and
// what it answers becomes the model's values. The page keeps each seat's
// token in localStorage, so a reload or a dropped connection takes the seat
// back.

import board from "./widget_board.js";

const SETTINGS = ["preset", "relay", "collect_four", "sweep", "feed", "opponent", "human"];
const TOGGLES = ["relay", "collect_four", "sweep", "feed"];
const params = new URLSearchParams(location.search);
const DELAY = params.has("delay") ? Number(params.get("delay")) : 0.6;

const $ = (id) => document.getElementById(id);

function randomName() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// This browser's name for its personal best (kept by the server with its wins).
function browserName() {
  let name = localStorage.getItem("ayo-player");
  if (!name) {
    name = randomName();
    localStorage.setItem("ayo-player", name);
  }
  return name;
}

const tokenKey = (game) => "ayo-seat:" + game;

// anywidget's model, as much of it as the board uses.
class SocketModel {
  constructor(page) {
    this.page = page;
    this.values = {
      preset: "ayo",
      relay: true,
      collect_four: true,
      sweep: true,
      feed: true,
      opponent: "3",
      human: 0,
      delay: DELAY,
      view: {},
      sowing: {},
    };
    this.changed = new Set();
    this.handlers = {};
  }
  get(name) {
    return this.values[name];
  }
  set(name, value) {
    this.values[name] = value;
    this.changed.add(name);
  }
  // A changed setting is a new game with the settings (a new preset: its own toggles).
  save_changes() {
    const fresh = this.changed.has("preset");
    this.changed.clear();
    this.page.newGame(this.settings(fresh));
  }
  settings(fresh) {
    const out = { opponent: this.values.opponent, preset: this.values.preset };
    out.human = Number(this.values.human);
    for (const name of TOGGLES) out[name] = fresh ? null : this.values[name];
    return out;
  }
  send(message) {
    this.page.send(message);
  }
  on(event, handler) {
    (this.handlers[event] = this.handlers[event] || []).push(handler);
  }
  off(event, handler) {
    this.handlers[event] = (this.handlers[event] || []).filter((h) => h !== handler);
  }
  fire(event) {
    for (const handler of this.handlers[event] || []) handler();
  }
  // The server's state: settings and view, and a sowing to animate after a move.
  update(state) {
    for (const name of SETTINGS) this.values[name] = state.settings[name];
    this.values.human = Number(state.settings.human);
    if (state.sowing) {
      this.values.sowing = state.sowing;
      this.fire("change:sowing");
    }
    this.values.view = state.view;
    this.fire("change:view");
  }
  // A refusal is shown where the board shows its messages.
  refused(text) {
    this.values.view = { ...this.values.view, message: text };
    this.fire("change:view");
  }
}

class Page {
  constructor() {
    this.model = new SocketModel(this);
    this.game = null;
    this.socket = null;
    this.retry = 500;
    this.pending = null;
    board.render({ model: this.model, el: $("ayo-board") });
    $("ayo-copy").addEventListener("click", () => {
      $("ayo-link").select();
      if (navigator.clipboard) navigator.clipboard.writeText($("ayo-link").value);
    });
    const path = location.pathname.match(/^\/game\/([A-Za-z0-9_-]{1,32})$/);
    this.game = path ? path[1] : localStorage.getItem("ayo-last");
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(scheme + "//" + location.host + "/ws");
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retry = 500;
      this.connection("open", "Connected.");
      if (this.pending) {
        socket.send(JSON.stringify(this.pending));
        this.pending = null;
      } else if (this.game) {
        this.send({ kind: "join", game: this.game, token: localStorage.getItem(tokenKey(this.game)) });
      } else {
        this.newGame(this.model.settings(true));
      }
    });
    socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    // A dropped connection comes back and rejoins its seat.
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.connection("lost", "Connection lost: reconnecting…");
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    });
  }

  connection(state, text) {
    const line = $("ayo-connection");
    line.dataset.state = state;
    line.textContent = text;
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
    } else {
      this.pending = message;
    }
  }

  newGame(settings) {
    this.send({ kind: "new", ...settings, player: browserName() });
  }

  receive(message) {
    if (message.type === "joined") {
      this.game = message.game;
      if (message.token) localStorage.setItem(tokenKey(message.game), message.token);
      localStorage.setItem("ayo-last", message.game);
      const path = "/game/" + message.game;
      if (location.pathname !== path) history.replaceState(null, "", path + location.search);
    } else if (message.type === "state") {
      this.model.update(message);
      this.draw(message);
    } else if (message.type === "refused") {
      // A link to a game this server does not know: start a game instead.
      if (message.code === "unknown_game") {
        localStorage.removeItem("ayo-last");
        this.game = null;
        this.newGame(this.model.settings(true));
      }
      this.model.refused("Refused: " + message.message);
    }
  }

  // What the board does not show: the link, the seat, the personal best, the record.
  draw(state) {
    const link = location.origin + "/game/" + state.game;
    const names = state.view.names;
    const share = state.mode === "link" && state.seat !== null;
    $("ayo-share").hidden = !share;
    $("ayo-link").value = link;
    let seat;
    if (state.seat === null) seat = "You are watching this game.";
    else if (state.mode === "link") seat = "You play " + names[state.seat] + ".";
    else seat = "";
    if (state.watchers) seat += " Watching: " + state.watchers + ".";
    $("ayo-seat").textContent = seat.trim();
    $("ayo-best").textContent =
      state.mode === "computer" && state.seat !== null
        ? "Personal best (" + state.rules_name + "): " +
          (state.best === null ? "none yet" : state.best + " seeds")
        : "";
    $("ayo-record").textContent = state.record;
    document.body.dataset.mode = state.mode;
    document.body.dataset.seat = state.seat === null ? "none" : String(state.seat);
    document.body.dataset.over = String(state.over);
  }
}

new Page();
