/**
 * The Ask box's markdown (src/citeline/server/static/embed/ask-markdown.js): a subset of
 * CommonMark with raw HTML off and no linkify, made of plain elements only.
 *
 * Every prose output of the contract's transforms (stream.json, citation-scan.json) and
 * every input they were given, links and HTML included, renders to elements of TAGS alone:
 * whatever the model wrote, the box makes no link, image or active element of it.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { TAGS, renderMarkdown, withMarkers } from "../../src/citeline/server/static/embed/ask-markdown.js";

const fixture = (name) =>
  JSON.parse(readFileSync(new URL(`../../contracts/fixtures/${name}`, import.meta.url), "utf8"));

/** Every tag in a tree, and its text with markers as [n]. */
function walk(tree, tags = []) {
  let text = "";
  for (const node of tree) {
    if (typeof node === "string") {
      text += node;
    } else if (typeof node === "number") {
      text += `[${node}]`;
    } else {
      tags.push(node[0]);
      text += walk(node.slice(1), tags).text;
    }
  }
  return { tags, text };
}

const tagsOf = (markdown) => walk(renderMarkdown(markdown)).tags;
const textOf = (markdown) => walk(renderMarkdown(markdown)).text;

test("every transform output and input of the contract renders to plain elements only", () => {
  const texts = [];
  for (const item of fixture("stream.json").cases) {
    texts.push(item.input, item.output);
  }
  for (const item of fixture("citation-scan.json").cases) {
    const input = Array.isArray(item.input)
      ? item.input.map((part) => (typeof part === "string" ? part : part.repeat.repeat(part.times))).join("")
      : item.input;
    texts.push(input, item.expected.text);
  }
  assert.ok(texts.length > 200);
  for (const text of texts) {
    for (const tag of tagsOf(text)) {
      assert.ok(TAGS.has(tag), `${tag} in ${JSON.stringify(text).slice(0, 80)}`);
    }
  }
  assert.ok(!TAGS.has("a") && !TAGS.has("img"));
});

test("links, images, autolinks and raw HTML are shown as the text they are", () => {
  const markdown = "See [the docs](https://e.org) ![x](https://e.org/i.png) <https://e.org> <b onclick=x>b</b>";
  assert.deepEqual(renderMarkdown(markdown), [["p", markdown]]);
});

test("a bare address is text: no linkify", () => {
  assert.deepEqual(renderMarkdown("Go to https://docs.example.org/install.html now."), [
    ["p", "Go to https://docs.example.org/install.html now."],
  ]);
});

test("emphasis, strong and code spans become elements", () => {
  assert.deepEqual(renderMarkdown("A **strong** and *em* and `x < y` word"), [
    ["p", "A ", ["strong", "strong"], " and ", ["em", "em"], " and ", ["code", "x < y"], " word"],
  ]);
});

test("an underscore inside a word is not emphasis", () => {
  assert.deepEqual(renderMarkdown("call snake_case_name here"), [["p", "call snake_case_name here"]]);
});

test("emphasis that crosses another closes the first and leaves the rest as text", () => {
  assert.deepEqual(renderMarkdown("*a _b* c_"), [["p", ["em", "a _b"], " c_"]]);
});

test("backslash escapes and entities read as the characters they stand for", () => {
  // The stream escapes brackets and writes < as &lt; in reduced link text (contracts/stream.md).
  assert.equal(textOf("\\[1\\] &lt;b&gt; &amp; &#x1F30A; &#0; &bogus; \\q"), "[1] <b> & 🌊 \uFFFD &bogus; \\q");
});

test("a code span keeps backslashes and markup verbatim", () => {
  assert.deepEqual(renderMarkdown("`a\\` and ``[x](u) ` **y**``"), [
    ["p", ["code", "a\\"], " and ", ["code", "[x](u) ` **y**"]],
  ]);
});

test("a fenced block is code, verbatim, to its closing fence", () => {
  assert.deepEqual(renderMarkdown("Run:\n\n```sh\n<a href=x>**x**</a>\n```\nDone."), [
    ["p", "Run:"],
    ["pre", ["code", "<a href=x>**x**</a>"]],
    ["p", "Done."],
  ]);
});

test("headings are bold paragraphs, so an answer adds no heading to the page's outline", () => {
  assert.deepEqual(renderMarkdown("## Spring tides ##\nText\n#5 is no heading"), [
    ["p", ["strong", "Spring tides"]],
    ["p", "Text\n#5 is no heading"],
  ]);
});

test("lists, quotes, breaks and rules keep their shape", () => {
  assert.deepEqual(renderMarkdown("- a\n- b\n\n1. c\n2) d\n\n> q\n> r\n\n***\nx  \ny"), [
    ["ul", ["li", "a"], ["li", "b"]],
    ["ol", ["li", "c"], ["li", "d"]],
    ["blockquote", ["p", "q\nr"]],
    ["hr"],
    ["p", "x", ["br"], "y"],
  ]);
});

test("an indented paragraph after a blank line belongs to the list item above it", () => {
  assert.deepEqual(renderMarkdown("- item\n\n  more\n\nafter"), [
    ["ul", ["li", "item", ["p", "more"]]],
    ["p", "after"],
  ]);
});

test("markers go after each source's end, counted in code points", () => {
  const text = withMarkers("🌊 Spring tides happen.", [{ n: 1, end: 14 }, { n: 2, end: 22 }, { n: 3, end: null }]);
  assert.deepEqual(renderMarkdown(text), [["p", "🌊 Spring tides", 1, " happen.", 2]]);
});

test("a marker past the text so far waits, and the text cannot forge one", () => {
  const text = withMarkers("\uE0009\uE001 Tides", [{ n: 1, end: 40 }]);
  assert.deepEqual(renderMarkdown(text), [["p", "\uFFFD9\uFFFD Tides"]]);
});

test("nesting is bounded, so a hostile answer cannot exhaust the stack", () => {
  let depth = 0;
  let node = renderMarkdown("**a ".repeat(5000) + "x" + " b**".repeat(5000))[0];
  while (Array.isArray(node)) {
    depth++;
    node = node.find((child, index) => index > 0 && Array.isArray(child));
  }
  assert.ok(depth <= 10, `depth ${depth}`);
  assert.ok(renderMarkdown("> ".repeat(20000) + "x").length === 1);
});

test("unmatched delimiters and backticks stay text", () => {
  for (const markdown of ["a" + "*".repeat(20000), "`` ` ".repeat(4000), "_a *b".repeat(3000)]) {
    const { tags, text } = walk(renderMarkdown(markdown));
    assert.ok(tags.every((tag) => TAGS.has(tag)));
    assert.ok(text.length > 0);
  }
});
