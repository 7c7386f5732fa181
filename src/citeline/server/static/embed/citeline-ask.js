/**
 * <citeline-ask>: an Ask box for a site's own pages, answered by `citeline serve`.
 *
 *   <script type="module" src="https://answers.example.org/embed/citeline-ask.js"></script>
 *   <citeline-ask token-url="/citeline-token"></citeline-ask>
 *
 * Attributes: `server` (default: where this module came from); `token-url`, the owner's
 * URL answering a caller token as text, asked before each question (without it none is
 * sent, which only an open server takes); `floating` (a corner button opens the box);
 * `placeholder`. Themes: --citeline-* and ::part() (docs/page.md). It fetches the token
 * URL, /v1/info and /v1/answer only; chips and markers come from citation events only.
 */

import { AnswerReading, readEvents } from "./ask-stream.js";
import { TAGS, renderMarkdown, withMarkers } from "./ask-markdown.js";

const HOME = new URL("../", import.meta.url).href;
// What the box says when there is no answer to show. A refusal's reason is never told to
// a caller (contracts/answer_endpoint.md), and the box's own (the site gave no token) is no
// rate limit, so its sentence names no time to wait.
const SAY = {
  waiting: "Looking for an answer…",
  refused: "The answer service is busy or declined this request; try again later.",
  nothing_found: "Nothing on this site answers that. Try other words, or the site's search.",
  failed: "The answer could not be finished. Try again in a moment.",
  unreachable: "The answer service cannot be reached from this page right now.",
  stopped: "Stopped.",
  truncated: "The answer was cut at the model's length limit and may be incomplete.",
};
const FOUND = "Found by the server: this page supports the sentence.";

const STYLE = `:host{--a:var(--citeline-accent,#1f5fbf);--b:var(--citeline-border,#8888);
--r:var(--citeline-radius,6px);--bg:var(--citeline-bg,Canvas);display:block;max-width:100%;
color:var(--citeline-fg,CanvasText);font:var(--citeline-font,inherit)}
*{box-sizing:border-box}[hidden]{display:none!important}
form,.head,.foot{display:flex;gap:.5em;align-items:center;flex-wrap:wrap}
input{flex:1;min-width:0;font:inherit;color:inherit;background:var(--bg);padding:.45em .6em;
border:1px solid var(--b);border-radius:var(--r)}
button,.chat{font:inherit;padding:.4em .8em;border-radius:var(--r);cursor:pointer;
border:1px solid var(--a);background:var(--a);color:var(--citeline-on-accent,#fff)}
.quiet,.chat{background:none;color:var(--a);border-color:var(--b);text-decoration:none}
:focus-visible{outline:2px solid var(--a);outline-offset:2px}
.panel{margin-top:.6em;padding:.7em .8em;border:1px solid var(--b);border-radius:var(--r);
background:var(--bg);overflow-wrap:anywhere;line-height:1.5}
.answer>*{margin:0 0 .6em}sup{line-height:0}a{color:var(--a)}
pre{overflow-x:auto;padding:.5em;background:var(--citeline-code-bg,#8881);border-radius:var(--r)}
code{font-family:var(--citeline-code-font,ui-monospace,monospace);font-size:.92em}
blockquote{border-left:3px solid var(--b);margin-left:0;padding-left:.7em}
.status,.trust{color:var(--citeline-muted,#666);margin:.4em 0}
.chips{list-style:none;padding:0;margin:.5em 0;display:flex;flex-wrap:wrap;gap:.35em}
.chips li{max-width:100%}.chips .src{display:inline-flex;gap:.4em;max-width:100%;
padding:.15em .55em;border:1px solid var(--b);border-radius:1em;text-decoration:none}
.n{font-weight:600}.head{justify-content:space-between;margin-bottom:.5em;font-weight:600}
.launcher,:host([floating]) .box{position:fixed;right:1rem;bottom:1rem;z-index:var(--citeline-z,1000)}
:host([floating]) .box{right:.5rem;bottom:4rem;width:min(var(--citeline-width,30rem),calc(100vw - 1rem));
max-height:calc(100vh - 5rem);overflow:auto;padding:.7em;background:var(--bg);
border:1px solid var(--b);border-radius:var(--r);box-shadow:0 4px 24px #0003}
:host([floating]) .panel{border:0;padding:0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}`;

