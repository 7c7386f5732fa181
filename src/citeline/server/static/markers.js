/**
 * Where a citation marker sits in rendered prose: at the end of the sentence or clause it
 * supports, never directly after a digit, never inside code.
 *
 * A citation's `end` offset is where its cited phrase ends, which is wherever the model put
 * its link: right after a figure ("5,076.0¹" reads as a power), inside a code block
 * (`result¹ = [...]`), or mid-list ("methods², or headers"). The answer view puts each
 * marker at its offset first (so markdown never sees a marker it could misread), then
 * hands the rendered fragment here, which moves each one to where a reader looks for it:
 *
 * - out of inline code to just after it, then on to the end of its sentence or clause
 *   (`.`, `!`, `?`, `;` or `:` before a space or the end of the block, with any closing
 *   quote or bracket): "e.g." and "12.42" end nothing;
 * - out of a code block to the end of the prose that introduces it ("... as follows:"),
 *   else of the prose after it, else it is dropped (the chip still lists the source);
 * - a block with no such ending (a list item, a table cell, a heading) ends at its end;
 * - a marker that would follow a digit gets a narrow no-break space before it.
 *
 * It reads only the rendered fragment's structure, never the answer's meaning, and moves
 * markers only forward within their block (or to the block that introduces their code).
 */

// Elements that hold a run of inline text; a marker never leaves the one it is in, except
// out of a code block.
const BLOCKS = new Set(["P", "LI", "TD", "TH", "H1", "H2", "H3", "H4", "H5", "H6", "DT",
  "DD", "BLOCKQUOTE", "PRE", "UL", "OL", "TABLE", "DIV", "DL", "FIGCAPTION"]);
// A sentence or clause ends at one of these before a space or the end of the block, after
// any closing quotes or brackets.
const ENDING = /[.!?;:]["'\u201D\u2019)\]]*(?=\s|$)/g;
const DIGIT = /\d$/;
// Stands in for code inside a scanned run: never an ending, never a space.
const CODE_STANDIN = "x";
const NARROW_SPACE = "\u202F";

/** Move every `sup.marker` in `fragment` to where a reader expects it. */
export function settleMarkers(fragment) {
  for (const marker of [...fragment.querySelectorAll("sup.marker")]) {
    settle(marker, fragment);
  }
}

function settle(marker, root) {
  const pre = marker.closest("pre");
  if (pre !== null && root.contains(pre)) {
    const beside = proseBeside(pre);
    if (beside === null) {
      marker.remove();
      return;
    }
    if (beside.introduces) {
      placeAtEnd(marker, beside.block);
      keepOffDigits(marker);
      return;
    }
    beside.block.prepend(marker);
  }
  const code = outermostCode(marker, root);
  if (code !== null) {
    code.after(marker);
  }
  const block = blockOf(marker, root);
  if (!endsHere(marker, block)) {
    moveToEnding(marker, block);
  }
  keepOffDigits(marker);
}

function outermostCode(node, root) {
  let found = null;
  for (let at = node.parentNode; at !== null && at !== root; at = at.parentNode) {
    if (at.nodeName === "CODE") {
      found = at;
    }
  }
  return found;
}

function blockOf(node, root) {
  for (let at = node.parentNode; at !== null; at = at.parentNode) {
    if (at === root || BLOCKS.has(at.nodeName)) {
      return at;
    }
  }
  return root;
}

/**
 * The prose beside a code block: the text block that introduces it (the one before it,
 * `introduces`), else the first one after it; null when the answer is all code.
 */
function proseBeside(pre) {
  for (const [step, introduces] of [["previousElementSibling", true], ["nextElementSibling", false]]) {
    for (let at = pre[step]; at !== null; at = at[step]) {
      if (at.nodeName !== "PRE" && textOf(at).trim() !== "") {
        return { block: textBlockAt(at, introduces), introduces };
      }
    }
  }
  return null;
}

/** The block that holds text at the end (or start) of `element`: a list's last item, say. */
function textBlockAt(element, last) {
  let block = element;
  for (;;) {
    const children = [...block.children].filter(
      (child) => BLOCKS.has(child.nodeName) && textOf(child).trim() !== "");
    if (children.length === 0) {
      return block;
    }
    block = last ? children[children.length - 1] : children[0];
  }
}

function textOf(element) {
  return element.textContent ?? "";
}

/**
 * The inline run after (or before) `marker` within `block`: its text nodes in order, with
 * code as one stand-in piece and other markers skipped; nested blocks end the run.
 */
function runPieces(block, from, direction) {
  const pieces = [];
  const visit = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      pieces.push({ node, text: node.data });
      return true;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) {
      return true;
    }
    if (node.matches("sup.marker")) {
      pieces.push({ node, text: "", marker: true });
      return true;
    }
    if (BLOCKS.has(node.nodeName)) {
      return false;
    }
    if (node.nodeName === "CODE") {
      pieces.push({ node, text: CODE_STANDIN.repeat(Math.max(textOf(node).length, 1)), code: true });
      return true;
    }
    const children = direction === "forward" ? [...node.childNodes] : [...node.childNodes].reverse();
    return children.every(visit);
  };
  const step = direction === "forward" ? "nextSibling" : "previousSibling";
  for (let at = from; at !== null && at !== block; at = at.parentNode) {
    for (let sibling = at[step]; sibling !== null; sibling = sibling[step]) {
      if (!visit(sibling)) {
        return direction === "forward" ? pieces : pieces.reverse();
      }
    }
  }
  return direction === "forward" ? pieces : pieces.reverse();
}

