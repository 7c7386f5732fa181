/**
 * One answer on the page: prose rendered from markdown as tokens arrive, a superscript
 * marker per cited phrase (at the end of its sentence: markers.js), and a chip per cited
 * source, linked to the section's own address.
 *
 * The search panel and every reply in the chat use it, so both show sources the same
 * way. It trusts nothing it is given: markdown-it renders with raw HTML off, DOMPurify
 * sanitises what it made, and any link left in the prose is shown as its text. Chips
 * come from citation events only (never from the prose), their text set as text.
 * It fetches nothing and knows nothing about the stream it is fed from.
 */

import { settleMarkers } from "./markers.js";

const markdown = window.markdownit({ html: false, linkify: false, typographer: false });

// Private-use code points mark where a citation marker goes. They are inserted into the
// markdown source (so a marker lands at the right place however markdown reshapes the
// text) and replaced by real elements after sanitising. Any the text itself holds become
// U+FFFD, one code point for one, so a document cannot forge a marker and the
// citation offsets still count the same text.
const MARK_OPEN = "\uE000";
const MARK_CLOSE = "\uE001";
const MARKS = /[\uE000\uE001]/g;
const MARKER = /\uE000(\d+)\uE001/g;

// Tags the answer has no use for: images would make the reader's browser fetch any
// address the text names; forms and styles could dress text up as part of the page.
const FORBIDDEN_TAGS = ["img", "picture", "video", "audio", "iframe", "style", "form",
  "input", "button", "textarea", "select"];

let viewCount = 0;

/** An http(s) address for `candidate` (resolved against the page), or null. */
export function safeHref(candidate) {
  if (typeof candidate !== "string" || candidate.trim() === "") {
    return null;
  }
  try {
    const url = new URL(candidate, document.baseURI);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Where a source's chip links: its `href` (the cited section's own address, which the
 * server sends whenever the source has one), else its `url`, else the collection's
 * template with `{id}` (an answer stored before citations carried `href`). The id goes in
 * through encodeURI, which escapes what URLs cannot hold but keeps `/` and `#`, so an id
 * may be a path (`tutorial/introduction.html#numbers`). A data source (`measure:` or
 * `query:`) is never linked: it has no page.
 */
export function sourceHref(source, linkTemplate) {
  if (/^(measure|query):/.test(source.id ?? "")) {
    return null;
  }
  const direct = source.href || source.url;
  if (direct) {
    return safeHref(direct);
  }
  if (source.id && linkTemplate) {
    return safeHref(linkTemplate.replaceAll("{id}", encodeURI(source.id)));
  }
  return null;
}

export class AnswerView {
  /**
   * @param {HTMLElement} prose where the rendered answer goes
   * @param {HTMLOListElement} chips where the source chips go
   * @param {string|null} linkTemplate the collection's link template, from /v1/info
   */
  constructor(prose, chips, linkTemplate) {
    this.prose = prose;
    this.chips = chips;
    this.linkTemplate = linkTemplate;
    this.key = `a${++viewCount}`;
    this.reset();
  }

  reset() {
    this.text = "";
    this.citations = new Map();
    this.pending = 0;
    this.prose.replaceChildren();
    this.chips.replaceChildren();
  }

  addText(text) {
    this.text += text.replace(MARKS, "\uFFFD");
    this.schedule();
  }

  /** One citation event; a source is cited once, so a repeated `n` is ignored. */
  addCitation(citation) {
    if (this.citations.has(citation.n)) {
      return;
    }
    this.citations.set(citation.n, citation);
    this.chips.append(this.chip(citation));
    this.schedule();
  }

  /** Render now (at the end of a stream) rather than at the next frame. */
  flush() {
    if (this.pending) {
      cancelAnimationFrame(this.pending);
      this.pending = 0;
    }
    this.render();
  }

  schedule() {
    // Tokens arrive many per frame; rendering once per frame keeps a long answer cheap.
    if (!this.pending) {
      this.pending = requestAnimationFrame(() => {
        this.pending = 0;
        this.render();
      });
    }
  }

  render() {
    const source = withMarkers(this.text, [...this.citations.values()]);
    const fragment = window.DOMPurify.sanitize(markdown.render(source), {
      FORBID_TAGS: FORBIDDEN_TAGS,
      FORBID_ATTR: ["style"],
      RETURN_DOM_FRAGMENT: true,
    });
    // Prose carries no links: sources reach the reader only as chips from citation
    // events. Any link the stream let through (the stream reduces every form it knows)
    // is shown as its text; the markers placed next are the only links in the prose.
    for (const link of fragment.querySelectorAll("a")) {
      link.replaceWith(...link.childNodes);
    }
    this.placeMarkers(fragment);
    settleMarkers(fragment);
    this.prose.replaceChildren(fragment);
  }

  chip(citation) {
    const item = document.createElement("li");
    item.className = "chip";
    item.id = `${this.key}-source-${citation.n}`;
    // A data answer's source is the measure call or the query that made its figure: shown as
    // code, whole on hover, and never linked (the collection's link template is for documents).
    const data = /^(measure|query):/.test(citation.id ?? "");
    const href = sourceHref(citation, this.linkTemplate);
    const label = document.createElement(href === null ? "span" : "a");
    if (href !== null) {
      label.href = href;
      label.rel = "noopener noreferrer";
    }
    const number = document.createElement("span");
    number.className = "chip-n";
    number.textContent = String(citation.n);
    const name = document.createElement("span");
    name.className = "chip-name";
    name.textContent = citation.display_name || citation.id || citation.url;
    if (data) {
      name.classList.add("chip-code");
      label.title = citation.display_name ?? "";
    }
    label.append(number, name);
    if (citation.quote) {
      label.title = citation.quote;
    }
    item.append(label);
    return item;
  }

  placeMarkers(fragment) {
    const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_TEXT);
    const marked = [];
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if (node.data.includes(MARK_OPEN)) {
        marked.push(node);
      }
    }
    for (const node of marked) {
      const parts = [];
      let last = 0;
      for (const match of node.data.matchAll(MARKER)) {
        parts.push(document.createTextNode(node.data.slice(last, match.index)));
        parts.push(this.marker(Number(match[1])));
        last = match.index + match[0].length;
      }
      parts.push(document.createTextNode(node.data.slice(last)));
      node.replaceWith(...parts);
    }
  }

  marker(n) {
    const sup = document.createElement("sup");
    sup.className = "marker";
    const link = document.createElement("a");
    link.href = `#${this.key}-source-${n}`;
    link.textContent = String(n);
    link.setAttribute("aria-label", `source ${n}`);
    sup.append(link);
    return sup;
  }
}

/**
 * The markdown with a marker after each cited span. Offsets count Unicode code points
 * (the contract's unit) while JavaScript strings count UTF-16 units, so the text is
 * split into code points first; a marker past the text so far waits for more text.
 */
export function withMarkers(text, citations) {
  const placed = citations
    .filter((c) => Number.isInteger(c.end))
    .sort((a, b) => b.end - a.end || b.n - a.n);
  if (placed.length === 0) {
    return text;
  }
  const points = Array.from(text);
  for (const citation of placed) {
    if (citation.end <= points.length) {
      points.splice(citation.end, 0, `${MARK_OPEN}${citation.n}${MARK_CLOSE}`);
    }
  }
  return points.join("");
}
