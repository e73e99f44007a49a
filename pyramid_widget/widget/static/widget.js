// Pyramid Solitaire: the anywidget frontend (one plain ES module, no bundler, no network).
//
// The page is a view: it draws the `board` trait and sends *intents* with
// model.send({kind, ...}). Python checks every intent against the engine and only then
// changes traits; this file never decides whether a move is legal.
// anywidget sends this file's text and imports it from a blob: URL (loadEsm in anywidget's
// frontend), so relative imports of sibling files cannot resolve; splitting it would need a
// bundler. Everything lives here but the card faces' data, which comes in the `faces` trait.
//
// Text from Python (rule names and descriptions, messages, deal labels, banners, stats, the
// indicator, card labels) reaches the DOM only as text: textContent, text nodes and attribute
// values, through h() below. Never innerHTML, insertAdjacentHTML or outerHTML with a trait's
// value: a rule set or a saved game may be named "<img src=x onerror=...>". The one innerHTML
// in this file is a card face (faceSVG), markup built from the `faces` trait only after
// useFaces() checked every number, path and label in it; a card's rank and suit are checked
// against those faces first, so no other trait text gets into it.

// Card faces come from the widget's `faces` trait: pyramid_widget/engine/faces.json, the one
// source shared with the static SVG picture (pyramid_widget/engine/svg.py). useFaces() checks
// every entry first (numbers are finite numbers, path data has only path characters, labels
// are one or two letters or digits) and keeps ready-made markup of the checked data only.
let FACES = null;
let FACES_FROM = null;
const PATH_DATA = /^[MmLlHhVvCcSsQqTtAaZz0-9 .,-]+$/;

/** Check the `faces` trait and keep it (null: no faces, every card draws empty). */
function useFaces(data) {
  if (data === FACES_FROM) return;
  FACES_FROM = data;
  FACES = null;
  const num = (v) => typeof v === "number" && Number.isFinite(v);
  const need = (ok) => { if (!ok) throw new Error("bad faces"); };
  try {
    const suits = {};
    for (const s of ["C", "D", "H", "S"]) {
      suits[s] = data.suits[s].map((p) => {
        if (typeof p.d === "string") { need(PATH_DATA.test(p.d)); return `<path d="${p.d}"/>`; }
        need(num(p.cx) && num(p.cy) && num(p.r));
        return `<circle cx="${p.cx}" cy="${p.cy}" r="${p.r}"/>`;
      }).join("");
    }
    const pips = {};
    for (let r = 2; r <= 10; r++) pips[r] = data.pips[r].map(([x, y]) => { need(num(x) && num(y)); return [x, y]; });
    const index = {};
    for (let r = 1; r <= 13; r++) { index[r] = data.index[r] ?? String(r); need(/^[A-Z0-9]{1,2}$/.test(index[r])); }
    const courts = {};
    for (let r = 11; r <= 13; r++) {
      const c = data.courts[r];
      need(/^[A-Z]$/.test(c.letter) && PATH_DATA.test(c.emblem));
      courts[r] = { letter: c.letter, emblem: c.emblem };
    }
    const numbers = (o, keys) => keys.map((k) => { need(num(o[k])); return o[k]; });
    const [cx, cy, size, size2, pipY, pipSize] = numbers(data.corner, ["x", "y", "size", "size_two_digits", "pip_y", "pip_size"]);
    const [ace, aceSpade] = numbers(data.ace, ["size", "spade_size"]);
    const frame = data.court.frame.map((v) => { need(num(v)); return v; });
    const [letterY, letterSize, courtPipY, courtPipSize] = numbers(data.court, ["letter_y", "letter_size", "pip_y", "pip_size"]);
    need(num(data.pip_size) && frame.length === 5);
    FACES = { suits, pips, index, courts, red: new Set(data.red.filter((s) => Object.hasOwn(suits, s))),
      corner: { cx, cy, size, size2, pipY, pipSize }, ace, aceSpade, pip: data.pip_size,
      court: { frame, letterY, letterSize, pipY: courtPipY, pipSize: courtPipSize } };
  } catch {
    FACES = null;
  }
}

// Keyboard help: [keys, what they do, the toolbar control they need (hidden control: no row)].
const KEYS_HELP = [
  ["Tab", "into the board (one stop) and out again"],
  ["Left, Right", "the next card you can play, row by row of the layout (the piles last)"],
  ["Up, Down", "the nearest card you can play above or below"],
  ["Enter or Space", "select a card, then its partner; a King goes at once where Kings go alone"],
  ["Second card", "if it does not pair, it becomes the selection (a covered card clears it)"],
  ["Escape", "cancel the selection (or click the empty felt), close a panel"],
  ["D", "draw (or redeal when the stock is empty, or deal the next round)", "", "stock"],
  ["U or Ctrl+Z", "undo", "undo"],
  ["R or Ctrl+Y", "redo", "redo"],
  ["H", "hint (press again for the solver's winning move, when available)", "hint"],
  ["C", "move the selected card to the cell (egypt)", "", "cell"],
  ["P", "pause or resume", "pause"],
  ["N", "new deal", "new"],
  ["?", "this help", "help"],
];
const TOOLBAR = [
  ["new", "New deal", "N"], ["restart", "Restart", ""], ["undo", "Undo", "U"],
  ["redo", "Redo", "R"], ["hint", "Hint", "H"], ["pause", "Pause", "P"],
  ["solve", "Solve", ""], ["truth", "Can I win?", ""], ["stats", "Stats", ""],
  ["help", "Keys", "?"],
];
// Plain keys for toolbar controls (Ctrl+Z / Ctrl+Y are handled with the other chords).
const SHORTCUTS = { u: "undo", r: "redo", h: "hint", p: "pause", n: "new", "?": "help" };
// Traits whose change redraws the whole view (one render per batch).
const VIEW_TRAITS = ["board", "status", "highlight", "paused", "controls", "theme", "truth", "stats",
  "autoplay", "features", "banner", "compact", "busy", "solve_speed", "post_mortem_text", "rules_info", "assisted"];
// Solve speeds (seconds between the solver's moves; "step": one move per click on Next move).
const SPEEDS = [["slow", "Slow", 1000], ["normal", "Normal", 420], ["fast", "Fast", 120], ["step", "Step by step", 0]];
// What a touch on (or a drop onto) a face-down card says; Python's why_unavailable says the same.
const FACE_DOWN = "That card is face down: it turns over once nothing covers it.";
const moveWord = (n) => `${n} ${n === 1 ? "move" : "moves"}`;
// The panel around the board (the `panel` trait): what its data may name. Anything else is
// left out (a feedback kind outside the list is "info"; a class or action of other
// characters is dropped), so no trait text becomes a class name, a selector or markup.
const FEEDBACK_KINDS = new Set(["info", "success", "mistake"]);
const PANEL_ACTION = /^[a-z][a-z-]{0,29}$/;
const CLASS_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,60}$/;
const asText = (v) => (v === undefined || v === null ? "" : String(v));

/** Return one suit symbol as SVG markup placed in the box (x, y, size), upside down if asked. */
function pip(suit, cx, cy, size, flip = false) {
  const k = size / 100;
  const rot = flip ? ` rotate(180 ${cx} ${cy})` : "";
  return `<g transform="${rot} translate(${cx - size / 2} ${cy - size / 2}) scale(${k})">${FACES.suits[suit]}</g>`;
}

/** Whether (rank, suit) is a real card of the checked faces (a rank 1..13, a suit letter). */
function isCard(rank, suit) {
  return FACES !== null && Number.isInteger(rank) && rank >= 1 && rank <= 13 && Object.hasOwn(FACES.suits, suit);
}

/** Return the inline SVG of a card face (viewBox 100 x 140), built from the checked faces only:
 * anything but a real rank and suit gives an empty face, so no outside text enters the markup. */
export function faceSVG(rank, suit) {
  if (!isCard(rank, suit)) return '<svg viewBox="0 0 100 140" aria-hidden="true" focusable="false"></svg>';
  const r = FACES.index[rank];
  const k = FACES.corner;
  const fs = r.length > 1 ? k.size2 : k.size;
  const corner = `<text x="${k.cx}" y="${k.cy}" font-size="${fs}" text-anchor="middle" class="pyr-idx">${r}</text>${pip(suit, k.cx, k.pipY, k.pipSize)}`;
  let centre = "";
  if (rank === 1) centre = pip(suit, 50, 70, suit === "S" ? FACES.aceSpade : FACES.ace);
  else if (FACES.pips[rank]) centre = FACES.pips[rank].map(([x, y]) => pip(suit, x, y, FACES.pip, y > 70)).join("");
  else {
    const c = FACES.court;
    const [x, y, w, hgt, rx] = c.frame;
    centre = `<rect x="${x}" y="${y}" width="${w}" height="${hgt}" rx="${rx}" class="pyr-frame"/>` +
      `<path d="${FACES.courts[rank].emblem}" class="pyr-emblem"/>` +
      `<text x="50" y="${c.letterY}" font-size="${c.letterSize}" text-anchor="middle" class="pyr-court">${FACES.courts[rank].letter}</text>` +
      pip(suit, 50, c.pipY, c.pipSize);
  }
  return `<svg viewBox="0 0 100 140" aria-hidden="true" focusable="false">${corner}` +
    `<g transform="rotate(180 50 70)">${corner}</g>${centre}</svg>`;
}

// Small cards (under 40 px: a wide layout in a narrow column, two pyramids in 500 px) show a
// big index and suit instead of the full face, whose corner is too small to read there.
const SUIT_SIGNS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

