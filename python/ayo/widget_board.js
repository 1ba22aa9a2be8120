// The browser side of ayo.widget.Board: draws what Python sends, sends clicks back.
//
// Python keeps the game and sends two traits: `view` (the position, whose
// turn, each of the mover's pits with its preview, messages, the result) and
// `sowing` (the frames of the last move, from the engine's trace). Nothing
// here knows a rule: which pits can be clicked, where a last seed lands and
// every frame of a sowing come in the traits.

const TOGGLES = [
  ["relay", "Relay sowing"],
  ["collect_four", "Collect on 4"],
  ["sweep", "End-game sweep"],
  ["feed", "Feed rule"],
];

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function select(options, value, onChange) {
  const node = make("select", "ayo-select");
  for (const option of options) {
    const item = make("option", "", option.label);
    item.value = option.value;
    node.append(item);
  }
  node.value = value;
  node.addEventListener("change", () => onChange(node.value));
  return node;
}

// Where a pit is drawn, with seat `bottom`'s row along the bottom (left to
// right in sowing order) and the other row along the top (right to left).
const owner = (pit) => (pit < 6 ? 0 : 1);
const column = (pit, bottom) => (owner(pit) === bottom ? pit % 6 : 5 - (pit % 6));
const row = (pit, bottom) => (owner(pit) === bottom ? 1 : 0);

// How long a finger rests on a pit before its preview shows instead of a sowing.
const HOLD_MS = 450;

// Touch: press and hold a pit to see its preview (what hovering shows with a
// mouse); a short tap sows it as a click does. The press that showed a
// preview does not sow, and does not open the browser's long-press menu.
function holdToPreview(button, show) {
  let timer = null;
  let held = false;
  button.addEventListener(
    "touchstart",
    () => {
      held = false;
      clearTimeout(timer);
      timer = setTimeout(() => {
        held = true;
        show();
      }, HOLD_MS);
    },
    { passive: true },
  );
  button.addEventListener("touchmove", () => clearTimeout(timer), { passive: true });
  button.addEventListener("touchcancel", () => clearTimeout(timer));
  button.addEventListener("touchend", (event) => {
    clearTimeout(timer);
    if (held && event.cancelable) event.preventDefault(); // no click: it was a preview
  });
  button.addEventListener("contextmenu", (event) => event.preventDefault());
}

function place(node, gridColumn, gridRow) {
  node.style.gridColumn = gridColumn;
  node.style.gridRow = gridRow;
}

