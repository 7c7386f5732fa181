/**
 * An answer's markdown as a tree of a few plain elements, never as HTML.
 *
 * Why not a library: the page's markdown-it and DOMPurify weigh 130 KB, past the box's
 * budget of 30 KB, and the small markdown libraries write HTML strings with links and
 * images, which the box must not make (prose carries no links: contracts/stream.md). So
 * this reads a subset of CommonMark with raw HTML off and no linkify: paragraphs, ATX and
 * setext headings (shown as bold paragraphs, so an answer adds no heading to the host
 * page's outline), bullet and numbered lists, block quotes, fenced code, thematic breaks,
 * code spans, emphasis, backslash escapes, numeric and common named entities, hard line
 * breaks. Everything else (links, images, raw HTML, tables) is shown as the text it is.
 *
 * A tree is a list of children: a string is text, a number n is the marker of source n,
 * and an array is `[tag, ...children]` with tag one of TAGS. Pure, so Node tests it.
 * Linear in the text: code spans and emphasis are paired with stacks, never by searching
 * ahead from every opener (that is quadratic on a run of lone `*` or backticks), and
 * nesting is bounded (MAX_DEPTH) so a hostile answer cannot exhaust the stack.
 */

export const TAGS = new Set([
  "p", "strong", "em", "code", "pre", "ul", "ol", "li", "blockquote", "hr", "br",
]);

// Private-use code points carry markers through parsing; the text's own become U+FFFD,
// one code point for one, so an answer cannot forge a marker and offsets still count.
const MARKS = /[\uE000\uE001]/g;
const MARKER = /\uE000(\d+)\uE001/g;
const MAX_DEPTH = 8;

const BLANK = /^[ \t]*$/;
const FENCE = /^ {0,3}(?:(`{3,})[^`]*|(~{3,}).*)$/;
const HR = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const INDENTED = /^(?: {2,}|\t)/;

const SPECIAL = /[\\`*_&\n]/g;
const ESCAPABLE = /^[!-/:-@[-`{-~]$/;
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-z]{2,6}));/y;
const NAMED = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", copy: "\u00a9",
  reg: "\u00ae", hellip: "\u2026", mdash: "\u2014", ndash: "\u2013", times: "\u00d7",
  lsquo: "\u2018", rsquo: "\u2019", ldquo: "\u201c", rdquo: "\u201d", deg: "\u00b0",
};
const SPACE = /\s/u;
const PUNCT = /[\p{P}\p{S}]/u;

/**
 * `text` with a marker after each placed source's `end`. Offsets count Unicode code
 * points (the contract's unit) while JavaScript strings count UTF-16 units, so the text
 * is split into code points; a marker past the text so far waits for more text.
 */
export function withMarkers(text, sources) {
  const points = Array.from(text.replace(MARKS, "\uFFFD"));
  const placed = sources
    .filter((s) => Number.isInteger(s.end) && s.end <= points.length)
    .sort((a, b) => b.end - a.end || b.n - a.n);
  for (const source of placed) {
    points.splice(source.end, 0, `\uE000${source.n}\uE001`);
  }
  return points.join("");
}

/** The tree of `text` (markers already placed by withMarkers). */
export function renderMarkdown(text) {
  return blocks(text.split(/\r\n|\r|\n/), 0);
}

