/**
 * <citeline-ask>: an Ask box for a documentation site, answered by `citeline serve`.
 *
 *   <script type="module" src="https://answers.example.org/embed/citeline-ask.js"></script>
 *   <citeline-ask token-url="/citeline-token"></citeline-ask>
 *
 * Attributes: `server` (citeline's address; default: where this module came from),
 * `token-url` (a URL of the owner's site that answers a caller token as text, fetched
 * before each question; none is sent without it, which only an open server accepts),
 * `floating` (a button in the corner opens the box as a panel), `placeholder`.
 * Styles: the --citeline-* custom properties below, and ::part(box | input | button |
 * panel | answer | chip | trust | chat | launcher). The host carries `data-state`.
 *
 * It reads the native event stream of contracts/answer_endpoint.md through
 * ask-stream.js, and renders the text through ask-markdown.js as plain elements; chips
 * and markers come from citation events only. It fetches the owner's token URL and
 * the server's /v1/info and /v1/answer, nothing else: no fonts, no libraries, no CDN.
 */

import { AnswerReading, PROVENANCE, readEvents } from "./ask-stream.js";
import { TAGS, renderMarkdown, withMarkers } from "./ask-markdown.js";

const HOME = new URL("../", import.meta.url).href;
const MAX_QUESTION = 2000; // the contract's bound on a question

// Said for each way an answer can end without one. A refusal's reason is never told to
// a caller (contracts/answer_endpoint.md), so its sentence says what the reader can do.
const SAY = {
  waiting: "Looking for an answer…",
  refused: "The answer service is busy or declined this request; try again in a minute.",
  nothing_found: "Nothing on this site answers that. Try other words, or the site's search.",
  failed: "The answer could not be finished. Try again in a moment.",
  unreachable: "The answer service cannot be reached from this page right now.",
  stopped: "Stopped.",
};
const STYLE = `
:host{--a:var(--citeline-accent,#1f5fbf);--bg:var(--citeline-bg,Canvas);--fg:var(--citeline-fg,CanvasText);
--m:var(--citeline-muted,#6a6a6a);--b:var(--citeline-border,#8888);--r:var(--citeline-radius,6px);
display:block;max-width:100%;font:var(--citeline-font,inherit);color:var(--fg)}
*{box-sizing:border-box}[hidden]{display:none!important}
.box{background:var(--bg);max-width:100%}
form{display:flex;gap:.4em}
input{flex:1;min-width:0;font:inherit;color:var(--fg);background:var(--bg);padding:.45em .6em;
border:1px solid var(--b);border-radius:var(--r)}
button,.chat{font:inherit;border-radius:var(--r);padding:.4em .8em;cursor:pointer}
button{border:1px solid var(--a);background:var(--a);color:var(--citeline-on-accent,#fff)}
button.quiet,.chat{background:none;color:var(--a);border:1px solid var(--b)}
:focus-visible{outline:2px solid var(--a);outline-offset:2px}
.panel{margin-top:.6em;padding:.7em .8em;border:1px solid var(--b);border-radius:var(--r);
overflow-wrap:anywhere;line-height:1.5}
.answer>:first-child{margin-top:0}.answer p,.answer ul,.answer ol,.answer pre,.answer blockquote{margin:0 0 .6em}
pre{overflow-x:auto;max-width:100%;padding:.5em;background:var(--citeline-code-bg,#8881);border-radius:var(--r)}
code{font-family:var(--citeline-code-font,ui-monospace,monospace);font-size:.92em}
blockquote{border-left:3px solid var(--b);padding-left:.7em;margin-left:0}
sup a,.chips a{color:var(--a)}
.status,.trust{color:var(--m);margin:.4em 0}
.chips{list-style:none;padding:0;margin:.5em 0;display:flex;flex-wrap:wrap;gap:.35em}
.chips li{max-width:100%}
.chips a,.chips span.src{display:inline-flex;gap:.4em;max-width:100%;padding:.15em .55em;
border:1px solid var(--b);border-radius:999px;text-decoration:none}
.n{font-weight:600}
.foot{display:flex;flex-wrap:wrap;gap:.5em;align-items:center}
.chat{text-decoration:none;display:inline-block}
.launcher{position:fixed;right:1rem;bottom:1rem;z-index:var(--citeline-z,1000)}
:host([floating]) .box{position:fixed;right:.5rem;bottom:4rem;z-index:var(--citeline-z,1000);
width:min(var(--citeline-width,30rem),calc(100vw - 1rem));max-height:calc(100vh - 5rem);overflow:auto;
padding:.7em;border:1px solid var(--b);border-radius:var(--r);box-shadow:0 4px 24px #0003}
.head{display:flex;justify-content:space-between;align-items:center;margin-bottom:.5em;font-weight:600}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}`;