/** The small card's face: the checked index and a fixed suit sign, as text (no markup). */
function miniFace(rank, suit) {
  if (!isCard(rank, suit) || !Object.hasOwn(SUIT_SIGNS, suit)) return null;
  return h("span.pyr-mini", { "aria-hidden": "true" }, h("b", { text: FACES.index[rank] }), h("i", { text: SUIT_SIGNS[suit] }));
}

/** Small DOM helper: h("div.a.b", {attr: v}, ...children). */
function h(tag, attrs = {}, ...kids) {
  const [name, ...classes] = tag.split(".");
  const node = document.createElement(name);
  if (classes.length) node.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid) node.append(kid);
  return node;
}

/** Give a pile's caption its names, longest first: the first is the full name (read by screen
 * readers, and the tooltip when a shorter one shows); `fitCaptions` picks the one that fits. */
function setCaption(caption, names) {
  if (!caption.names || caption.names[0] !== names[0]) caption.firstChild.textContent = names[0];
  caption.names = names;
  caption.lastChild.textContent = names[0];
}

function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Everything one view owns: its DOM, its selection, its timers. */
class PyramidView {
  constructor(model, el) {
    this.model = model;
    this.el = el;
    this.selected = null;
    this.cardEls = new Map();
    this.press = null;
    this.syncedAt = performance.now();
    this.timers = new Set();
    useFaces(model.get("faces"));
    this.build();
    this.listen();
    this.renderAll();
    this.renderHostPanel();
  }

  get board() { return this.model.get("board") || {}; }

  /** The toolbar controls the host shows (the `controls` trait). */
  get controls() { return this.model.get("controls") || TOOLBAR.map((t) => t[0]); }

  /** The compact display for hand-made positions (the `compact` trait). */
  get compact() { return !!this.model.get("compact"); }

  /** Timing probe for benchmarks: pushes [label, time] when window.__pyrTrace is an array. */
  trace(label) {
    const t = globalThis.__pyrTrace;
    if (Array.isArray(t)) t.push([label, performance.now()]);
  }

  send(msg) {
    this.trace("send");
    msg.seq = (this.seq = (this.seq || 0) + 1);
    msg.sent_at = Date.now();
    this.model.send(msg);
    return msg.seq;
  }

  // ----- skeleton ---------------------------------------------------------------------------
  build() {
    this.toolbar = h("div.pyr-toolbar", { role: "toolbar", "aria-label": "Pyramid game controls" });
    this.buttons = {};
    for (const [kind, label, key] of TOOLBAR) {
      const b = h("button.pyr-btn", {
        type: "button", "data-action": kind, title: key ? `${label} (${key})` : label,
        onclick: () => this.action(kind),
      }, label);
      this.buttons[kind] = b;
      this.toolbar.append(b);
    }
    // Solve's speed and its "Next move" step sit right after the Solve button.
    this.speedEl = h("select.pyr-speed", { "aria-label": "Solve speed", title: "Solve speed",
      onchange: () => this.send({ kind: "solve-speed", speed: this.speedEl.value }) },
    ...SPEEDS.map(([v, label]) => h("option", { value: v }, label)));
    this.stepBtn = h("button.pyr-btn", { type: "button", "data-action": "solve-next", hidden: true,
      onclick: () => this.send({ kind: "solve-step" }) }, "Next move");
    this.buttons.solve.after(this.speedEl, this.stepBtn);
    // The status line holds the ticking clock: no live region here (it would announce every
    // second). Moves and errors are announced politely by the hidden live region below.
    this.status = h("div.pyr-status");
    this.live = h("div.pyr-live", { role: "status", "aria-live": "polite", "aria-atomic": "true" });
    this.boardEl = h("div.pyr-board", { "aria-label": "Pyramid solitaire board", role: "group" });
    this.slotsEl = h("div.pyr-slots");
    this.boardEl.append(this.slotsEl);
    // The message floats over the top of the felt (it never moves the board) and above the
    // won/lost banner; the live region says it aloud.
    // The band keeps one line of room; a longer message (a narrow column) grows down over the
    // top of the board on its own background, never as bare text over the cards.
    this.msgText = h("span.pyr-message-text");
    this.msgEl = h("div.pyr-message.is-empty", { "data-kind": "info" }, this.msgText);
    this.banner = h("div.pyr-banner", { hidden: true });
    this.pauseEl = h("div.pyr-paused", { hidden: true },
      h("div.pyr-paused-title", { text: "Paused" }),
      h("button.pyr-btn.pyr-primary", { type: "button", "data-action": "resume", onclick: () => this.send({ kind: "resume" }) }, "Resume"));
    // The wide family layouts (three pyramids side by side) keep cards of at least 24 px: in a
    // column too narrow for that, the board scrolls sideways inside the felt.
    this.scrollEl = h("div.pyr-scroll", {}, this.boardEl);
    this.scrollEl.addEventListener("scroll", () => this.markEdges(), { passive: true });
    this.felt = h("div.pyr-felt", {}, this.msgEl, this.scrollEl, this.banner, this.pauseEl);
    // A click on the empty felt cancels the selection.
    this.felt.addEventListener("click", (e) => {
      if (!e.target.closest(".pyr-card, .pyr-slot-face, button, select, input, .pyr-banner-box")) this.select(null);
    });
    this.panel = h("div.pyr-panel", { hidden: true });
    // The host's panel (a lesson) sits above and below the board inside the same root, so
    // the root's key guard (captureKeys, keyDown) covers its buttons and picker as well.
    this.buildHostPanel();
    this.root = h("div.pyr-root", { "data-lm-suppress-shortcuts": "true" },
      this.hostTop, this.toolbar, this.panel, this.status, this.felt, this.hostBottom, this.live);
    this.el.append(this.root);
  }

  listen() {
    const m = this.model;
    this.onChange = () => this.schedule();
    for (const name of VIEW_TRAITS) m.on(`change:${name}`, this.onChange);
    this.onStatus = () => this.renderStatus();
    for (const name of ["score", "moves", "elapsed", "clock_running", "clock_at"]) m.on(`change:${name}`, this.onStatus);
    this.onMessage = () => { this.msgHidden = false; this.renderMessage(); };
    m.on("change:message", this.onMessage);
    m.on("change:message_kind", this.onMessage);
    this.onEvent = () => this.renderEvent();
    m.on("change:last_event", this.onEvent);
    this.onHostPanel = () => this.renderHostPanel();
    m.on("change:panel", this.onHostPanel);
    this.root.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.root.addEventListener("keydown", (e) => { if (e !== this.captured) this.keyDown(e); });
    this.captureKeys();
    this.clock = setInterval(() => this.renderClock(), 500);
    // The clock stops while the page is hidden (another tab, a minimised window).
    this.onVisibility = () => this.send({ kind: "visibility", hidden: document.visibilityState === "hidden" });
    document.addEventListener("visibilitychange", this.onVisibility);
    // Roving tabindex: the board is one tab stop; remember which card or pile has it.
    // Small cards (under 40 px: a wide layout in a narrow column) show the big-index face.
    if (typeof ResizeObserver === "function") {
      // A new width: cards may turn small, an edge may hide more board, a caption may not fit.
      this.sizer = new ResizeObserver(() => { this.measure(); this.fitCaptions(); });
      this.sizer.observe(this.felt);
    }
    this.boardEl.addEventListener("focusin", (e) => {
      const n = e.target;
      if (this.navigables().includes(n)) { this.current = this.keyOf(n); this.updateRoving(); }
    });
  }

  /** Whether the cards are drawn small (the felt's width over the board's width in cards). */
  measure() {
    const probe = this.slotsEl.querySelector(".pyr-slot") || this.boardEl.querySelector(".pyr-card");
    if (!probe || !probe.offsetWidth) return;
    const small = String(probe.offsetWidth < 40);
    if (this.root.dataset.small !== small) this.root.dataset.small = small;
    this.markEdges();
  }

  /** Shade an edge of the felt where the board goes on out of view (a board wider than the
   * column scrolls): the player sees there is more even when no card is cut at that edge. */
  markEdges() {
    const sc = this.scrollEl;
    const more = sc.scrollWidth - sc.clientWidth;
    const left = String(more > 1 && sc.scrollLeft > 1);
    const right = String(more > 1 && sc.scrollLeft < more - 1);
    const d = this.felt.dataset;
    if (d.moreLeft !== left) d.moreLeft = left;
    if (d.moreRight !== right) d.moreRight = right;
  }

  destroy() {
    const m = this.model;
    if (this.sizer) this.sizer.disconnect();
    for (const name of VIEW_TRAITS) m.off(`change:${name}`, this.onChange);
    for (const name of ["score", "moves", "elapsed", "clock_running", "clock_at"]) m.off(`change:${name}`, this.onStatus);
    document.removeEventListener("visibilitychange", this.onVisibility);
    m.off("change:message", this.onMessage);
    m.off("change:message_kind", this.onMessage);
    m.off("change:last_event", this.onEvent);
    m.off("change:panel", this.onHostPanel);
    clearInterval(this.clock);
    for (const t of this.timers) clearTimeout(t);
    this.endPress();
    this.releaseKeys();
    this.root.removeEventListener("focusin", this.onFocusIn);
    this.root.removeEventListener("focusout", this.onFocusOut);
  }

  /** The focused element as this board sees it: inside marimo's shadow root,
   * `document.activeElement` is the shadow host, so the root node is asked. */
  activeEl() {
    const rootNode = this.root.getRootNode();
    return (rootNode && rootNode.activeElement) || document.activeElement;
  }

  later(fn, ms) {
    const t = setTimeout(() => { this.timers.delete(t); fn(); }, ms);
    this.timers.add(t);
  }