function render({ model, el }) {
  const root = make("div", "ayo-widget");
  el.append(root);

  // Settings: preset, opponent, seat and the four toggles. Python answers
  // each change with a new game.
  const settings = make("div", "ayo-settings");
  const toggles = make("div", "ayo-toggles");
  const buttons = make("div", "ayo-buttons");
  const newGame = make("button", "ayo-button ayo-new-game", "New game");
  const undo = make("button", "ayo-button ayo-undo", "Undo");
  const skip = make("button", "ayo-button ayo-skip", "Skip");
  buttons.append(newGame, undo, skip);
  newGame.addEventListener("click", () => model.send({ kind: "new_game" }));
  undo.addEventListener("click", () => model.send({ kind: "undo" }));
  skip.addEventListener("click", () => finish());

  const setTrait = (name, value) => {
    model.set(name, value);
    model.save_changes();
  };
  const checkboxes = {};
  for (const [name, label] of TOGGLES) {
    const box = make("input", "ayo-toggle");
    box.type = "checkbox";
    box.dataset.toggle = name;
    box.addEventListener("change", () => setTrait(name, box.checked));
    checkboxes[name] = box;
    const wrap = make("label", "ayo-toggle-label");
    wrap.append(box, document.createTextNode(" " + label));
    toggles.append(wrap);
  }

  // The board: a row of numbers, North's pits, South's pits, a row of numbers;
  // North's store on the left, South's on the right.
  const board = make("div", "ayo-board");
  const pits = [];
  const numbers = [];
  const stores = [];
  for (const player of [1, 0]) {
    const store = make("div", "ayo-store");
    store.dataset.store = String(player);
    store.append(make("span", "ayo-seeds", "0"), make("span", "ayo-store-name", ""));
    stores[player] = store;
    board.append(store);
  }
  for (let pit = 0; pit < 12; pit++) {
    const button = make("button", "ayo-pit");
    button.dataset.pit = String(pit);
    button.append(make("span", "ayo-seeds", "0"));
    button.addEventListener("click", () => clickPit(pit));
    button.addEventListener("mouseenter", () => hover(pit));
    button.addEventListener("mouseleave", () => hover(null));
    button.addEventListener("focus", () => hover(pit));
    button.addEventListener("blur", () => hover(null));
    holdToPreview(button, () => hover(pit));
    pits[pit] = button;
    board.append(button);
    const number = make("div", "ayo-number");
    numbers[pit] = number;
    board.append(number);
  }
  board.addEventListener("click", () => {
    if (animating) finish();
  });

  const rules = make("div", "ayo-rules");
  const scores = make("div", "ayo-scores");
  const status = make("div", "ayo-status");
  const line = make("div", "ayo-preview");
  const message = make("div", "ayo-message");
  const result = make("div", "ayo-result");
  root.append(settings, toggles, buttons, board, scores, status, line, message, result, rules);

  let queue = [];
  let animating = false;
  let timer = null;
  let hovered = null;

  // One board: seeds, stores, marks. `marks` maps a pit to a class.
  function drawBoard(seeds, storeSeeds, marks) {
    for (let pit = 0; pit < 12; pit++) {
      const button = pits[pit];
      button.firstChild.textContent = String(seeds[pit]);
      button.className = "ayo-pit" + (marks[pit] ? " " + marks[pit].join(" ") : "");
    }
    for (const player of [0, 1]) {
      stores[player].firstChild.textContent = String(storeSeeds[player]);
    }
  }

  // The selects are made once, from the first view's choices; later views
  // only set their values (remaking them would close an open list).
  let selects = null;
  function drawSettings(view) {
    if (selects === null) {
      selects = {
        preset: select(
          view.presets.map((p) => ({ value: p, label: "Rules: " + p })),
          model.get("preset"),
          (v) => setTrait("preset", v),
        ),
        opponent: select(view.opponents, model.get("opponent"), (v) => setTrait("opponent", v)),
        human: select(
          [
            { value: "0", label: "You play South (bottom)" },
            { value: "1", label: "You play North (top)" },
          ],
          String(model.get("human")),
          (v) => setTrait("human", Number(v)),
        ),
      };
      settings.append(selects.preset, selects.opponent, selects.human);
    }
    selects.preset.value = model.get("preset");
    selects.opponent.value = model.get("opponent");
    selects.human.value = String(model.get("human"));
    selects.human.disabled = view.two_players;
    for (const [name] of TOGGLES) checkboxes[name].checked = model.get(name);
  }

  // The person's row at the bottom, their store on the right.
  function layOut(bottom) {
    for (let pit = 0; pit < 12; pit++) {
      const c = String(column(pit, bottom) + 2);
      place(pits[pit], c, String(row(pit, bottom) + 2));
      place(numbers[pit], c, row(pit, bottom) === 0 ? "1" : "4");
    }
    place(stores[bottom], "8", "2 / span 2");
    place(stores[1 - bottom], "1", "2 / span 2");
  }

  // The position Python sent, with the hover preview when there is one.
  function drawView() {
    const view = model.get("view");
    if (!view || !view.board) return;
    layOut(view.bottom);
    const marks = {};
    const mark = (pit, cls) => (marks[pit] = (marks[pit] || []).concat(cls));
    if (view.last !== null) mark(view.last, "ayo-last");
    const byPit = {};
    for (const move of view.moves) {
      byPit[move.pit] = move;
      if (move.playable) mark(move.pit, "ayo-playable");
    }
    let preview = "";
    const shown = hovered !== null ? byPit[hovered] : undefined;
    if (shown) {
      preview = shown.preview;
      mark(shown.pit, "ayo-hovered");
      if (shown.landing !== null) mark(shown.landing, "ayo-landing");
    }
    drawBoard(view.board, view.stores, marks);
    for (let pit = 0; pit < 12; pit++) {
      numbers[pit].textContent = String(view.numbers[pit]);
      const move = byPit[pit];
      pits[pit].setAttribute("aria-disabled", String(!(move && move.playable)));
      pits[pit].title = move ? move.preview : "";
    }
    for (const player of [0, 1]) {
      stores[player].lastChild.textContent = view.names[player];
      stores[player].classList.toggle("ayo-to-move", view.to_move === player);
    }
    drawSettings(view);
    scores.textContent = view.scores;
    status.textContent = view.status;
    line.textContent = preview;
    message.textContent = view.message;
    result.textContent = view.result;
    rules.textContent = "Rules: " + view.rules;
    undo.disabled = !view.can_undo;
    skip.disabled = true;
    root.dataset.ply = String(view.ply);
    root.dataset.toMove = view.to_move === null ? "none" : String(view.to_move);
    root.dataset.thinking = String(view.thinking);
    root.dataset.animating = "false";
  }

  // A sowing, frame by frame (the engine's laps), then the next one queued.
  function next() {
    const sowing = queue.shift();
    if (!sowing) {
      animating = false;
      drawView();
      return;
    }
    const frames = sowing.frames;
    const pause = Math.min(model.get("delay"), 10 / Math.max(frames.length, 1)) * 1000;
    let k = 0;
    const step = () => {
      const frame = frames[k];
      const marks = {};
      for (const pit of frame.pits) marks[pit] = ["ayo-active"];
      drawBoard(frame.board, frame.stores, marks);
      const hand = frame.hand ? " (in hand: " + frame.hand + ")" : "";
      status.textContent = sowing.title + ", step " + (k + 1) + " of " + frames.length +
        " (Skip, Escape or a click on the board jumps to the end)";
      line.textContent = frame.caption + hand;
      k += 1;
      timer = setTimeout(k < frames.length ? step : next, pause);
    };
    step();
  }

  function start(sowing) {
    if (!sowing || !sowing.frames || model.get("delay") === 0) {
      if (!animating) drawView();
      return;
    }
    queue.push(sowing);
    if (animating) return;
    animating = true;
    root.dataset.animating = "true";
    skip.disabled = false;
    for (const button of pits) button.setAttribute("aria-disabled", "true");
    undo.disabled = true;
    next();
  }

  // Skip: drop what is left of the sowings and show the position now.
  function finish() {
    clearTimeout(timer);
    queue = [];
    animating = false;
    drawView();
  }

  function clickPit(pit) {
    if (animating) return;
    const view = model.get("view");
    const move = view.moves.find((m) => m.pit === pit);
    // An illegal pit is sent too: Python answers with the engine's reason.
    if (move && view.person_to_move) model.send({ kind: "play", pit: move.number });
  }

  function hover(pit) {
    hovered = pit;
    if (!animating) drawView();
  }

  // Keys, as in the web app and `ayo play`: 1 to 6 sow the mover's pits,
  // Escape skips the sowing. Jupyter's own shortcuts are kept out of the board.
  root.tabIndex = 0;
  root.dataset.lmSuppressShortcuts = "true";
  root.addEventListener("keydown", (event) => {
    if (event.target !== root) return;
    if (event.key === "Escape" && animating) {
      finish();
    } else if (event.key >= "1" && event.key <= "6" && !animating) {
      const view = model.get("view");
      if (view.person_to_move) model.send({ kind: "play", pit: Number(event.key) });
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  });

  const onView = () => {
    if (!animating) drawView();
  };
  const onSowing = () => start(model.get("sowing"));
  model.on("change:view", onView);
  model.on("change:sowing", onSowing);
  drawView();
  return () => {
    clearTimeout(timer);
    model.off("change:view", onView);
    model.off("change:sowing", onSowing);
  };
}

export default { render };