const MARKUP = `<style>${STYLE}</style>
<button class="launcher" part="launcher" type="button" aria-label="Ask this site" aria-expanded="false" aria-controls="box" hidden>Ask</button>
<div class="box" id="box" part="box">
<div class="head" hidden><span id="title">Ask this site</span>
<button class="quiet close" type="button">Close</button></div>
<form part="form" role="search" aria-labelledby="label">
<label class="sr" id="label" for="q">Ask a question about this site</label>
<input id="q" part="input" type="search" required autocomplete="off" enterkeyhint="search">
<button part="button" type="submit">Ask</button></form>
<section class="panel" part="panel" aria-label="Answer" hidden>
<div class="answer" part="answer" aria-live="polite" aria-busy="false"></div>
<ol class="chips" aria-label="Sources" hidden></ol>
<p class="status" role="status"></p>
<div class="foot"><p class="trust" part="trust"></p>
<a class="chat" part="chat" target="_blank" rel="noopener" hidden>Continue in chat</a>
<button class="quiet stop" type="button" hidden>Stop</button></div></section></div>`;

const infos = new Map(); // per server: its /v1/info, fetched once a page

function info(server) {
  if (!infos.has(server)) {
    infos.set(server, fetch(new URL("v1/info", server), { credentials: "omit" })
      .then((response) => (response.ok ? response.json() : {}))
      .catch(() => ({})));
  }
  return infos.get(server);
}

