/**
 * An answer's markdown as a tree of a few plain elements, never as HTML. The page's
 * markdown-it and DOMPurify weigh 130 KB, past the box's 30, and small libraries write HTML
 * with links and images, which the box must never make (contracts/stream.md). So: a subset
 * of CommonMark, raw HTML off, no linkify: paragraphs, headings (as bold paragraphs, adding
 * nothing to the host page's outline), lists, quotes, fenced code, rules, code spans,
 * emphasis, escapes, entities, hard breaks; all else (links, images, HTML) is its text.
 *
 * A tree is a list of children: a string is text, a number n the marker of source n, an
 * array `[tag, ...children]` with a tag of TAGS. Linear in the text (spans and emphasis
 * pair through stacks: searching ahead from each opener is quadratic on a run of lone
 * `*`), and nesting stops at MAX_DEPTH, so no answer can exhaust the stack.
 */

export const TAGS = new Set(["p", "strong", "em", "code", "pre", "ul", "ol", "li", "blockquote", "hr", "br"]);

// Markers ride through parsing as private-use code points; the text's own become U+FFFD,
// one for one, so an answer cannot forge a marker and offsets still count.
const MARKS = /[\uE000\uE001]/g;
const MARKER = /\uE000(\d+)\uE001/g;
const MAX_DEPTH = 8;

const BLANK = /^[ \t]*$/;
const FENCE = /^ {0,3}(?:(`{3,})[^`]*|(~{3,}).*)$/;
const RULE = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const INDENTED = /^(?: {2,}|\t)/;

const SPECIAL = /[\\`*_&\n]/g;
const ESCAPABLE = /^[!-/:-@[-`{-~]$/;
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-z]{2,5}));/y;
const NAMED = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
const SPACE = /\s/u;
const PUNCT = /[\p{P}\p{S}]/u;

/**
 * `text` with a marker after each source's `end`, counted in code points (the contract's
 * unit; JavaScript strings count UTF-16 units). A marker past the text so far waits.
 */
export function withMarkers(text, sources) {
  const points = Array.from(text.replace(MARKS, "\uFFFD"));
  const placed = sources.filter((s) => Number.isInteger(s.end) && s.end <= points.length)
    .sort((a, b) => b.end - a.end || b.n - a.n);
  for (const source of placed) {
    points.splice(source.end, 0, `\uE000${source.n}\uE001`);
  }
  return points.join("");
}

export function renderMarkdown(text) {
  return blocks(text.split(/\r\n|\r|\n/), 0);
}

function blocks(lines, depth) {
  const out = [];
  let buffer = null; // the open paragraph's or list item's lines
  let into = out; // where it goes: `out`, `list` (as an item) or an item (as a paragraph)
  let list = null;
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
    if ((m = FENCE.exec(line))) {
      close();
      const fence = m[1] ?? m[2];
      const end = new RegExp(`^ {0,3}${fence[0]}{${fence.length},}[ \\t]*$`);
      const body = [];
      while (++i < lines.length && !end.test(lines[i])) {
        body.push(lines[i]);
      }
      out.push(["pre", ["code", ...marked(body.join("\n"))]]);
    } else if (RULE.test(line)) {
      close();
      out.push(["hr"]);
    } else if ((m = HEADING.exec(line))) {
      close();
      out.push(["p", ["strong", ...inline(m[1] ?? "")]]);
    } else if ((m = QUOTE.exec(line))) {
      close();
      const inner = [m[1]];
      while ((m = QUOTE.exec(lines[i + 1] ?? ""))) {
        inner.push(m[1]);
        i++;
      }
      out.push(["blockquote", ...(depth < MAX_DEPTH ? blocks(inner, depth + 1) : [["p", inner.join("\n")]])]);
    } else if ((m = ITEM.exec(line))) {
      const tag = /\d/.test(m[1]) ? "ol" : "ul";
      if (list?.[0] !== tag) {
        close();
        out.push((list = [tag]));
      }
      flush();
      buffer = [m[2] ?? ""];
      into = list;
    } else if (buffer !== null) {
      buffer.push(line); // a paragraph's next line, or an item's lazy continuation
    } else {
      const inItem = list !== null && gap && INDENTED.test(line); // the last item's paragraph
      if (!inItem) {
        close();
      }
      buffer = [line.trimStart()];
      into = inItem ? list.at(-1) : out;
    }
    gap = false;
  }
  flush();
  return out;
}

/** Text with its markers as numbers. */
function marked(text) {
  return text.split(MARKER).map((part, i) => (i % 2 ? Number(part) : part)).filter((part) => part !== "");
}