  // ----- rendering --------------------------------------------------------------------------
  /** One render per batch of trait changes (Python sends them together). */
  schedule() {
    if (this.pending) return;
    this.pending = true;
    this.trace("change");
    queueMicrotask(() => { this.pending = false; this.renderAll(); });
  }

  renderAll() {
    const b = this.board;
    const theme = this.model.get("theme") || "auto";
    this.root.dataset.theme = theme;
    this.root.dataset.status = this.model.get("status") || "playing";
    const pausedNow = !!this.model.get("paused");
    this.root.dataset.paused = String(pausedNow);
    this.root.dataset.rules = (b.rules && b.rules.name) || "";
    this.root.dataset.compact = String(this.compact);
    if (this.selected && !(b.cards || []).some((c) => c.id === this.selected && c.available)) this.selected = null;
    this.renderToolbar();
    this.renderSlots();
    this.renderCards();
    this.renderStatus();
    this.renderMessage();
    this.renderBanner();
    this.renderPanel();
    if (pausedNow && this.pauseEl.hidden && this.root.contains(this.activeEl())) {
      this.focusAfterPause = true;
      this.later(() => this.pauseEl.querySelector("button").focus({ preventScroll: true }), 0);
    }
    // Back from the pause: focus returns to the board's card (D, U, H work again at once).
    if (!pausedNow && !this.pauseEl.hidden && this.focusAfterPause) {
      this.focusAfterPause = false;
      this.later(() => this.focusCurrent(), 0);
    }
    this.pauseEl.hidden = !pausedNow;
    // "Winnable deals only": once the search runs (its progress is on the message line), the
    // New-deal panel closes.
    if (this.pendingWinnable && (this.model.get("busy") || {}).kind === "winnable") {
      this.pendingWinnable = false;
      this.newResult({ ok: true });
    }
    this.boardEl.classList.toggle("is-hidden", pausedNow);
    this.trace("rendered");
  }

  renderToolbar() {
    const controls = this.controls;
    const b = this.board;
    const features = this.model.get("features") || {};
    // Paused: the board is hidden, so no undo, hint or solver either (Stop still stops a line).
    const paused = !!this.model.get("paused");
    const playing = this.model.get("status") === "playing" && !paused;
    for (const [kind] of TOOLBAR) {
      const btn = this.buttons[kind];
      const needs = { stats: features.records, solve: features.assist, truth: features.assist }[kind];
      btn.hidden = !controls.includes(kind) || needs === false;
    }
    this.buttons.undo.disabled = !b.can_undo || paused;
    this.buttons.redo.disabled = !b.can_redo || paused;
    this.buttons.hint.disabled = !playing;
    this.buttons.solve.disabled = !playing;
    this.buttons.pause.textContent = paused ? "Resume" : "Pause";
    this.buttons.pause.setAttribute("aria-pressed", String(paused));
    const truth = this.model.get("truth") || {};
    this.buttons.truth.setAttribute("aria-pressed", String(!!truth.on));
    // Solve toggles: while its line plays (or it is thinking) the button stops it.
    const queued = (this.model.get("autoplay") || []).length > 0;
    const busy = this.model.get("busy") || {};
    const solving = queued || busy.kind === "solve";
    this.buttons.solve.disabled = !playing && !solving;
    this.buttons.solve.textContent = solving ? "Stop" : "Solve";
    this.buttons.solve.title = solving ? "Stop the solver" : "Solve: the solver plays a winning line";
    this.buttons.solve.setAttribute("aria-pressed", String(solving));
    const speed = this.model.get("solve_speed") || "normal";
    this.speedEl.value = speed;
    this.speedEl.hidden = this.buttons.solve.hidden;
    this.stepBtn.hidden = this.buttons.solve.hidden || !(queued && speed === "step");
    this.buttons.hint.disabled = !playing || busy.kind === "hint";
    // A toolbar button that had the focus and is disabled now (Undo back to the deal, Redo at
    // the end) would drop the focus to the page, whose shortcuts would then get D, U and R:
    // the focus goes back to the board's card instead.
    const active = this.activeEl();
    if (active && active.disabled && this.toolbar.contains(active)) this.focusCurrent();
  }

  /** Empty places and piles: stock, wastes, cells, discard. */
  renderSlots() {
    const b = this.board;
    const rules = b.rules || {};
    const wastes = rules.waste_piles || 1;
    const cells = rules.cells || 0;
    const slots = [];
    // Reserve piles (giza, pyramid_dozen) first, fanned, only their tops play.
    (b.reserve_counts || []).forEach((_, i) => slots.push(["reserve", i]));
    // No stock in the game (giza, pyramid_dozen, pharaohs): no deck, no waste, no Draw.
    if (rules.has_stock !== false) {
      slots.push(["stock", 0]);
      // A face-up stock top (relaxed, cheops, apophis) lies in its own place beside the deck:
      // a click on the deck always draws, the card itself is selected or dragged.
      if (rules.stock_face_up || rules.stock_top_available) slots.push(["stocktop", 0]);
      for (let i = 0; i < wastes; i++) slots.push(["waste", i]);
    }
    for (let i = 0; i < cells; i++) slots.push(["cell", i]);
    if (!this.compact) slots.push(["discard", 0]);
    this.slotIndex = {};
    slots.forEach(([zone, i], n) => { this.slotIndex[`${zone}${i}`] = n; });
    this.boardEl.style.setProperty("--nslots", String(slots.length));
    this.fitLayout(slots.length);
    this.measure();
    const key = slots.map((s) => s.join("")).join(",");
    if (this.slotsKey !== key) {
      this.slotsKey = key;
      this.slotsEl.replaceChildren(...slots.map(([zone, i], n) => this.makeSlot(zone, i, n)));
    }
    for (const slot of this.slotsEl.children) this.updateSlot(slot, b);
    this.fitCaptions();
  }

  /** A caption too wide for its slot takes its next shorter name ("Waste 1", "W 1", "W1"); the
   * full name stays for screen readers and as the tooltip. Reads all widths, then writes, per round. */
  fitCaptions() {
    const named = [...this.slotsEl.querySelectorAll(".pyr-caption")].filter((c) => c.names);
    for (const c of named) c.firstChild.textContent = c.names[0];
    let left = named;
    for (let level = 1; left.length; level++) {
      left = left.filter((c) => c.names.length > level && c.scrollWidth > c.clientWidth + 0.5);
      for (const c of left) c.firstChild.textContent = c.names[level];
    }
    for (const c of named) {
      if (c.firstChild.textContent !== c.names[0]) c.title = c.names[0];
      else c.removeAttribute("title");
    }
  }

  /** Size the board for the layout (data, not a fixed shape): the tableau's width in card
   * widths or the row of piles, whichever is wider, sets the card size (--fit); its rows set
   * the height; the deepest fan of a pile sets the room below. */
  fitLayout(nslots) {
    const lay = this.board.layout || {};
    const width = Number(lay.width) || 14, height = Number(lay.height) || 7;
    const cols = ((width - 2) / 2) * 1.1 + 1;
    const piles = nslots * 1.1 - 0.1;
    const fit = Math.max(cols, piles) + 0.3;
    const deepest = Math.max(0, ...(this.board.reserve_counts || []).map((n) => Math.min(n, 6)));
    const st = this.root.style;
    st.setProperty("--fit", fit.toFixed(3));
    st.setProperty("--xmid", String((width - 2) / 2));
    st.setProperty("--rows", String(height));
    st.setProperty("--maxfan", String(Math.max(2, deepest - 1)));
    // The waste pair (thirteen) plays the card beneath the waste top: the fan opens wider.
    st.setProperty("--fanstep", (this.board.rules || {}).waste_pair ? "0.22" : "0.13");
    this.root.dataset.wide = String(fit > 9);
    // A board wider than the column opens centred (the middle pyramid in view, both sides
    // cut at the edges to show there is more), once per layout.
    const layoutKey = `${(this.board.rules || {}).name}:${width}:${nslots}`;
    if (this.centredFor !== layoutKey) {
      this.centredFor = layoutKey;
      requestAnimationFrame(() => {
        const sc = this.scrollEl;
        sc.scrollLeft = Math.max(0, (sc.scrollWidth - sc.clientWidth) / 2);
        this.markEdges();
      });
    }
  }

  makeSlot(zone, i, n) {
    const slot = h("div.pyr-slot", { "data-zone": zone, "data-index": String(i), style: `--slot:${n}` },
      h("div.pyr-slot-face"),
      h("div.pyr-caption", {}, h("span.pyr-caption-text", { "aria-hidden": "true" }), h("span.pyr-sr")),
      h("span.pyr-badge"));
    const face = slot.firstChild;
    if (zone === "stock" || zone === "cell") {
      face.setAttribute("role", "button");
      face.setAttribute("tabindex", "-1");
      face.addEventListener("click", () => (zone === "stock" ? this.drawOrRedeal() : this.toCell()));
    }
    if (zone === "stock") {
      // Not a tab stop of its own: the board is one (the deck is reached with the arrows, D draws).
      const draw = h("button.pyr-draw", { type: "button", tabindex: "-1", "data-action": "draw", onclick: () => this.drawOrRedeal() });
      slot.append(draw);
    }
    return slot;
  }

