/**
 * The native answer stream of contracts/answer_endpoint.md, read: server-sent events from
 * a fetch body (readEvents, the page's reader too), folded into what a reader is shown
 * (AnswerReading: the text, the sources and their links, how it ended and was produced).
 *
 * No DOM and no fetch, so Node's test runner holds it to the contract's fixtures
 * (tests/js/). Sources are `citation` events and the outcome is `done.state`: the prose
 * is never searched for either. What the contract says never happens (a citation naming
 * both `id` and `url`, a repeated `n`, anything after `done`) is ignored: a box on
 * someone else's site must neither break nor link where the server did not vouch.
 */

/**
 * Each event of a byte stream as `{name, data}`, data parsed. Only `event` and `data` are
 * read; comments (keep-alives) are skipped. Lines end CRLF, LF or CR; a CR that ends a
 * chunk is held until the next shows whether an LF follows: sse-starlette ends lines CRLF,
 * a chunk may end between the two, and the CR alone would end an event early.
 */
export async function* readEvents(byteStream) {
  const reader = byteStream.pipeThrough(new TextDecoderStream()).getReader();
  const lines = /([^\r\n]*)(\r\n|\r|\n)/y;
  let [buffer, name, data] = ["", "message", []];
  try {
    for (let done = false; !done;) {
      const chunk = await reader.read();
      done = chunk.done;
      buffer += chunk.value ?? "";
      let [start, line] = [0, null];
      while ((lines.lastIndex = start, line = lines.exec(buffer)) &&
          (done || line[2] !== "\r" || lines.lastIndex < buffer.length)) {
        start = lines.lastIndex;
        const [field, value = ""] = line[1].split(/:(.*)/s);
        if (line[1] === "" && data.length > 0) {
          yield { name, data: JSON.parse(data.join("\n")) };
        }
        if (line[1] === "") {
          [name, data] = ["message", []];
        } else if (field === "event") {
          name = value.replace(/^ /, "");
        } else if (field === "data") {
          data.push(value.replace(/^ /, ""));
        }
      }
      buffer = buffer.slice(start);
    }
  } finally {
    reader.releaseLock();
  }
}

// done.provenance in a sentence: the server's label, never a guess from the prose.
export const PROVENANCE = {
  sourced: "Drawn from the pages cited below.",
  verified: "Figures from a governed measure defined by the data's owner.",
  cited: "Figures from a query the model wrote, backed by a quote the server verified.",
  untrusted: "Figures from a query the model wrote, with no verified quote: check them.",
  none: "Not drawn from any cited source.",
};

const DATA_SOURCE = /^(measure|query):/; // a measure call or a query: shown, never linked
const text = (value) => typeof value === "string" && value !== "";
const offset = (value) => Number.isInteger(value) && value >= 0;

/**
 * `candidate` as an absolute http(s) address (a relative one against `base`), or null. As
 * the server's events.web_address: no blank or control character, which URL() would
 * quietly encode where the server refuses.
 */
export function webAddress(candidate, base) {
  try {
    const url = new URL(candidate, base);
    return text(candidate) && !/[\0- \x7f]/.test(candidate) && /^https?:$/.test(url.protocol) && url.host
      ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Where a source's chip links: its `href` (the section's own address), else its `url`,
 * else the link template filled with its `id` through encodeURI (which keeps `/` and `#`,
 * so an id may be a path), resolved against `base`, the server.
 */
export function sourceLink(citation, linkTemplate, base) {
  if (DATA_SOURCE.test(citation.id ?? "")) {
    return null;
  }
  const own = webAddress(citation.href) ?? webAddress(citation.url);
  return own ?? (text(citation.id) && text(linkTemplate)
    ? webAddress(linkTemplate.replaceAll("{id}", encodeURI(citation.id)), base)
    : null);
}

/**
 * A citation payload as the contract draws it: exactly one identifier, an `href` only as
 * an absolute http(s) address, both offsets or neither, a positive `n`.
 */
function wellFormed(data) {
  const named = ("id" in data) !== ("url" in data) && text(data.id ?? data.url);
  const placed = (data.start === null && data.end === null) ||
    (offset(data.start) && offset(data.end) && data.start <= data.end);
  const followed = !("href" in data) || webAddress(data.href) !== null;
  return named && placed && followed && Number.isInteger(data.n) && data.n > 0;
}

export class AnswerReading {
  /** `linkTemplate` is the collection's (/v1/info); `base` the server's address. */
  constructor({ linkTemplate = null, base } = {}) {
    Object.assign(this, { linkTemplate, base, started: false, text: "", sources: [] });
    this.state = null; // done.state once it came; null while streaming, or if it never did
    this.answerId = this.provenance = this.conversationId = null;
    this.truncated = false;
  }

  /** Fold in one `{name, data}` event; false when it changes nothing. */
  read({ name, data }) {
    if (this.state !== null || data === null || typeof data !== "object") {
      return false;
    }
    if (name === "start") {
      this.started = true;
      this.conversationId = text(data.conversation_id) ? data.conversation_id : null;
    } else if (name === "token" && typeof data.text === "string") {
      this.text += data.text;
    } else if (name === "citation" && wellFormed(data) && !this.sources.some((s) => s.n === data.n)) {
      this.sources.push({
        n: data.n,
        name: text(data.display_name) ? data.display_name : data.id ?? data.url,
        link: sourceLink(data, this.linkTemplate, this.base),
        start: data.start,
        end: data.end,
        data: DATA_SOURCE.test(data.id ?? ""),
        quote: text(data.quote) ? data.quote : null,
        foundByServer: data.found_by === "server", // attributed by the server, not the model's link
      });
    } else if (name === "done") {
      this.state = text(data.state) ? data.state : "failed";
      this.answerId = text(data.answer_id) ? data.answer_id : null;
      this.provenance = text(data.provenance) ? data.provenance : null;
      this.truncated = data.truncated === true; // cut at the model's token limit: not whole
    } else {
      return false; // malformed, or an event a later contract may add
    }
    return true;
  }

  /** The provenance in a sentence; "" for none, or for a label this box does not know. */
  get trust() {
    return Object.hasOwn(PROVENANCE, this.provenance ?? "") ? PROVENANCE[this.provenance] : "";
  }

  /** Whether there is an answer to show: `answered`, with text. */
  get answered() {
    return this.state === "answered" && this.text.trim() !== "";
  }
}