const MARKUP = `<style>${STYLE}</style>
<button class=launcher part=launcher aria-label="Ask this site" aria-expanded=false aria-controls=box
hidden>Ask</button><div class=box id=box part=box>
<div class=head hidden><span id=title>Ask this site</span><button class="quiet close">Close</button></div>
<form part=form role=search aria-labelledby=label><label class=sr id=label for=q>Ask a question about
this site</label><input id=q part=input type=search required maxlength=2000 autocomplete=off
enterkeyhint=search><button part=button>Ask</button></form>
<section class=panel part=panel aria-label=Answer hidden>
<div class=answer part=answer aria-live=polite aria-busy=false></div><ol class=chips aria-label=Sources></ol>
<p class=status role=status></p><div class=foot><p class=trust part=trust></p>
<a class=chat part=chat target=_blank rel=noopener hidden>Continue in chat</a>
<button class="quiet stop" type=button hidden>Stop</button></div></section></div>`;

const infos = new Map(); // each server's /v1/info, asked once a page

export class CitelineAsk extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot !== null) {
      return;
    }
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML = MARKUP; // the box's own markup: nothing of an answer goes in by HTML
    this.$ = (selector) => root.querySelector(selector);
    this.run = null;
    this.pending = 0;
    this.$("input").placeholder = this.getAttribute("placeholder") ?? "Ask a question…";
    this.$("form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.ask(this.$("input").value.trim());
    });
    this.$(".stop").addEventListener("click", () => this.stop(true));
    root.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.run !== null) {
        this.stop(true);
      } else if (event.key === "Escape" && this.hasAttribute("floating")) {
        this.open(false);
      }
    });
    // Keys typed in the box are the box's: past it, the host page's shortcuts (MkDocs's
    // theme reads "n" as "next page") see the host element as their target, not an input.
    for (const type of ["keydown", "keyup", "keypress"]) {
      root.addEventListener(type, (event) => event.stopPropagation());
    }
    if (this.hasAttribute("floating")) {
      this.$(".launcher").hidden = this.$(".head").hidden = false;
      this.$(".box").setAttribute("role", "dialog");
      this.$(".box").setAttribute("aria-labelledby", "title");
      this.$(".launcher").addEventListener("click", () => this.open(this.$(".box").hidden));
      this.$(".close").addEventListener("click", () => this.open(false));
      this.open(false);
    }
  }

  /** Show or hide the floating box, moving focus as a dialog does. */
  open(show) {
    this.$(".box").hidden = !show;
    this.$(".launcher").setAttribute("aria-expanded", show);
    this.$(show ? "input" : ".launcher").focus();
  }

  get server() {
    const given = this.getAttribute("server");
    return given ? new URL(given.replace(/\/?$/, "/"), document.baseURI).href : HOME;
  }

  /** The caller token: "" without a token-url; null when the owner's site gives none. */
  async callerToken(signal) {
    const url = this.getAttribute("token-url");
    if (url === null) {
      return "";
    }
    const response = await fetch(new URL(url, document.baseURI), { cache: "no-store", signal })
      .catch((error) => (signal.aborted ? Promise.reject(error) : null));
    const token = response?.ok ? (await response.text()).trim() : "";
    return token || null;
  }

  async ask(question) {
    if (question === "") {
      return;
    }
    this.stop(false);
    const run = { controller: new AbortController(), stopped: false };
    const server = this.server;
    const reading = new AnswerReading({ base: server });
    Object.assign(this, { run, reading, question });
    this.show("waiting");
    let outcome;
    try {
      if (!infos.has(server)) {
        infos.set(server, fetch(new URL("v1/info", server)).then((r) => r.json()).catch(() => ({})));
      }
      const [token, info] = await Promise.all([this.callerToken(run.controller.signal), infos.get(server)]);
      reading.linkTemplate = info.link_template ?? null;
      outcome = token === null ? "refused" : await this.stream(run, reading, token);
    } catch {
      outcome = reading.started ? "failed" : "unreachable";
    }
    if (this.run === run) {
      this.run = null;
      this.finish(run.stopped ? "stopped" : outcome);
    }
  }

  async stream(run, reading, token) {
    const response = await fetch(new URL("v1/answer", reading.base), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({ question: this.question, caller_token: token }),
      credentials: "omit",
      signal: run.controller.signal,
    });
    if (!response.ok) {
      return "unreachable";
    }
    for await (const event of readEvents(response.body)) {
      if (this.run !== run || !reading.read(event)) {
        continue;
      }
      if (event.name === "start") {
        this.show("streaming");
      }
      if (reading.state !== null) {
        break;
      }
      // Tokens arrive many per frame; rendering once a frame keeps a long answer cheap.
      this.pending ||= requestAnimationFrame(() => this.render());
    }
    return reading.state ?? (reading.started ? "failed" : "unreachable");
  }

  /** Stop the answer streaming, if any: by the reader (its text stays), or for a new one. */
  stop(byReader) {
    if (this.run !== null) {
      this.run.stopped = byReader;
      this.run.controller.abort();
      this.run = byReader ? this.run : null;
    }
  }

  show(state) {
    this.dataset.state = state;
    this.$(".panel").hidden = false;
    this.$(".answer").ariaBusy = String(state === "streaming");
    this.$(".stop").hidden = state !== "waiting" && state !== "streaming";
    this.$(".status").textContent = Object.hasOwn(SAY, state) ? SAY[state] : "";
    if (state === "waiting") {
      this.render();
      this.$(".trust").textContent = "";
      this.$(".chat").hidden = true;
    }
  }

  finish(outcome) {
    const reading = this.reading;
    const state = outcome === "answered" ? (reading.answered ? "answered" : "nothing_found")
      : Object.hasOwn(SAY, outcome) ? outcome : "failed";
    if (state === "refused" || state === "nothing_found") {
      reading.text = ""; // it leaves no text behind
      reading.sources = [];
    }
    this.show(state);
    this.render();
    if (state === "answered") {
      this.$(".status").textContent = reading.truncated ? SAY.truncated : "";
      this.$(".trust").textContent = reading.trust;
      const chat = this.$(".chat");
      chat.hidden = reading.answerId === null;
      chat.href = new URL(`?${new URLSearchParams({ q: this.question, chat: reading.answerId })}`, reading.base);
    }
  }

  render() {
    cancelAnimationFrame(this.pending);
    this.pending = 0;
    const { text, sources } = this.reading;
    this.$(".answer").replaceChildren(...renderMarkdown(withMarkers(text, sources)).map((n) => this.build(n)));
    this.$(".chips").replaceChildren(...sources.map((source) => make("li", [this.link(source, [
      make("span", [String(source.n)], "n"), make(source.data ? "code" : "span", [source.name]),
    ], "src")])));
    this.$(".chips").hidden = sources.length === 0;
  }

  /** A tree of ask-markdown.js as elements; its strings become text, never HTML. */
  build(node) {
    if (typeof node === "number") {
      const marker = this.link(this.reading.sources.find((source) => source.n === node), [String(node)]);
      marker.ariaLabel = `source ${node}`;
      return make("sup", [marker]);
    }
    return typeof node === "string" ? node
      : make(TAGS.has(node[0]) ? node[0] : "span", node.slice(1).map((child) => this.build(child)));
  }

  /** A source's link, or a plain span when it has none. */
  link(source, children, className = "") {
    const link = make(source.link === null ? "span" : "a", children, className);
    if (source.link !== null) {
      link.href = source.link;
      link.part = className && "chip";
    }
    link.title = source.quote ?? (source.foundByServer ? FOUND : "");
    return link;
  }
}

function make(tag, children, className = "") {
  const element = document.createElement(tag);
  element.append(...children);
  element.className = className;
  return element;
}

if (!customElements.get("citeline-ask")) {
  customElements.define("citeline-ask", CitelineAsk);
}