  updateSlot(slot, b) {
    const zone = slot.dataset.zone;
    const i = Number(slot.dataset.index);
    const face = slot.querySelector(".pyr-slot-face");
    const caption = slot.querySelector(".pyr-caption");
    const badge = slot.querySelector(".pyr-badge");
    const wastes = b.waste_counts || [];
    let count = null;
    if (zone === "stock") {
      const n = (count = b.stock_count || 0);
      const passes = b.passes_left === null || b.passes_left === undefined ? "unlimited" : String(b.passes_left);
      face.classList.toggle("is-back", n > 0);
      const next = !!b.can_next_round;
      const what = next ? "deal the next round" : n > 0 ? "draw" : b.can_redeal ? "redeal" : "no redeals left";
      face.setAttribute("aria-label", `Stock, ${n} cards, ${passes} redeals left: ${what}`);
      const over = n === 0 && !next && !b.can_redeal && b.passes_left === 0;
      setCaption(caption, over ? ["No redeals", "Empty"] : ["Stock", "Stk"]);
      const draw = slot.querySelector(".pyr-draw");
      draw.textContent = next ? "Next round" : n > 0 ? "Draw" : "Redeal";
      draw.disabled = !(next || (n > 0 ? b.can_draw : b.can_redeal));
      // No greyed "Redeal" when the rules allow none: the button goes, the caption says so.
      draw.hidden = draw.disabled && n === 0;
      draw.title = `${draw.textContent} (D)`;
    } else if (zone === "reserve") {
      count = (b.reserve_counts || [])[i] || 0;
      face.setAttribute("aria-hidden", "true");
      setCaption(caption, [`Reserve ${i + 1}`, `Res ${i + 1}`, `R${i + 1}`]);
    } else if (zone === "stocktop") {
      face.setAttribute("aria-hidden", "true");
      setCaption(caption, ["Top card", "Top"]);
    } else if (zone === "waste") {
      count = wastes[i] || 0;
      face.setAttribute("aria-hidden", "true");
      setCaption(caption, wastes.length > 1 ? [`Waste ${i + 1}`, `W ${i + 1}`, `W${i + 1}`] : ["Waste", "W"]);
    } else if (zone === "cell") {
      const full = (b.cells || [])[i];
      face.setAttribute("aria-label", full ? `Cell, holds ${full}` : "Cell, empty: move the selected card here");
      setCaption(caption, ["Cell"]);
      face.classList.toggle("is-target", !full && !!this.selected);
    } else {
      count = b.discard_count || 0;
      setCaption(caption, ["Discard", "Out"]);
      face.setAttribute("aria-hidden", "true");
    }
    badge.hidden = count === null;
    badge.textContent = count === null ? "" : String(count);
    badge.className = `pyr-badge pyr-${zone}-count`;
  }

  /** Keyed update of the card elements so focus and transitions survive a move. */
  renderCards() {
    const b = this.board;
    const cards = (b.cards || []).filter((c) => !(this.compact && c.zone === "discard"));
    const seen = new Set();
    const hi = new Set(this.model.get("highlight") || []);
    const shown = {};
    for (const c of cards) if (c.zone === "waste" || c.zone === "reserve") {
      const k = `${c.zone}${c.index}`;
      shown[k] = Math.max(shown[k] || 0, c.depth + 1);
    }
    const before = this.posIds || new Map();
    this.posIds = new Map();
    // Where the focused card was before this render: if it is paired away to the discard or
    // covered again (an undo), the focus moves to the nearest playable card from there.
    const active = this.activeEl();
    const focusedCard = active && active.classList.contains("pyr-card") && this.boardEl.contains(active) ? active : null;
    const focusedSpot = focusedCard ? this.spot(focusedCard) : null;
    for (const c of cards) {
      seen.add(c.id);
      if (c.zone === "pyramid") this.posIds.set(c.pos, c.id);
      let node = this.cardEls.get(c.id);
      if (!node || node.classList.contains("is-leaving")) {
        // A tableau card turning over (uncovered, or covered again by an undo): the same
        // element shows its other side, with a short flip.
        const old = c.zone === "pyramid" ? this.cardEls.get(before.get(c.pos)) : null;
        if (old && old !== node && !old.classList.contains("is-leaving") && old.dataset.zone === "pyramid" && !seen.has(old.dataset.id)) {
          if (node) node.remove();
          this.cardEls.delete(old.dataset.id);
          this.turnCard(old, c);
          node = old;
        } else {
          if (node) node.remove();
          node = this.makeCard(c);
          this.boardEl.append(node);
        }
        this.cardEls.set(c.id, node);
      }
      this.placeCard(node, c, shown);
      node.classList.toggle("is-available", !!c.available);
      node.classList.toggle("is-playable", !!(c.available || c.playable));
      node.classList.toggle("is-covered", !c.available && !c.face_down);
      node.classList.toggle("is-selected", this.selected === c.id);
      node.classList.toggle("is-hint", hi.has(c.id));
      node.setAttribute("aria-label", c.label || c.name);
      node.setAttribute("aria-pressed", String(this.selected === c.id));
    }
    let refocus = null;
    for (const [id, node] of this.cardEls) {
      if (seen.has(id)) continue;
      if (active && node.contains(active)) refocus = this.spot(node); // (contains: itself too)
      this.cardEls.delete(id);
      node.classList.add("is-leaving");
      node.removeAttribute("data-zone");
      node.setAttribute("tabindex", "-1");
      this.later(() => node.remove(), 180);
    }
    this.slotsEl.querySelector('[data-zone="stock"] .pyr-slot-face')?.classList.toggle("is-hint", hi.has("stock"));
    // Focus that was on a card now gone (a pair, a King) or no longer playable (on the discard
    // pile, covered again) goes to the nearest playable card.
    if (!refocus && focusedCard && focusedCard === this.activeEl() && !focusedCard.classList.contains("is-playable"))
      refocus = focusedSpot;
    if (refocus) this.focusNear(refocus);
    this.updateRoving();
  }

  makeCard(c) {
    const node = h("div.pyr-card", { role: "button", tabindex: "-1", "data-id": c.id });
    this.paintCard(node, c);
    return node;
  }

  /** Draw a card's side: a face from the checked faces, or a back (a face-down card's entry
   * carries no rank, suit or name: nothing of its face reaches the page). */
  paintCard(node, c) {
    const down = !!c.face_down;
    node.classList.toggle("is-down", down);
    node.classList.toggle("is-red", !down && !!FACES && FACES.red.has(c.suit));
    node.classList.toggle("is-black", !down && !(FACES && FACES.red.has(c.suit)));
    // Two decks: the second deck's copy carries a small mark (its name says "second deck").
    node.classList.toggle("is-deck2", !down && c.deck === 2);
    if (down) node.replaceChildren();
    else {
      node.innerHTML = faceSVG(c.rank, c.suit); // fixed markup only (see faceSVG)
      const mini = miniFace(c.rank, c.suit);
      if (mini) node.append(mini);
    }
  }

  turnCard(node, c) {
    node.dataset.id = c.id;
    this.paintCard(node, c);
    node.classList.remove("is-flipping");
    void node.offsetWidth;
    node.classList.add("is-flipping");
    this.later(() => node.classList.remove("is-flipping"), 320);
  }

  placeCard(node, c, shown) {
    node.dataset.zone = c.zone;
    node.dataset.index = String(c.index);
    const s = node.style;
    if (c.zone === "pyramid") {
      // The layout's place: x in half card widths, y in rows (any shape: rule-set data).
      node.dataset.pos = String(c.pos);
      s.setProperty("--x", String(c.x));
      s.setProperty("--y", String(c.y));
      s.setProperty("--r", String(c.row));
      s.setProperty("--c", String(c.col));
      s.zIndex = String(10 + Math.round(c.y * 2));
      return;
    }
    const place = c.zone === "stock" ? "stocktop0" : `${c.zone}${c.zone === "discard" ? 0 : c.index}`;
    const slot = this.slotIndex[place] ?? this.slotIndex.stock0 ?? 0;
    s.setProperty("--slot", String(slot));
    const fanned = c.zone === "waste" || c.zone === "reserve";
    const fan = fanned ? (shown[`${c.zone}${c.index}`] || 1) - 1 - c.depth : 0;
    s.setProperty("--fan", String(fan));
    s.zIndex = String(40 + fan);
  }

  renderStatus() {
    const b = this.board;
    const rules = (b.rules && b.rules.name) || "";
    const deal = b.deal_number === null || b.deal_number === undefined ? "custom deal" : `deal #${b.deal_number}`;
    const limited = b.passes_left !== null && b.passes_left !== undefined;
    const round = (b.round || 1) > 1 ? `round ${b.round}` : "";
    // Compact (hand-made positions): no deal label, time or score; redeals left only if limited.
    const full = !this.compact;
    const where = [full ? deal : "", round].filter(Boolean).join(" · ");
    // Built as elements with text (never markup): the rule set's name comes from Python.
    const stat = (label, cls, value) => h("span.pyr-stat", {}, `${label} `, h(`b.${cls}`, { text: String(value) }));
    this.syncedAt = performance.now();
    const description = (b.rules && b.rules.description) || null;
    this.status.replaceChildren(
      h("span.pyr-rules", { text: this.ruleName(rules), title: description && String(description) }),
      ...(where ? [" ", h("span.pyr-deal", { text: where })] : []),
      ...(full ? [stat("Time", "pyr-time", "")] : []),
      stat("Moves", "pyr-moves", this.model.get("moves") ?? 0),
      ...(full ? [stat("Score", "pyr-score", this.model.get("score") ?? 0)] : []),
      ...((full || limited) && (b.rules || {}).has_stock !== false ? [stat("Redeals left", "pyr-passes-left", limited ? b.passes_left : "∞")] : []),
      ...(b.face_down_count ? [stat("Face down", "pyr-face-down", b.face_down_count)] : []));
    const truth = this.model.get("truth") || {};
    if (truth.on) {
      const words = { winnable: "Winnable", unwinnable: "Not winnable", thinking: "Thinking…", unknown: "Can't tell" };
      this.status.append(h("span.pyr-truth", { "data-state": truth.state || "thinking", title: truth.detail || "" },
        words[truth.state] || "Thinking…"));
    }
    this.renderClock();
  }