function inline(text) {
  const tokens = [];
  const literal = (value) => tokens.push({ value });
  const closing = backtickCloser(text);
  let i = 0;
  while (i < text.length) {
    SPECIAL.lastIndex = i;
    const at = SPECIAL.exec(text)?.index ?? text.length;
    if (at > i) {
      literal(text.slice(i, at));
      i = at;
      continue;
    }
    const ch = text[i];
    let end = i + 1;
    while (ch !== "\\" && ch !== "&" && text[end] === ch) {
      end++;
    }
    if (ch === "\\") {
      const next = text[i + 1] ?? "";
      const escaped = next === "\n" || ESCAPABLE.test(next);
      if (next === "\n") {
        tokens.push({ node: ["br"] });
      } else {
        literal(escaped ? next : "\\");
      }
      end = escaped ? i + 2 : i + 1;
    } else if (ch === "`") {
      const closer = closing(i, end - i);
      if (closer === null) {
        literal(text.slice(i, end));
      } else {
        let code = text.slice(end, closer).replace(/\n/g, " ");
        code = /^ .*[^ ].* $/s.test(code) ? code.slice(1, -1) : code;
        tokens.push({ node: ["code", ...marked(code)] });
        end = closer + end - i;
      }
    } else if (ch === "&") {
      ENTITY.lastIndex = i;
      const entity = ENTITY.exec(text);
      const decoded = entity && decode(entity);
      literal(decoded ?? "&");
      end = decoded ? i + entity[0].length : i + 1;
    } else if (ch === "\n") {
      const last = tokens.at(-1);
      const hard = / {2,}$/.test(last?.value ?? "");
      if (hard) {
        last.value = last.value.trimEnd();
      }
      tokens.push(hard ? { node: ["br"] } : { value: "\n" });
      end = i + 1;
    } else {
      tokens.push(delimiter(text, i, end));
    }
    i = end;
  }
  pair(tokens);
  return tree(tokens);
}

/**
 * `closing(at, length)`: where the next run of exactly `length` backticks after the run
 * at `at` starts, or null. Each length's search only moves forward, as the scan does.
 */
function backtickCloser(text) {
  const starts = new Map();
  for (const run of text.matchAll(/`+/g)) {
    starts.set(run[0].length, starts.get(run[0].length) ?? []).get(run[0].length).push(run.index);
  }
  const next = new Map();
  return (at, length) => {
    const same = starts.get(length) ?? [];
    let k = next.get(length) ?? 0;
    while (k < same.length && same[k] < at + length) {
      k++;
    }
    next.set(length, k);
    return same[k] ?? null;
  };
}

function decode([, decimal, hex, name]) {
  if (name !== undefined) {
    return Object.hasOwn(NAMED, name) ? NAMED[name] : null;
  }
  const code = decimal !== undefined ? Number(decimal) : parseInt(hex, 16);
  return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "\uFFFD";
}

/** A run of `*` or `_`, with CommonMark's flanking rules for opening and closing. */
function delimiter(text, start, end) {
  const before = text[start - 1] ?? " ";
  const after = text[end] ?? " ";
  const left = !SPACE.test(after) && (!PUNCT.test(after) || SPACE.test(before) || PUNCT.test(before));
  const right = !SPACE.test(before) && (!PUNCT.test(before) || SPACE.test(after) || PUNCT.test(after));
  const star = text[start] === "*";
  return {
    ch: text[start], at: start, left: end - start, opens: [], closes: [],
    open: left && (star || !right || PUNCT.test(before)),
    close: right && (star || !left || PUNCT.test(after)),
  };
}

/**
 * Pairs each closing run with the nearest open run of its character. An opener of the
 * other character between them can no longer close inside, so it is dropped: pairs always
 * nest, and each run is pushed and popped once.
 */
function pair(tokens) {
  const stacks = { "*": [], _: [] };
  for (const token of tokens.filter((t) => t.ch !== undefined)) {
    const stack = stacks[token.ch];
    const other = stacks[token.ch === "*" ? "_" : "*"];
    while (token.close && token.left > 0 && stack.length > 0) {
      const opener = stack.at(-1);
      const used = opener.left >= 2 && token.left >= 2 ? 2 : 1;
      opener.left -= used;
      token.left -= used;
      opener.opens.unshift(used);
      token.closes.push(used);
      while (other.at(-1)?.at > opener.at) {
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
  let ghosts = 0; // pairs nested too deep to make, shown as text; always innermost
  const text = (value) => {
    for (const part of marked(value)) {
      const node = open.at(-1);
      if (typeof part === "string" && node.length > (node === root ? 0 : 1) && typeof node.at(-1) === "string") {
        node[node.length - 1] += part;
      } else {
        node.push(part);
      }
    }
  };
  for (const token of tokens) {
    if (token.node) {
      open.at(-1).push(token.node);
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
          open.at(-1).push(node);
          open.push(node);
        }
      }
    }
  }
  return root;
}
