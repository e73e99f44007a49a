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
      // `window.harnessReplyDelay` (ms) holds each answer back, as a busy kernel would.
      const apply = (text) => this.update(JSON.parse(text));
      window.pyramidSend(JSON.stringify(msg)).then((text) => {
        const delay = window.harnessReplyDelay || 0;
        if (delay) {
          this.held += 1;
          setTimeout(() => { this.held -= 1; apply(text); }, delay);
        }
        else apply(text);
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