  /** A preset's name as the status line shows it ("double_pyramid": "double pyramid");
   * any other rule set's name exactly as given. */
  ruleName(name) {
    const text = String(name);
    const preset = /^[a-z]+(_[a-z]+)*$/.test(text) && (this.model.get("presets") || []).includes(text);
    return preset ? text.replace(/_/g, " ") : text;
  }

  renderClock() {
    const t = this.status.querySelector(".pyr-time");
    if (!t) return;
    // `elapsed` was measured at `clock_at` (seconds since the epoch): every view, however
    // late it opened, adds the same time since then, so all show the true time at once.
    let secs = this.model.get("elapsed") || 0;
    const at = this.model.get("clock_at");
    if (this.model.get("clock_running"))
      secs += at ? Math.max(0, Date.now() / 1000 - at) : (performance.now() - this.syncedAt) / 1000;
    t.textContent = formatTime(secs);
  }

  renderMessage() {
    // An error stops being true when the player touches the board again: it is hidden then
    // (this view only) until the next message or event.
    const text = this.msgHidden ? "" : this.model.get("message") || "";
    this.msgText.textContent = text;
    this.msgEl.dataset.kind = this.model.get("message_kind") || "info";
    this.msgEl.classList.toggle("is-empty", !text);
    this.announce(text);
  }

  /** Say `text` politely through the live region (never the clock); once per change. */
  announce(text) {
    if (text === this.announced) return;
    this.announced = text;
    this.live.textContent = text;
  }

  /** Hide a stale error when the player starts a new touch or drag. */
  clearStale() {
    if (this.model.get("message_kind") === "error" && !this.msgHidden) {
      this.msgHidden = true;
      this.renderMessage();
    }
  }

  /** A refused move shakes the cards it named; the words come with the `message` trait. */
  renderEvent() {
    const ev = this.model.get("last_event") || {};
    if (ev.kind === "panel") this.renderHostPanel(); // a refused pick: the picker shows the lesson again
    if (this.msgHidden) { this.msgHidden = false; this.renderMessage(); }
    if (ev.kind === "new" && this.pendingNew !== undefined && ev.seq === this.pendingNew) this.newResult(ev);
    if (ev.ok !== false) return;
    // A refused pair: the second card touched becomes the selection (when it is available).
    if (ev.kind === "pair" && this.pairTry && ev.seq === this.pairTry.seq) {
      const second = (this.board.cards || []).find((c) => c.id === this.pairTry.second && (c.available || c.playable));
      this.pairTry = null;
      if (second) this.select(second.id);
    }
    for (const id of ev.cards || []) {
      const node = this.cardEls.get(id);
      if (!node) continue;
      node.classList.remove("is-wrong");
      void node.offsetWidth;
      node.classList.add("is-wrong");
      this.later(() => node.classList.remove("is-wrong"), 450);
    }
  }

  renderBanner() {
    const status = this.model.get("status");
    const b = this.board;
    const truth = this.model.get("truth") || {};
    if (status === "playing" || this.model.get("banner") === false) {
      // Its New deal or Restart pressed (by Enter or a click): the focus goes to the new
      // game's cards, not to the page with the hidden button.
      const had = !this.banner.hidden && this.banner.contains(this.activeEl());
      this.banner.hidden = true;
      this.bannerKey = null;
      if (had) this.focusCurrent();
      return;
    }
    const assisted = !!this.model.get("assisted");
    const ended = JSON.stringify([status, b.can_next_round, b.round, this.model.get("score"),
      this.model.get("moves"), b.deal_number, assisted]);
    const pm = this.model.get("post_mortem_text") || truth.post_mortem || "";
    const busy = this.model.get("busy") || {};
    const key = JSON.stringify([ended, this.model.get("status_reason"), pm, busy.kind || "", this.controls]);
    // Dismissed (to study the final position): hidden until the game ends anew.
    if (this.bannerDismissed === ended) { this.banner.hidden = true; return; }
    if (key === this.bannerKey && !this.banner.hidden) return;
    this.bannerKey = key;
    const focusInside = this.root.contains(this.activeEl());
    const won = status === "won";
    // A game the solver played or hinted is won with its help: no "You won!", no score (the
    // records keep it apart as assisted, never a win, a streak or a best).
    const title = b.can_next_round ? `Round ${b.round || 1} complete!`
      : won ? (assisted ? "Won with the solver's help" : "You won!") : "No more moves";
    const reason = this.model.get("status_reason") || "";
    const t = formatTime(this.model.get("elapsed") || 0);
    const detail = pm ? h("p.pyr-banner-detail", { text: pm }) : null;
    const button = (action, label, primary) => h(`button.pyr-btn${primary ? ".pyr-primary" : ""}`,
      { type: "button", "data-action": action, onclick: () => this.send({ kind: action }) }, label);
    // "New deal" and "Restart" only when the host shows them in the toolbar too.
    const buttons = b.can_next_round ? [button("next-round", "Next round", true)]
      : [["new", "New deal"], ["restart", "Restart"]].filter(([k]) => this.controls.includes(k))
        .map(([k, label], i) => button(k, label, i === 0));
    // After any loss: the post-mortem on demand (computed in the background).
    const features = this.model.get("features") || {};
    if (status === "lost" && !pm && features.assist !== false) {
      const ask = button("post-mortem", busy.kind === "post-mortem" ? "Looking…" : "Could I have won?", false);
      ask.disabled = busy.kind === "post-mortem";
      buttons.push(ask);
    }
    const dismiss = h("button.pyr-btn.pyr-dismiss", { type: "button", "data-action": "dismiss",
      title: "Hide this to study the final position", onclick: () => {
        this.bannerDismissed = ended;
        this.banner.hidden = true;
        this.focusCurrent();
      } }, "Study the board");
    buttons.push(dismiss);
    this.banner.className = `pyr-banner ${won ? "is-won" : "is-lost"}`;
    this.banner.replaceChildren(h("div.pyr-banner-box", { role: "dialog", "aria-label": title },
      h("div.pyr-banner-title", { text: title }),
      h("p.pyr-banner-reason", { text: reason }),
      h("p.pyr-banner-figures", { text: `${assisted ? "Assisted" : `Score ${this.model.get("score") ?? 0}`} · ${moveWord(this.model.get("moves") ?? 0)} · ${t}` }),
      detail, h("div.pyr-banner-buttons", {}, ...buttons)));
    this.banner.hidden = false;
    if (focusInside && buttons.length) buttons[0].focus({ preventScroll: true });
  }

  // ----- the host's panel around the board (the `panel` trait) ------------------------------
  // A lesson's header, picker, prompt, feedback line and buttons, from plain data: every text
  // is set as text (a lesson titled "<img src=x onerror=...>" shows those characters), kinds
  // and actions are checked against the lists above. The elements stay across updates (the
  // buttons keyed by action), so the focus stays on a button pressed from the keyboard.
  buildHostPanel() {
    this.pickerSelect = h("select", { "aria-label": "Lesson", onchange: () =>
      this.send({ kind: "panel", action: "pick", index: this.pickerSelect.selectedIndex }) });
    this.pickerWord = document.createTextNode("");
    this.pickerEl = h("label.pyr-lesson-picker", {}, this.pickerWord, this.pickerSelect);
    this.headerEl = h("div.pyr-lesson-header");
    this.promptEl = h("div.pyr-lesson-prompt");
    this.hostTop = h("div.pyr-lesson-top", { hidden: true },
      h("div.pyr-lesson-bar", {}, this.headerEl, this.pickerEl), this.promptEl);
    this.feedbackEl = h("div.pyr-lesson-feedback");
    this.hostButtonsEl = h("div.pyr-lesson-buttons", { role: "group", "aria-label": "Lesson steps" });
    this.hostButtons = new Map();
    this.hostBottom = h("div.pyr-lesson-bottom", { hidden: true }, this.feedbackEl, this.hostButtonsEl);
    this.hostClasses = [];
  }

  renderHostPanel() {
    const raw = this.model.get("panel");
    const p = raw && typeof raw === "object" && !Array.isArray(raw) ? raw : {};
    const on = Object.keys(p).length > 0;
    this.hostTop.hidden = !on;
    this.hostBottom.hidden = !on;
    const classes = (Array.isArray(p.classes) ? p.classes : []).filter((c) => typeof c === "string" && CLASS_NAME.test(c) && c !== "pyr-root");
    for (const c of this.hostClasses) if (!classes.includes(c)) this.root.classList.remove(c);
    for (const c of classes) this.root.classList.add(c);
    this.hostClasses = classes;
    if (!on) return;
    const part = (v) => (v && typeof v === "object" ? v : {});
    this.renderHostHeader(part(p.header));
    this.renderHostPicker(part(p.picker));
    this.renderHostPrompt(Array.isArray(p.prompt) ? p.prompt : []);
    this.renderHostFeedback(part(p.feedback));
    this.renderHostButtons(Array.isArray(p.buttons) ? p.buttons : []);
  }

  renderHostHeader(hd) {
    const state = asText(hd.state);
    const dots = asText(hd.dots);
    const count = (ch) => [...dots].filter((d) => d === ch).length;
    const said = `${count("●")} done, ${count("◐")} shown, ${count("○")} to do`;
    this.headerEl.replaceChildren(
      h("b.pyr-lesson-title", { text: asText(hd.title) }), " — ",
      h("span.pyr-lesson-progress", { text: asText(hd.progress) }), " ",
      h("span.pyr-lesson-dots", { text: dots, title: asText(hd.dots_title) || null, role: "img", "aria-label": `Steps: ${said}` }),
      ...(state ? [" · ", h("span.pyr-lesson-done", { text: state })] : []),
      h("div.pyr-lesson-course", { text: asText(hd.course) }));
  }