/** Whether the marker already follows the end of a sentence or clause. */
function endsHere(marker, block) {
  const before = runPieces(block, marker, "backward").map((piece) => piece.text).join("");
  const after = runPieces(block, marker, "forward").map((piece) => piece.text).join("");
  if (after.trim() === "") {
    return true; // the end of the block
  }
  if (!/^\s/.test(after)) {
    return false;
  }
  return /[.!?;:]["'\u201D\u2019)\]]*$/.test(before) && !abbreviation(before);
}

/** Whether the text ends on an abbreviation's stops ("e.g.", "i.e."), which end nothing. */
function abbreviation(text) {
  const word = text.slice(text.search(/\S+$/));
  return /^\(?(?:[A-Za-z]\.){2,}["'\u201D\u2019)\]]*$/.test(word);
}

function moveToEnding(marker, block) {
  const pieces = runPieces(block, marker, "forward");
  const text = pieces.map((piece) => piece.text).join("");
  let cut = null;
  for (const match of text.matchAll(ENDING)) {
    const end = match.index + match[0].length;
    if (!abbreviation(text.slice(0, end))) {
      cut = end;
      break;
    }
  }
  if (cut === null) {
    placeAfterRun(marker, pieces);
    return;
  }
  let offset = 0;
  for (const piece of pieces) {
    const length = piece.text.length;
    if (!piece.code && !piece.marker && cut <= offset + length) {
      insertAfterText(marker, piece.node, cut - offset);
      return;
    }
    offset += length;
  }
  placeAfterRun(marker, pieces);
}

/** Put `marker` at offset `at` of text node `node`, after any markers already there. */
function insertAfterText(marker, node, at) {
  let anchor = node;
  if (at < node.data.length) {
    node.splitText(at);
  }
  while (anchor.nextSibling !== null && anchor.nextSibling.nodeType === Node.ELEMENT_NODE &&
    anchor.nextSibling.matches("sup.marker")) {
    anchor = anchor.nextSibling;
  }
  anchor.after(marker);
}

/** At the end of the run: after its last text (less trailing space) or code. */
function placeAfterRun(marker, pieces) {
  const last = [...pieces].reverse().find((piece) => !piece.marker && piece.text.trim() !== "");
  if (last === undefined) {
    return; // nothing follows: the marker stays where it is
  }
  if (last.code) {
    last.node.after(marker);
    return;
  }
  insertAfterText(marker, last.node, last.node.data.trimEnd().length);
}

/** At the end of `host`'s own inline text: after its last text, less trailing space. */
function placeAtEnd(marker, host) {
  const probe = document.createTextNode("");
  host.append(probe);
  const pieces = runPieces(host, probe, "backward");
  probe.remove();
  const last = [...pieces].reverse().find((piece) => !piece.marker && piece.text.trim() !== "");
  if (last === undefined) {
    host.append(marker);
  } else if (last.code) {
    last.node.after(marker);
  } else {
    insertAfterText(marker, last.node, last.node.data.trimEnd().length);
  }
}

function keepOffDigits(marker) {
  let before = marker.previousSibling;
  for (let at = marker; before === null && at.parentNode !== null; at = at.parentNode) {
    if (BLOCKS.has(at.parentNode.nodeName)) {
      return; // the first thing in its block
    }
    before = at.parentNode.previousSibling;
  }
  if (before === null || (before.nodeType === Node.ELEMENT_NODE && before.matches("sup.marker"))) {
    return; // after another marker: already apart from the text
  }
  if (DIGIT.test(textOf(before))) {
    marker.before(document.createTextNode(NARROW_SPACE));
  }
}