function blocks(lines, depth) {
  const out = [];
  let buffer = null; // lines of the open paragraph or list item
  let into = out; // where that paragraph goes: `out`, an item of `list`, or an item itself
  let list = null; // the open list's node
  let gap = false; // a blank line since the last text
  const flush = () => {
    if (buffer !== null) {
      const content = inline(buffer.join("\n"));
      into.push(into === list ? ["li", ...content] : ["p", ...content]);
    }
    buffer = null;
  };
  const close = () => {
    flush();
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if (BLANK.test(line)) {
      flush();
      gap = true;
      continue;
    }
    if (buffer !== null && into === out && SETEXT.test(line)) {
      out.push(["p", ["strong", ...inline(buffer.join("\n"))]]);
      buffer = null;
    } else if ((m = FENCE.exec(line))) {
      close();
      const fence = m[1] ?? m[2];
      const end = new RegExp(`^ {0,3}${fence[0]}{${fence.length},}[ \\t]*$`);
      const body = [];
      while (++i < lines.length && !end.test(lines[i])) {
        body.push(lines[i]);
      }
      out.push(["pre", ["code", ...marked(body.join("\n"))]]);
    } else if (HR.test(line)) {
      close();
      out.push(["hr"]);
    } else if ((m = HEADING.exec(line))) {
      close();
      out.push(["p", ["strong", ...inline(m[1] ?? "")]]);
    } else if ((m = QUOTE.exec(line))) {
      close();
      const inner = [m[1]];
      while (i + 1 < lines.length && (m = QUOTE.exec(lines[i + 1]))) {
        inner.push(m[1]);
        i++;
      }
      out.push(["blockquote", ...(depth < MAX_DEPTH
        ? blocks(inner, depth + 1)
        : [["p", ...inline(inner.join("\n"))]])]);
    } else if ((m = ITEM.exec(line))) {
      const tag = /\d/.test(m[1]) ? "ol" : "ul";
      if (list === null || list[0] !== tag) {
        close();
        list = [tag];
        out.push(list);
      }
      flush();
      buffer = [m[2] ?? ""];
      into = list;
    } else if (buffer !== null) {
      buffer.push(line); // a paragraph's next line, or an item's lazy continuation
    } else if (list !== null && gap && INDENTED.test(line)) {
      buffer = [line.trimStart()]; // a paragraph of the last item, after a blank line
      into = list.at(-1);
    } else {
      close();
      buffer = [line.trimStart()];
      into = out;
    }
    gap = false;
  }
  flush();
  return out;
}

/** Text with its markers as numbers. */
function marked(text) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(MARKER)) {
    parts.push(text.slice(last, match.index), Number(match[1]));
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.filter((part) => part !== "");
}

function inline(text) {
  const tokens = [];
  const literal = (value) => tokens.push({ value });
  const closing = backtickCloser(text);
  let i = 0;
  while (i < text.length) {
    SPECIAL.lastIndex = i;
    const found = SPECIAL.exec(text);
    const at = found === null ? text.length : found.index;
    if (at > i) {
      literal(text.slice(i, at));
      i = at;
      continue;
    }
    const ch = text[i];
    if (ch === "\\") {
      const next = text[i + 1] ?? "";
      if (next === "\n") {
        tokens.push({ node: ["br"] });
      } else if (ESCAPABLE.test(next)) {
        literal(next);
      } else {
        literal("\\");
        i += 1;
        continue;
      }
      i += 2;
    } else if (ch === "`") {
      let length = 1;
      while (text[i + length] === "`") {
        length++;
      }
      const closer = closing(i, length);
      if (closer === null) {
        literal("`".repeat(length));
        i += length;
      } else {
        let code = text.slice(i + length, closer).replace(/\n/g, " ");
        if (/^ .*[^ ].* $/s.test(code)) {
          code = code.slice(1, -1);
        }
        tokens.push({ node: ["code", ...marked(code)] });
        i = closer + length;
      }
    } else if (ch === "&") {
      ENTITY.lastIndex = i;
      const entity = ENTITY.exec(text);
      const decoded = entity === null ? undefined : decode(entity);
      literal(decoded ?? "&");
      i += decoded === undefined ? 1 : entity[0].length;
    } else if (ch === "\n") {
      const previous = tokens.at(-1);
      if (previous?.value !== undefined && / {2,}$/.test(previous.value)) {
        previous.value = previous.value.trimEnd();
        tokens.push({ node: ["br"] });
      } else {
        literal("\n");
      }
      i += 1;
    } else {
      let end = i;
      while (text[end] === ch) {
        end++;
      }
      tokens.push(delimiter(text, i, end));
      i = end;
    }
  }
  pair(tokens);
  return tree(tokens);
}