  renderHostPicker(pk) {
    const options = Array.isArray(pk.options) ? pk.options.map(asText) : [];
    this.pickerEl.hidden = options.length === 0;
    this.pickerWord.textContent = pk.label ? `${asText(pk.label)} ` : "";
    const key = JSON.stringify(options);
    if (key !== this.pickerKey) {
      this.pickerKey = key;
      this.pickerSelect.replaceChildren(...options.map((o, i) => h("option", { value: String(i), text: o })));
    }
    this.pickerSelect.selectedIndex = Number.isInteger(pk.selected) ? pk.selected : -1;
  }

  renderHostPrompt(items) {
    this.promptEl.replaceChildren(...items.map((item) => {
      const it = item && typeof item === "object" ? item : { text: item };
      return h("p", {}, h(it.style === "intro" ? "i" : "b", { text: asText(it.text) }));
    }));
  }

  renderHostFeedback(fb) {
    const kind = FEEDBACK_KINDS.has(fb.kind) ? fb.kind : "info";
    const summary = asText(fb.summary);
    this.feedbackEl.replaceChildren(h("p.pyr-lesson-says", { "data-kind": kind, text: asText(fb.text) }),
      ...(summary ? [h("p.pyr-lesson-summary", {}, h("i", { text: summary }))] : []));
  }

  renderHostButtons(list) {
    const items = list.filter((b) => b && typeof b === "object" && PANEL_ACTION.test(b.action) && b.action !== "pick");
    const active = this.activeEl();
    let lost = null;
    const nodes = items.map((b) => {
      let node = this.hostButtons.get(b.action);
      if (!node) {
        node = h(`button.pyr-btn.pyr-lesson-${b.action}`, { type: "button", "data-panel-action": b.action,
          onclick: () => this.send({ kind: "panel", action: b.action }) });
        this.hostButtons.set(b.action, node);
      }
      node.textContent = asText(b.label);
      if (b.disabled && node === active) lost = node;
      node.disabled = !!b.disabled;
      node.classList.toggle("pyr-primary", !!b.primary);
      return node;
    });
    for (const action of [...this.hostButtons.keys()]) if (!items.some((b) => b.action === action)) this.hostButtons.delete(action);
    const key = items.map((b) => b.action).join(" ");
    if (key !== this.hostButtonsKey) {
      this.hostButtonsKey = key;
      this.hostButtonsEl.replaceChildren(...nodes);
    }
    // A button pressed from the keyboard that is disabled now (Previous on the first step)
    // hands the focus to its nearest enabled neighbour, never to the page (whose shortcuts
    // would then get the keys).
    if (lost) {
      const i = nodes.indexOf(lost);
      const next = [...nodes.slice(i + 1), ...nodes.slice(0, i).reverse()].find((n) => !n.disabled);
      if (next) next.focus({ preventScroll: true });
      else this.focusCurrent();
    }
  }

  // ----- panels (new deal, keys, stats) -----------------------------------------------------
  togglePanel(name) {
    if (this.panelName === name) { this.closePanel(); return; }
    this.panelName = name;
    this.renderPanel();
    if (this.panelName) this.panel.querySelector("select, input, button")?.focus();
  }

  /** Close the open panel; focus inside it goes back to the board, never to the page. */
  closePanel() {
    if (!this.panelName) return;
    const inside = this.panel.contains(this.activeEl());
    // A refused deal's error is shown in the panel and on the message line: it goes with the
    // panel (the board did not change).
    if (this.panelName === "new" && this.newError && !this.newError.hidden) this.clearStale();
    this.panelName = null;
    this.renderPanel();
    if (inside) this.focusCurrent();
  }

  renderPanel() {
    const name = this.panelName;
    this.panel.hidden = !name;
    for (const k of ["new", "help", "stats"]) this.buttons[k].setAttribute("aria-expanded", String(name === k));
    if (!name) return;
    if (name === this.panelShown && name !== "stats") return;
    this.panelShown = name;
    if (name === "help") this.panel.replaceChildren(this.helpPanel());
    else if (name === "new") this.panel.replaceChildren(this.newPanel());
    else this.panel.replaceChildren(this.statsPanel());
  }

  helpPanel() {
    const rules = this.board.rules || {};
    const has = { stock: rules.has_stock !== false, cell: (rules.cells || 0) > 0 };
    const rows = KEYS_HELP.filter(([, , c, needs]) => (!c || this.controls.includes(c)) && (!needs || has[needs]))
      .map(([k, v]) => h("tr", {}, h("th", { text: k }), h("td", { text: v })));
    // What pairs and how to win: from the rule set's data (Python's how_to_play), not fixed text.
    const kings = rules.kings_alone ? " A King goes with one click." : "";
    const draw = has.stock ? ` Click the deck to draw${rules.stock_top_available ? "; the face-up top card beside it is played like any card" : ""}.` : "";
    const source = rules.source ? h("p.pyr-source", { text: `Rules: ${rules.source}.` }) : null;
    return h("div.pyr-help", { "aria-label": "Keyboard help" },
      h("p.pyr-how", { text: String(rules.how || "") }),
      h("p", { text: `Click a card, then its partner, or drag one onto the other.${kings}${draw}` }),
      source,
      h("table", {}, h("tbody", {}, ...rows)));
  }

  newPanel() {
    const presets = this.model.get("presets") || ["easy", "medium", "hard"];
    const current = (this.board.rules && this.board.rules.name) || "medium";
    const info = this.model.get("rules_info") || {};
    // The presets in their groups (classic, variants of the seeds, the family), in order.
    const groups = [];
    for (const p of presets) {
      const d = info[p] || {};
      const title = String(d.group_title || "Other");
      let g = groups.find((x) => x.title === title);
      if (!g) groups.push((g = { title, key: String(d.group || "other"), names: [] }));
      g.names.push(p);
    }
    const option = (p) => h("option", { value: p, selected: p === current }, p);
    const select = h("select.pyr-rules-select", { "aria-label": "Rule set" },
      ...(groups.length > 1
        ? groups.map((g) => h("optgroup", { label: g.title, "data-group": /^[a-z]+$/.test(g.key) ? g.key : "other" }, ...g.names.map(option)))
        : presets.map(option)));
    // Each rule set's description and source where it is chosen (text from Python, as text).
    const desc = h("p.pyr-rules-desc", { "aria-live": "polite" });
    const describe = () => {
      const d = info[select.value] || {};
      desc.replaceChildren(...[d.description, d.how].filter(Boolean).map((t) => `${t} `),
        ...(d.source ? [h("span.pyr-rules-source", { text: `Source: ${d.source}.` })] : []));
    };
    select.addEventListener("change", describe);
    describe();
    const deal = h("input.pyr-deal-input", { type: "text", inputmode: "numeric", placeholder: "random", "aria-label": "Deal number (blank for random)", size: "8" });
    const features = this.model.get("features") || {};
    const winnable = h("input.pyr-winnable", { type: "checkbox", "aria-label": "Winnable deals only" });
    // "Winnable deals only" picks the deal itself: the deal box is cleared and disabled.
    winnable.addEventListener("change", () => {
      deal.disabled = winnable.checked;
      if (winnable.checked) deal.value = "";
    });
    this.newError = h("p.pyr-new-error", { role: "alert", hidden: true });
    const go = () => {
      const msg = { kind: "new", rules: select.value };
      if (deal.value.trim() && !winnable.checked) msg.deal = deal.value.trim();
      if (winnable.checked) msg.winnable = true;
      this.newError.hidden = true;
      // The panel stays open until the deal is on the board (a bad deal's error shows here).
      this.pendingNew = this.send(msg);
      this.pendingWinnable = !!msg.winnable;
    };
    deal.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
    return h("div.pyr-new", {},
      h("div.pyr-new-row", {}, h("label", {}, "Rules ", select), h("label", {}, "Deal ", deal),
        features.assist ? h("label.pyr-check", {}, winnable, " winnable deals only") : null,
        h("button.pyr-btn.pyr-primary", { type: "button", "data-action": "deal", onclick: go }, "Deal")),
      desc, this.newError);
  }

  /** The answer to the New-deal panel's request: close it, or show why not inside it. */
  newResult(ev) {
    if (ev.ok === false) {
      if (this.newError) { this.newError.textContent = ev.message || "That deal could not be started."; this.newError.hidden = false; }
      this.pendingNew = undefined;
      return;
    }
    this.pendingNew = undefined;
    if (this.panelName === "new") { this.panelName = null; this.renderPanel(); this.focusCurrent(); }
  }

  statsPanel() {
    const s = this.model.get("stats") || {};
    if (!Object.keys(s).length) return h("p", { text: "No records yet." });
    const pct = s.win_pct === undefined ? "–" : `${Math.round(s.win_pct * 10) / 10}%`;
    const tiles = [["Played", s.played], ["Won", s.won], ["Win rate", pct],
      ["Streak", s.current_streak], ["Best streak", s.best_streak],
      ["Best score", s.best_score ?? "–"], ["Best time", s.best_time == null ? "–" : formatTime(s.best_time)]];
    // Games the solver played or hinted are kept apart (never wins, streaks or bests).
    if (s.assisted) tiles.push(["Assisted", s.assisted]);
    return h("div.pyr-stats", { role: "group", "aria-label": `Records for ${s.rules}` },
      h("div.pyr-stats-title", { text: `Records · ${s.rules}` }),
      h("div.pyr-tiles", {}, ...tiles.map(([k, v]) => h("div.pyr-tile", { "data-stat": k },
        h("b", { text: String(v ?? "–") }), h("span", { text: k })))));
  }

