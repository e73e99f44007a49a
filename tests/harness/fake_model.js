// A small stand-in for an anywidget model, for rendering pyramid_widget/widget/static/widget.js outside Jupyter.
// `send` records each intent and, when the test bridged a real Python widget with
// page.expose_function("pyramidSend", ...), forwards it and applies the returned traits.

export class FakeModel {
  constructor(state) {
    this.state = { ...state };
    this.handlers = new Map();
    this.sent = [];
    // Traits a bridged widget changes from a background thread (solve, winnable deals) arrive
    // by polling, as a kernel would push them.
    if (typeof window.pyramidState === "function") {
      // (Not while an answer is held back: a kernel's messages arrive in order.)
      this.held = 0;
      window.harnessWaiting = [];
      window.harnessRelease = () => {
        const waiting = window.harnessWaiting.splice(0);
        for (const deliver of waiting) deliver();
        return waiting.length;
      };
      this.poll = setInterval(
        () => window.pyramidState().then((text) => { if (!this.held) this.update(JSON.parse(text)); }),
        150,
      );
    }
  }

  get(name) { return this.state[name]; }

  set(name, value) {
    this.state[name] = value;
    this.emit(`change:${name}`);
  }

  save_changes() {}

  on(event, fn) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event).add(fn);
  }

  off(event, fn) {
    if (!event) this.handlers.clear();
    else if (!fn) this.handlers.delete(event);
    else this.handlers.get(event)?.delete(fn);
  }

  emit(event, ...args) {
    for (const fn of [...(this.handlers.get(event) || [])]) fn(...args);
  }

  send(msg) {
    this.sent.push(msg);
    if (typeof window.pyramidSend === "function") {
      // While `window.harnessHold` is true each answer waits, as behind a busy kernel,
      // until `window.harnessRelease()` delivers the waiting ones in order.
      const apply = (text) => this.update(JSON.parse(text));
      const holding = Boolean(window.harnessHold);
      if (holding) this.held += 1;
      window.pyramidSend(JSON.stringify(msg)).then((text) => {
        if (!holding) { apply(text); return; }
        window.harnessWaiting.push(() => { this.held -= 1; apply(text); });
      });
    }
  }

  /** Set several traits at once, then fire one change event per trait that changed. */
  update(state) {
    const changed = [];
    for (const [name, value] of Object.entries(state)) {
      if (JSON.stringify(this.state[name]) !== JSON.stringify(value)) {
        this.state[name] = value;
        changed.push(name);
      }
    }
    for (const name of changed) this.emit(`change:${name}`);
    return changed;
  }

  /** Deliver a custom message as the kernel would. */
  deliver(msg) { this.emit("msg:custom", msg, []); }
}