export class CitelineAsk extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot !== null) {
      return;
    }
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML = MARKUP; // the component's own markup: nothing of an answer goes here
    this.$ = (selector) => root.querySelector(selector);
    this.reading = null;
    this.run = null;
    this.pending = 0;
    const input = this.$("input");
    input.maxLength = MAX_QUESTION;
    input.placeholder = this.getAttribute("placeholder") ?? "Ask a question…";
    this.$("form").addEventListener("submit", (event) => {
      event.preventDefault();
      const question = input.value.trim();
      if (question !== "") {
        this.ask(question);
      }
    });
    this.$(".stop").addEventListener("click", () => this.stop());
    root.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.run !== null) {
        this.stop();
      } else if (event.key === "Escape" && this.hasAttribute("floating")) {
        this.open(false);
      }
    });
    // Keys typed in the box are the box's: out of it, a host page's shortcuts (MkDocs's
    // theme turns "n" into "next page") see the host element as the target, not an input.
    for (const type of ["keydown", "keyup", "keypress"]) {
      root.addEventListener(type, (event) => event.stopPropagation());
    }
    if (this.hasAttribute("floating")) {
      const launcher = this.$(".launcher");
      launcher.hidden = false;
      this.$(".head").hidden = false;
      const box = this.$(".box");
      box.setAttribute("role", "dialog");
      box.setAttribute("aria-labelledby", "title");
      launcher.addEventListener("click", () => this.open(box.hidden));
      this.$(".close").addEventListener("click", () => this.open(false));
      this.open(false);
    }
  }

  /** Show or hide the floating panel, moving focus as a dialog does. */
  open(show) {
    const launcher = this.$(".launcher");
    this.$(".box").hidden = !show;
    launcher.setAttribute("aria-expanded", String(show));
    (show ? this.$("input") : launcher).focus();
  }

  get server() {
    const given = this.getAttribute("server");
    return given ? new URL(given.replace(/\/?$/, "/"), document.baseURI).href : HOME;
  }

  /** The caller token: "" without a token-url, null when the owner's site gives none. */
  async callerToken(signal) {
    const url = this.getAttribute("token-url");
    if (url === null) {
      return "";
    }
    try {
      const response = await fetch(new URL(url, document.baseURI), {
        credentials: "same-origin", cache: "no-store", signal,
      });
      const token = response.ok ? (await response.text()).trim() : "";
      return token === "" ? null : token;
    } catch (error) {
      if (signal.aborted) {
        throw error;
      }
      return null;
    }
  }

  async ask(question) {
    this.stop(false);
    const run = { controller: new AbortController(), stopped: false };
    const server = this.server;
    const reading = new AnswerReading({ base: server });
    Object.assign(this, { run, reading, question });
    this.show("waiting");
    let outcome;
    try {
      const [token, about] = await Promise.all([
        this.callerToken(run.controller.signal), info(server),
      ]);
      reading.linkTemplate = about.link_template ?? null;
      outcome = token === null ? "refused" : await this.stream(run, reading, server, question, token);
    } catch {
      outcome = reading.started ? "failed" : "unreachable";
    }
    if (this.run !== run) {
      return; // a newer question owns the box now
    }
    this.run = null;
    this.finish(run.stopped ? "stopped" : outcome);
  }

  async stream(run, reading, server, question, token) {
    const response = await fetch(new URL("v1/answer", server), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({ question, caller_token: token }),
      credentials: "omit",
      signal: run.controller.signal,
    });
    if (!response.ok || response.body === null) {
      return "unreachable";
    }
    for await (const event of readEvents(response.body)) {
      if (this.run !== run) {
        break;
      }
      if (reading.read(event)) {
        if (event.name === "start") {
          this.show("streaming");
        }
        this.schedule();
      }
      if (reading.state !== null) {
        break;
      }
    }
    return reading.state ?? (reading.started ? "failed" : "unreachable");
  }

  /** Stop the answer streaming, if any; what arrived stays, marked "Stopped.". */
  stop(byReader = true) {
    if (this.run !== null) {
      this.run.stopped = byReader;
      this.run.controller.abort();
      if (!byReader) {
        this.run = null;
      }
    }
  }

  show(state) {
    this.dataset.state = state;
    const panel = this.$(".panel");
    panel.hidden = false;
    this.$(".answer").setAttribute("aria-busy", String(state === "streaming"));
    this.$(".stop").hidden = !(state === "waiting" || state === "streaming");
    if (state === "waiting") {
      this.$(".answer").replaceChildren();
      this.$(".chips").replaceChildren();
      this.$(".chips").hidden = true;
      this.$(".trust").textContent = "";
      this.$(".chat").hidden = true;
    }
    this.$(".status").textContent = Object.hasOwn(SAY, state) ? SAY[state] : "";
  }

  finish(outcome) {
    const reading = this.reading;
    const answered = reading.answered;
    const state = outcome === "answered" ? (answered ? "answered" : "nothing_found")
      : Object.hasOwn(SAY, outcome) ? outcome : "failed";
    this.flush();
    this.show(state);
    if (state === "answered") {
      this.$(".trust").textContent = reading.trust;
      if (reading.answerId !== null) {
        const chat = this.$(".chat");
        chat.href = new URL(`?${new URLSearchParams({ q: this.question, chat: reading.answerId })}`,
          this.server).href;
        chat.hidden = false;
      }
    } else if (state !== "stopped" && state !== "failed") {
      this.$(".answer").replaceChildren(); // a refusal or nothing found leaves no text behind
      this.$(".chips").hidden = true;
    }
  }

  schedule() {
    // Tokens arrive many per frame; rendering once a frame keeps a long answer cheap.
    this.pending ||= requestAnimationFrame(() => {
      this.pending = 0;
      this.render();
    });
  }

  flush() {
    cancelAnimationFrame(this.pending);
    this.pending = 0;
    this.render();
  }

  render() {
    const reading = this.reading;
    const tree = renderMarkdown(withMarkers(reading.text, reading.sources));
    this.$(".answer").replaceChildren(...tree.map((node) => this.build(node)));
    const chips = this.$(".chips");
    chips.replaceChildren(...reading.sources.map((source) => this.chip(source)));
    chips.hidden = reading.sources.length === 0;
  }

  build(node) {
    if (typeof node === "string") {
      return document.createTextNode(node);
    }
    if (typeof node === "number") {
      return this.marker(node);
    }
    const [tag, ...children] = node;
    const element = document.createElement(TAGS.has(tag) ? tag : "span");
    element.append(...children.map((child) => this.build(child)));
    return element;
  }

  marker(n) {
    const sup = document.createElement("sup");
    const link = this.reading.sources.find((source) => source.n === n)?.link ?? null;
    const label = document.createElement(link === null ? "span" : "a");
    if (link !== null) {
      label.href = link;
    }
    label.textContent = String(n);
    label.setAttribute("aria-label", `source ${n}`);
    sup.append(label);
    return sup;
  }

  chip(source) {
    const item = document.createElement("li");
    const label = document.createElement(source.link === null ? "span" : "a");
    label.className = "src";
    label.setAttribute("part", "chip");
    if (source.link !== null) {
      label.href = source.link;
    }
    const n = document.createElement("span");
    n.className = "n";
    n.textContent = String(source.n);
    const name = document.createElement(source.data ? "code" : "span");
    name.textContent = source.name;
    label.append(n, name);
    if (source.quote !== null) {
      label.title = source.quote;
    }
    item.append(label);
    return item;
  }
}

if (!customElements.get("citeline-ask")) {
  customElements.define("citeline-ask", CitelineAsk);
}