  // ----- intents ----------------------------------------------------------------------------
  action(kind) {
    if (kind === "new" || kind === "help" || kind === "stats") {
      if (kind === "stats") this.send({ kind: "stats" });
      this.togglePanel(kind);
      return;
    }
    if (kind === "pause") { this.send({ kind: this.model.get("paused") ? "resume" : "pause" }); return; }
    if (kind === "truth") { this.send({ kind: "truth", on: !(this.model.get("truth") || {}).on }); return; }
    if (kind === "hint") { this.send({ kind: "hint", level: this.hintLevel() }); return; }
    if (kind === "solve" && this.buttons.solve.getAttribute("aria-pressed") === "true") {
      this.send({ kind: "solve-stop" }); // the Solve button toggles
      return;
    }
    this.select(null);
    this.send({ kind });
  }

  hintLevel() {
    const features = this.model.get("features") || {};
    const hi = this.model.get("highlight") || [];
    return features.assist && hi.length ? 2 : 1;
  }

  drawOrRedeal() {
    this.select(null);
    const b = this.board;
    if ((b.rules || {}).has_stock === false && !b.can_next_round) { this.note("This game has no stock."); return; }
    const kind = b.can_next_round ? "next-round" : (b.stock_count || 0) > 0 || !b.can_redeal ? "draw" : "redeal";
    this.send({ kind });
  }

  toCell() {
    if (!this.selected) {
      // C, or a click on the empty cell, with no card chosen: say how the cell is used.
      const rules = this.board.rules || {};
      const name = String(rules.name || "this game");
      this.note((rules.cells || 0) > 0 ? "Choose a card first, then press C or click the cell to put it there."
        : `${name[0].toUpperCase()}${name.slice(1)} has no free cell.`);
      return;
    }
    const card = this.selected;
    this.select(null);
    this.send({ kind: "cell", card });
  }

  select(id) {
    // Any touch that sets the selection is newer than a pair still awaiting its answer: a
    // late refusal must not take the selection back to that pair's second card.
    this.pairTry = null;
    this.selected = id;
    for (const [cid, node] of this.cardEls) {
      node.classList.toggle("is-selected", cid === id);
      node.setAttribute("aria-pressed", String(cid === id));
    }
    for (const slot of this.slotsEl.children) if (slot.dataset.zone === "cell") this.updateSlot(slot, this.board);
  }

  /** A tap (click, Enter or Space) on a card: select it, pair it with the selection, or clear a King. */
  // Touches: a card that cannot be played says why and clears the selection; a King goes at
  // once where Kings go alone; a second card pairs with the first, and if the pair is refused
  // the second card becomes the selection (renderEvent). Said in the Keys panel.
  tap(id) {
    const card = (this.board.cards || []).find((c) => c.id === id);
    if (!card) return;
    this.clearStale();
    if (card.face_down) { this.select(null); this.note(FACE_DOWN); return; }
    if (!card.available && !card.playable) { this.select(null); this.send({ kind: "select", card: id }); return; }
    const rules = this.board.rules || {};
    if (card.rank === 13 && rules.kings_alone) { this.select(null); this.send({ kind: "king", card: id }); return; }
    if (this.selected === null) { this.select(id); return; }
    // The same card again asks to remove it alone: the engine says why it cannot go alone
    // (a non-King needs a partner; under cheops not even a King goes alone).
    if (this.selected === id) { this.select(null); this.send({ kind: "king", card: id }); return; }
    const first = this.selected;
    this.select(null);
    this.pairTry = { second: id, seq: (this.seq || 0) + 1 };
    this.send({ kind: "pair", cards: [first, id] });
  }

  // ----- pointer: tap or drag ---------------------------------------------------------------
  // Cards take one finger (tap, drag) and leave two to the browser: a pinch started on a card
  // zooms the page (touch-action: pinch-zoom), and the browser then cancels the press.
  pointerDown(e) {
    if (this.press) {
      const touches = this.press.touch && e.pointerType === "touch";
      this.cancelPress(); // a press whose end was missed, or one finger of two
      if (touches) return; // a second finger: a gesture, not a tap
    }
    const node = e.target.closest(".pyr-card");
    if (!node || e.button !== 0 || node.classList.contains("is-leaving")) return;
    this.clearStale();
    this.press = { id: node.dataset.id, node, x: e.clientX, y: e.clientY, drag: false, scroll0: this.scrollEl.scrollLeft, pointer: e.pointerId, touch: e.pointerType === "touch" };
    this.onMove = (ev) => this.pointerMove(ev);
    this.onUp = (ev) => this.pointerUp(ev);
    window.addEventListener("pointermove", this.onMove);
    window.addEventListener("pointerup", this.onUp);
    window.addEventListener("pointercancel", this.onUp);
  }

  pointerMove(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.pointer) return;
    const dx = e.clientX - p.x, dy = e.clientY - p.y;
    if (!p.drag && Math.hypot(dx, dy) < 6) return;
    if (!p.drag) {
      if (!p.node.classList.contains("is-playable")) return;
      p.drag = true;
      p.node.classList.add("is-dragging");
    }
    p.lastX = e.clientX;
    p.lastY = e.clientY;
    this.dragTo(p);
    // A board wider than its column scrolls while the dragged card is held at its edge, so a
    // partner out of view can be reached (by touch too, where no wheel turns).
    const sc = this.scrollEl;
    const box = sc.getBoundingClientRect();
    const edge = Math.min(32, box.width / 6);
    p.edge = sc.scrollWidth <= sc.clientWidth ? 0 : e.clientX < box.left + edge ? -1 : e.clientX > box.right - edge ? 1 : 0;
    if (p.edge && !p.scrolling) {
      p.scrolling = true;
      const tick = () => {
        if (this.press !== p || !p.drag || !p.edge) { p.scrolling = false; return; }
        const before = sc.scrollLeft;
        sc.scrollLeft += p.edge * 8;
        if (sc.scrollLeft !== before) this.dragTo(p);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }
  }

  /** Place the dragged card under the pointer (the board may have scrolled since the press)
   * and light the card or cell it would drop on. */
  dragTo(p) {
    const dx = p.lastX - p.x + (this.scrollEl.scrollLeft - p.scroll0), dy = p.lastY - p.y;
    p.node.style.setProperty("--dx", `${dx}px`);
    p.node.style.setProperty("--dy", `${dy}px`);
    const target = this.dropTarget(p.lastX, p.lastY, p.id);
    this.boardEl.querySelectorAll(".is-drop").forEach((n) => n.classList.remove("is-drop"));
    // A face-down card is no partner: it is not lit as a drop target.
    if (target && !target.classList.contains("is-down")) target.classList.add("is-drop");
  }

  dropTarget(x, y, id) {
    for (const n of document.elementsFromPoint(x, y)) {
      if (!this.root.contains(n)) continue;
      const card = n.closest(".pyr-card");
      if (card && card.dataset.id !== id && !card.classList.contains("is-leaving")) return card;
      const slot = n.closest('.pyr-slot[data-zone="cell"] .pyr-slot-face');
      if (slot) return slot;
    }
    return null;
  }

