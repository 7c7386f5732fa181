/**
 * The Ask box's reader (src/citeline/server/static/embed/ask-stream.js) held to the
 * contract's own fixtures, in a second language: `node --test tests/js/` (.ci/run).
 *
 * - answer-stream.json: every case and every tolerated stream, written as the server
 *   writes it (LF lines) and as sse-starlette does (CRLF, with keep-alive comments),
 *   handed to the reader whole, one byte at a time and cut in two at every byte, must
 *   read as the case's `reads`.
 * - reactome-wire.json: every native stream, written to the wire, reads back as its
 *   events, and its sources are its citations in order.
 * - citation-links.json: every valid citation is a source linked where the case says,
 *   and every invalid one is no source at all.
 * - provenance.json: every label the contract's rule can give has a sentence in the box.
 * - stream.json and citation-scan.json are the server's transforms; their outputs are
 *   the prose a client receives, and ask-markdown.test.mjs renders every one of them.
 *   citations.json and citation-request.json hold the server's quote matching and the
 *   reminder sent to the model, which no client ever sees.
 *
 * Checked by hand once (2026-12, the session that wrote it): changing the first case's
 * expected `link` in answer-stream.json to the page without its anchor failed "a section
 * cited by id links its chip to the section's own href" in both wire forms; listing in
 * `reads` a source for the citation that names both `id` and `url` failed "a citation
 * naming both id and url is not a source"; removing `none` from PROVENANCE failed the
 * provenance test.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { AnswerReading, PROVENANCE, readEvents } from "../../src/citeline/server/static/embed/ask-stream.js";

const fixture = (name) =>
  JSON.parse(readFileSync(new URL(`../../contracts/fixtures/${name}`, import.meta.url), "utf8"));

const ANSWERS = fixture("answer-stream.json");

/** The events on the wire: `event: NAME` and `data: JSON` lines, a blank line after each. */
function wire(events, { crlf = false, comments = false } = {}) {
  const frames = events.map(({ event, ...data }) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const text = (comments ? [": keep-alive\n\n", ...frames.flatMap((f) => [f, ": ping\n\n"])] : frames).join("");
  return new TextEncoder().encode(crlf ? text.replaceAll("\n", "\r\n") : text);
}

function body(chunks) {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(chunk);
      }
      controller.close();
    },
  });
}

async function events(chunks) {
  const read = [];
  for await (const event of readEvents(body(chunks))) {
    read.push(event);
  }
  return read;
}

/** What the box makes of a stream cut into `chunks`, in the fixture's terms. */
async function reads(chunks, linkTemplate) {
  const reading = new AnswerReading({ linkTemplate: linkTemplate ?? null, base: "https://answers.example.org/" });
  for (const event of await events(chunks)) {
    reading.read(event);
  }
  return {
    text: reading.text,
    sources: reading.sources.map(({ n, name, link, start, end }) => ({ n, name, link, start, end })),
    state: reading.state,
    answer_id: reading.answerId,
    provenance: reading.provenance,
    conversation_id: reading.conversationId,
  };
}

function* cuts(bytes) {
  yield [bytes];
  yield Array.from(bytes, (byte) => Uint8Array.of(byte));
  for (let at = 1; at < bytes.length; at++) {
    yield [bytes.subarray(0, at), bytes.subarray(at)];
  }
}

// sse.js's own property test (tests/web/test_stream_reader.py) cuts the two line ends at
// random; here each form is cut everywhere.
const FORMS = {
  "LF": {},
  "CRLF with keep-alive comments": { crlf: true, comments: true },
};

for (const group of ["cases", "tolerated"]) {
  describe(`answer-stream.json ${group}`, () => {
    for (const item of ANSWERS[group]) {
      test(item.name, async () => {
        for (const [form, options] of Object.entries(FORMS)) {
          const bytes = wire(item.events, options);
          for (const chunks of cuts(bytes)) {
            const cut = chunks.map((chunk) => chunk.length).join("+");
            assert.deepEqual(await reads(chunks, item.link_template), item.reads, `${form}, cut ${cut}`);
          }
        }
      });
    }
  });
}

describe("reactome-wire.json native streams", () => {
  for (const stream of fixture("reactome-wire.json").streams) {
    test(stream.name, async () => {
      const read = await events([wire(stream.native, { crlf: true, comments: true })]);
      assert.deepEqual(read.map(({ name, data }) => ({ event: name, ...data })), stream.native);
      const citations = stream.native.filter((event) => event.event === "citation");
      const { sources } = await reads([wire(stream.native)]);
      assert.deepEqual(sources.map((source) => source.n), citations.map((citation) => citation.n));
    });
  }
});

describe("citation-links.json", () => {
  const LINKS = fixture("citation-links.json");
  const source = (item) => {
    const reading = new AnswerReading({ linkTemplate: item.link_template ?? null });
    reading.read({ name: "citation", data: item.citation });
    return reading.sources;
  };
  for (const item of LINKS.valid) {
    test(`valid: ${item.name}`, () => {
      assert.deepEqual(source(item).map((s) => s.link), [item.link]);
    });
  }
  for (const item of LINKS.invalid) {
    test(`invalid: ${item.name}`, () => {
      assert.deepEqual(source(item), []);
    });
  }
});

test("every provenance label the contract's rule gives has a sentence in the box", () => {
  const labels = new Set(fixture("provenance.json").cases.map((item) => item.expected));
  for (const label of labels) {
    const reading = new AnswerReading();
    reading.read({ name: "done", data: { state: "answered", seconds: 0, provenance: label } });
    assert.ok(reading.trust.length > 0, label);
  }
  assert.deepEqual(new Set(Object.keys(PROVENANCE)), labels);
});

test("a provenance label the box does not know says nothing rather than guess", () => {
  for (const label of ["__proto__", "toString", "trusted"]) {
    const reading = new AnswerReading();
    reading.read({ name: "done", data: { state: "answered", seconds: 0, provenance: label } });
    assert.equal(reading.trust, "");
  }
});

test("a citation the server found is a source marked as the server's, and a cut answer says it is not whole", () => {
  // realmodels's additions to the contract (found_by, truncated), read as its text states them.
  const reading = new AnswerReading();
  reading.read({ name: "start", data: { release: null } });
  reading.read({ name: "token", data: { text: "Spring tides come at new moon." } });
  reading.read({
    name: "citation",
    data: { id: "p#s", href: "https://e.org/p.html#s", display_name: "S", n: 1, start: 0, end: 30, found_by: "server" },
  });
  reading.read({ name: "citation", data: { id: "p#t", display_name: "T", n: 2, start: null, end: null } });
  reading.read({ name: "done", data: { state: "answered", seconds: 1, answer_id: "a", truncated: true } });
  assert.deepEqual(reading.sources.map((source) => source.foundByServer), [true, false]);
  assert.equal(reading.truncated, true);
  assert.equal(reading.answered, true);
});