/**
 * `closing(at, length)`: where the next run of exactly `length` backticks after the
 * opening run at `at` starts, or null. Runs are indexed once and each length's search
 * only moves forward, as the scan does: linear in the text.
 */
function backtickCloser(text) {
  const byLength = new Map();
  for (const run of text.matchAll(/`+/g)) {
    const starts = byLength.get(run[0].length) ?? [];
    starts.push(run.index);
    byLength.set(run[0].length, starts);
  }
  const next = new Map();
  return (at, length) => {
    const starts = byLength.get(length) ?? [];
    let k = next.get(length) ?? 0;
    while (k < starts.length && starts[k] < at + length) {
      k++;
    }
    next.set(length, k);
    return k < starts.length ? starts[k] : null;
  };
}

function decode([, decimal, hex, name]) {
  if (name !== undefined) {
    return NAMED[name];
  }
  const code = decimal !== undefined ? Number(decimal) : parseInt(hex, 16);
  const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
  return valid ? String.fromCodePoint(code) : "\uFFFD";
}

/** A run of `*` or `_` with CommonMark's flanking rules for opening and closing. */
function delimiter(text, start, end) {
  const before = text[start - 1] ?? " ";
  const after = text[end] ?? " ";
  const left = !SPACE.test(after) && (!PUNCT.test(after) || SPACE.test(before) || PUNCT.test(before));
  const right = !SPACE.test(before) && (!PUNCT.test(before) || SPACE.test(after) || PUNCT.test(after));
  const ch = text[start];
  const star = ch === "*";
  return {
    ch,
    at: start,
    left: end - start,
    open: star ? left : left && (!right || PUNCT.test(before)),
    close: star ? right : right && (!left || PUNCT.test(after)),
    opens: [],
    closes: [],
  };
}

/**
 * Pairs each closing run with the nearest open run of its character. An opener of the
 * other character between the two can no longer close inside them, so it is dropped:
 * pairs always nest, and each run is pushed and popped once.
 */
function pair(tokens) {
  const stacks = { "*": [], _: [] };
  for (const token of tokens) {
    if (token.ch === undefined) {
      continue;
    }
    const stack = stacks[token.ch];
    const other = stacks[token.ch === "*" ? "_" : "*"];
    while (token.close && token.left > 0 && stack.length > 0) {
      const opener = stack.at(-1);
      const used = opener.left >= 2 && token.left >= 2 ? 2 : 1;
      opener.left -= used;
      token.left -= used;
      opener.opens.unshift(used);
      token.closes.push(used);
      while (other.length > 0 && other.at(-1).at > opener.at) {
        other.pop();
      }
      if (opener.left === 0) {
        stack.pop();
      }
    }
    if (token.open && token.left > 0) {
      stack.push(token);
    }
  }
}

function tree(tokens) {
  const root = [];
  const open = [root]; // the nodes being filled, innermost last
  let ghosts = 0; // pairs nested too deep to make, shown as their text; always innermost
  const add = (child) => {
    const node = open.at(-1);
    if (typeof child === "string" && node.length > (node === root ? 0 : 1) &&
        typeof node.at(-1) === "string") {
      node[node.length - 1] += child;
    } else {
      node.push(child);
    }
  };
  const text = (value) => {
    for (const part of marked(value)) {
      add(part);
    }
  };
  for (const token of tokens) {
    if (token.node !== undefined) {
      add(token.node);
    } else if (token.value !== undefined) {
      text(token.value);
    } else {
      for (const used of token.closes) {
        if (ghosts > 0) {
          ghosts--;
          text(token.ch.repeat(used));
        } else {
          open.pop();
        }
      }
      text(token.ch.repeat(token.left));
      for (const used of token.opens) {
        if (open.length > MAX_DEPTH) {
          ghosts++;
          text(token.ch.repeat(used));
        } else {
          const node = [used === 2 ? "strong" : "em"];
          add(node);
          open.push(node);
        }
      }
    }
  }
  return root;
}