  pointerUp(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.pointer) return;
    this.cancelPress(); // the press ends; a dragged card goes back to its place first
    if (e.type === "pointercancel") return; // the browser took it (a pinch): no tap, no drop
    if (!p.drag) {
      const playable = p.node.classList.contains("is-playable");
      this.tap(p.id);
      if (playable && p.node.isConnected) { this.current = p.id; p.node.focus({ preventScroll: true }); }
      return;
    }
    const target = this.dropTarget(e.clientX, e.clientY, p.id);
    if (!target) return;
    this.select(null);
    if (target.classList.contains("is-down")) { this.note(FACE_DOWN); return; }
    if (target.classList.contains("pyr-card")) this.send({ kind: "pair", cards: [p.id, target.dataset.id] });
    else this.send({ kind: "cell", card: p.id });
  }

  /** End a press and play nothing: a dragged card goes back and the drop marks go (on a
   * pointerup, pointerUp then taps or drops; on a cancel, nothing more). */
  cancelPress() {
    const p = this.press;
    this.endPress();
    if (!p || !p.drag) return;
    p.node.classList.remove("is-dragging");
    p.node.style.removeProperty("--dx");
    p.node.style.removeProperty("--dy");
    this.boardEl.querySelectorAll(".is-drop").forEach((n) => n.classList.remove("is-drop"));
  }

  endPress() {
    this.press = null;
    if (this.onMove) window.removeEventListener("pointermove", this.onMove);
    if (this.onUp) {
      window.removeEventListener("pointerup", this.onUp);
      window.removeEventListener("pointercancel", this.onUp);
    }
  }

  // ----- keyboard ---------------------------------------------------------------------------
  // Keyboard capture (issue 17.1): a host may read keydown on `document` in the capture phase,
  // before the board sees the key (Jupyter Notebook 7 does: "D, D" deleted the board's cell and
  // the arrows moved between cells). While focus is inside the board, a capture-phase listener
  // on `window` (the first stop of every key event, before any listener on `document`) handles
  // the key here and stops it with stopImmediatePropagation; it is removed when focus leaves
  // the board and when the view is destroyed.
  captureKeys() {
    this.onCapture = (e) => {
      const target = e.composedPath()[0]; // the real target, also inside a shadow root (marimo)
      if (!(target instanceof Node) || !this.root.contains(target)) { this.releaseKeys(); return; }
      // A text field keeps its own listeners (the deal box's Enter); hosts' shortcuts skip
      // editable targets, and the board's bubble listener still stops the key at its root.
      // A <select> (the lesson picker, the solve speed, the rule set) is no editable target
      // to a host: Notebook 7 matches its command-mode keys on any focused element that is
      // not read-write, so "D, D" in a select would delete the cell. Its keys are stopped here
      // too (keyDown leaves them to the select: stopping propagation keeps the select's own
      // arrows and type-ahead, which are its default action).
      if (target.matches("input, textarea")) return;
      this.captured = e;
      this.keyDown(e, target);
    };
    this.onFocusIn = () => {
      if (this.capturing) return;
      this.capturing = true;
      window.addEventListener("keydown", this.onCapture, true);
    };
    this.onFocusOut = (e) => { if (!(e.relatedTarget instanceof Node && this.root.contains(e.relatedTarget))) this.releaseKeys(); };
    this.root.addEventListener("focusin", this.onFocusIn);
    this.root.addEventListener("focusout", this.onFocusOut);
  }

  releaseKeys() {
    if (!this.capturing) return;
    this.capturing = false;
    window.removeEventListener("keydown", this.onCapture, true);
  }

  keyDown(e, target = e.target) {
    const inField = target.matches("input, select, textarea");
    const key = e.key;
    const ctrl = e.ctrlKey || e.metaKey;
    let done = true;
    if (key === "Escape") { this.select(null); this.closePanel(); }
    else if (inField) done = false;
    else if ((key === "Enter" || key === " ") && target.classList.contains("pyr-card")) this.tap(target.dataset.id);
    else if ((key === "Enter" || key === " ") && target.classList.contains("pyr-slot-face")) target.click();
    else if (key.startsWith("Arrow")) this.moveFocus(key, target);
    else if (ctrl && (key === "z" || key === "Z")) this.shortcut(e.shiftKey ? "redo" : "undo");
    else if (ctrl && (key === "y" || key === "Y")) this.shortcut("redo");
    else if (ctrl || e.altKey) done = false;
    else if (key === "d" || key === "D") this.drawOrRedeal();
    else if (key === "c" || key === "C") this.toCell();
    else if (SHORTCUTS[key.toLowerCase()]) this.shortcut(SHORTCUTS[key.toLowerCase()]);
    else done = false;
    if (done && !(key === "Enter" && target.tagName === "BUTTON")) e.preventDefault();
    // Keep every plain key away from the notebook's command-mode shortcuts ("a", "b", "d d",
    // "m" would edit cells) while focus is in the widget; Tab, Shift+Enter and chords pass.
    const chord = ctrl || e.altKey || (key === "Enter" && e.shiftKey);
    // (stopImmediatePropagation: from the window capture listener it also keeps the key from
    // every later listener of the host; the browser's default action, e.g. Tab, still happens.)
    if (done || (!chord && key !== "Tab")) e.stopImmediatePropagation();
  }

  /** A toolbar shortcut: like its button, or, when the host hides the button (`controls`),
   * nothing but a short note on the board (the intent is not sent). */
  shortcut(control) {
    if (this.controls.includes(control)) { this.action(control); return; }
    const name = control === "help" ? "Keyboard help" : TOOLBAR.find((t) => t[0] === control)[1];
    this.note(`${name} is not available here.`);
  }

  /** Show `text` on the message line for a moment (this view only; the trait comes back). */
  note(text) {
    this.msgText.textContent = text;
    this.msgEl.dataset.kind = "info";
    this.msgEl.classList.remove("is-empty");
    this.later(() => this.renderMessage(), 2500);
  }

  // Roving tabindex: the board is one tab stop. The arrow keys move among what can be played
  // (available cards, the deck, the cells); covered, buried and discarded cards are never
  // focused, so no focus style lifts a card above the cards that cover it.
  navigables() {
    return [...this.boardEl.querySelectorAll('.pyr-card.is-playable:not(.is-leaving), .pyr-slot[data-zone="stock"] .pyr-slot-face, .pyr-slot[data-zone="cell"] .pyr-slot-face')];
  }

  /** The key that names a navigable node across renders: a card id, or "stock" / "cell0". */
  keyOf(node) {
    if (node.classList.contains("pyr-card")) return node.dataset.id;
    const slot = node.parentElement;
    return `${slot.dataset.zone}${slot.dataset.zone === "cell" ? slot.dataset.index : ""}`;
  }

  /** The navigable node that holds the tab stop (the remembered one, else the first card). */
  currentNode() {
    const all = this.navigables();
    return all.find((n) => this.keyOf(n) === this.current) ||
      all.find((n) => n.classList.contains("pyr-card")) || all[0] || null;
  }

  updateRoving() {
    const cur = this.currentNode();
    for (const n of this.boardEl.querySelectorAll(".pyr-card, .pyr-slot-face[role='button']"))
      n.setAttribute("tabindex", n === cur ? "0" : "-1");
  }

  focusCurrent() {
    const n = this.currentNode();
    if (n) { this.current = this.keyOf(n); this.updateRoving(); n.focus({ preventScroll: true }); }
  }

  focusFirst() {
    this.current = null;
    this.focusCurrent();
  }

  /** Focus the playable card (or pile) nearest to the board spot [x, y]. */
  focusNear([x, y]) {
    let best = null, bestD = Infinity;
    for (const n of this.navigables()) {
      const [nx, ny] = this.spot(n);
      const d = Math.hypot(nx - x, (ny - y) * 1.4) + (n.classList.contains("pyr-card") ? 0 : 0.8);
      if (d < bestD) { best = n; bestD = d; }
    }
    if (best) { this.current = this.keyOf(best); this.updateRoving(); best.focus({ preventScroll: true }); }
  }

  /** Where a card or pile sits in board units (card widths), from its place in the layout
   * (x in half card widths, y in rows) or its slot: the layout's geometry, not the screen,
   * so a card still sliding into place is found all the same. */
  spot(node) {
    const holder = node.classList.contains("pyr-slot-face") ? node.parentElement : node;
    const st = holder.style;
    const num = (name) => Number(st.getPropertyValue(name)) || 0;
    const root = (name, dflt) => Number(this.root.style.getPropertyValue(name)) || dflt;
    if (holder.dataset.zone === "pyramid") return [((num("--x") - root("--xmid", 6)) / 2) * 1.1, num("--y") * 0.7];
    const n = Number(this.boardEl.style.getPropertyValue("--nslots")) || 1;
    return [(num("--slot") - (n - 1) / 2) * 1.1, (root("--rows", 7) - 1) * 0.7 + 1.72 + num("--fan") * 1.4 * root("--fanstep", 0.13)];
  }

  /** Move focus to the nearest card or pile in the arrow's direction. */
  moveFocus(key, from) {
    const all = this.navigables();
    if (!all.includes(from)) { this.focusCurrent(); return; }
    const [ax, ay] = this.spot(from);
    const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
    if (dx) {
      // Left/right walk the playable cards in reading order (a row left to right, then the
      // next row, the piles last, round again): every card is reached with one key.
      const band = (n) => (n.dataset.zone === "pyramid" ? Number(n.style.getPropertyValue("--y")) : 99);
      const order = all.map((n) => [band(n), this.spot(n)[0], n]).sort((p, q) => p[0] - q[0] || p[1] - q[1]).map((t) => t[2]);
      const next = order[(order.indexOf(from) + dx + order.length) % order.length];
      if (next && next !== from) { this.current = this.keyOf(next); this.updateRoving(); next.focus({ preventScroll: false }); }
      return;
    }
    let best = null, bestScore = Infinity;
    for (const n of all) {
      if (n === from) continue;
      const [x, y] = this.spot(n);
      const vx = x - ax, vy = y - ay;
      const along = vx * dx + vy * dy;
      if (along <= 0.01) continue;
      const across = Math.abs(vx * dy) + Math.abs(vy * dx);
      // Left/right keep to the same row first (a card up or down a row only when none is
      // level); up/down take the nearest card above or below.
      const score = dx ? across * 10 + along : along + across * 0.6;
      if (score < bestScore) { best = n; bestScore = score; }
    }
    if (best) { this.current = this.keyOf(best); this.updateRoving(); best.focus({ preventScroll: false }); }
  }
}

/** Ask for the next autoplay step ("solve") while Python still has moves queued. */
function initialize({ model }) {
  let timer = null;
  // The delay follows the chosen speed; "step by step" waits for the Next move button.
  const step = () => {
    clearTimeout(timer);
    const speed = SPEEDS.find(([v]) => v === (model.get("solve_speed") || "normal")) || SPEEDS[1];
    // Paused: the line waits; Resume (a change of `paused`) asks for the next move again.
    if ((model.get("autoplay") || []).length && speed[2] > 0 && !model.get("paused"))
      timer = setTimeout(() => model.send({ kind: "solve-step" }), speed[2]);
  };
  model.on("change:autoplay", step);
  model.on("change:paused", step);
  model.on("change:solve_speed", step);
  // Hosts (issue 17.3): write back the count of each event once it has arrived, so a host that
  // re-runs code when the page changes the widget (marimo's mo.ui.anywidget) sees every move.
  const seen = () => {
    const count = (model.get("last_event") || {}).count;
    if (Number.isInteger(count) && count !== model.get("page_seen")) { model.set("page_seen", count); model.save_changes(); }
  };
  model.on("change:last_event", seen);
  return () => {
    clearTimeout(timer);
    model.off("change:autoplay", step);
    model.off("change:solve_speed", step);
    model.off("change:last_event", seen);
  };
}

function render({ model, el }) {
  const view = new PyramidView(model, el);
  return () => view.destroy();
}

export default { initialize, render };
