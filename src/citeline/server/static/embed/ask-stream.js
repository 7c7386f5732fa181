/**
 * The Ask box's reading of one answer: the native event stream of
 * contracts/answer_endpoint.md folded into what a reader is shown (the text, the
 * sources and where each links, how the answer ended), and nothing else.
 *
 * Pure: no DOM and no fetch, so Node's own test runner holds it to the contract's JSON
 * fixtures (tests/js/). It never looks at the prose for sources or outcomes: sources are
 * `citation` events, the outcome is `done.state`. What the contract says never happens
 * (a citation naming both `id` and `url`, a repeated `n`, anything after `done`) is
 * ignored rather than shown, since a box on someone else's site must not break or link
 * where the server did not vouch.
 */

import { readEvents } from "../sse.js";

export { readEvents };

// How the answer was produced (done.provenance) in a sentence: the server's label, never a
// guess from the prose, so a reader can tell a governed figure from SQL a model wrote.
export const PROVENANCE = {
  sourced: "Drawn from the pages cited below.",
  verified: "Figures from a governed measure defined by the data's owner.",
  cited: "Figures from a query the model wrote, backed by a quote the server verified.",
  untrusted: "Figures from a query the model wrote, with no verified quote: check them.",
  none: "Not drawn from any cited source.",
};

// A data answer's source is a measure call or a query: shown, never linked.
const DATA_SOURCE = /^(measure|query):/;

/** `candidate` as an absolute http(s) address (relative ones resolved against `base`), or null. */
export function webAddress(candidate, base) {
  if (typeof candidate !== "string" || candidate.trim() === "") {
    return null;
  }
  try {
    const url = new URL(candidate, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Where a source's chip links: its `href` (the cited section's own address), else its
 * `url`, else the collection's link template filled with its `id` (through encodeURI,
 * which keeps `/` and `#`, so an id may be a path), resolved against `base` (the server).
 */
export function sourceLink(citation, linkTemplate, base) {
  if (DATA_SOURCE.test(citation.id ?? "")) {
    return null;
  }
  const own = webAddress(citation.href) ?? webAddress(citation.url);
  if (own !== null || !citation.id || typeof linkTemplate !== "string") {
    return own;
  }
  return webAddress(linkTemplate.replaceAll("{id}", encodeURI(citation.id)), base);
}

const text = (value) => typeof value === "string" && value !== "";
const offset = (value) => Number.isInteger(value) && value >= 0;

/** A citation event's payload as the contract draws it, or null. */
function wellFormed(data) {
  const named = ("id" in data) !== ("url" in data) && text(data.id ?? data.url);
  const placed = (data.start === null && data.end === null) ||
    (offset(data.start) && offset(data.end) && data.start <= data.end);
  return named && Number.isInteger(data.n) && data.n > 0 && placed ? data : null;
}

export class AnswerReading {
  /**
   * @param {{linkTemplate?: string|null, base?: string}} options the collection's link
   *   template (from /v1/info) and the server's address, against which it resolves
   */
  constructor({ linkTemplate = null, base } = {}) {
    this.linkTemplate = linkTemplate;
    this.base = base;
    this.started = false;
    this.text = "";
    this.sources = [];
    this.state = null; // done.state once it came; null while streaming or if it never did
    this.answerId = null;
    this.provenance = null;
    this.conversationId = null;
  }

  /** Fold in one `{name, data}` event; false when it changes nothing. */
  read({ name, data }) {
    if (this.state !== null || data === null || typeof data !== "object") {
      return false;
    }
    if (name === "start") {
      this.started = true;
      this.conversationId = text(data.conversation_id) ? data.conversation_id : null;
      return true;
    }
    if (name === "token") {
      if (typeof data.text !== "string") {
        return false;
      }
      this.text += data.text;
      return true;
    }
    if (name === "citation") {
      return this.cite(wellFormed(data));
    }
    if (name === "done") {
      this.state = text(data.state) ? data.state : "failed";
      this.answerId = text(data.answer_id) ? data.answer_id : null;
      this.provenance = text(data.provenance) ? data.provenance : null;
      return true;
    }
    return false; // an event this reader does not know: later contracts may add some
  }

  cite(citation) {
    if (citation === null || this.sources.some((source) => source.n === citation.n)) {
      return false;
    }
    const name = text(citation.display_name) ? citation.display_name : citation.id ?? citation.url;
    this.sources.push({
      n: citation.n,
      name,
      link: sourceLink(citation, this.linkTemplate, this.base),
      start: citation.start,
      end: citation.end,
      data: DATA_SOURCE.test(citation.id ?? ""),
      quote: text(citation.quote) ? citation.quote : null,
    });
    return true;
  }

  /** The provenance in a sentence, or "" when the answer carries none (or an unknown one). */
  get trust() {
    return Object.hasOwn(PROVENANCE, this.provenance ?? "") ? PROVENANCE[this.provenance] : "";
  }

  /** Whether there is an answer to show: `answered`, with text. */
  get answered() {
    return this.state === "answered" && this.text.trim() !== "";
  }
}
