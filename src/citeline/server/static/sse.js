/**
 * Server-sent events read from a fetch() response body.
 *
 * The answer and chat endpoints take a JSON body, and EventSource can only GET, so the
 * page reads the text/event-stream format itself. Only the `event` and `data` fields are
 * kept: they are all the citeline contract uses. Deliberately absent: `id`, `retry` and
 * reconnection (an answer is not resumable; a dropped stream is simply over).
 */

/**
 * POST `body` as JSON to `url` and yield each event as `{name, data}` (data parsed).
 * Throws on a non-2xx status (a 422 for a malformed body, say) so the caller can treat
 * it like any stream that ended without an answer; an abort through `signal` throws
 * the fetch AbortError.
 */
export async function* postForEvents(url, body, signal) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok || response.body === null) {
    throw new Error(`${url} answered HTTP ${response.status}`);
  }
  yield* readEvents(response.body);
}

/** Yield `{name, data}` for every complete event in a byte stream. */
export async function* readEvents(byteStream) {
  const lines = splitLines(chunks(byteStream.pipeThrough(new TextDecoderStream())));
  let name = "message";
  let data = [];
  for await (const line of lines) {
    if (line === "") {
      if (data.length > 0) {
        yield { name, data: JSON.parse(data.join("\n")) };
      }
      name = "message";
      data = [];
      continue;
    }
    if (line.startsWith(":")) {
      continue; // a comment: sse-starlette's keep-alive pings
    }
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) {
      value = value.slice(1);
    }
    if (field === "event") {
      name = value;
    } else if (field === "data") {
      data.push(value);
    }
  }
}

/**
 * Lines of a text stream (any async iterable of strings), ended by CRLF, LF or CR as the format allows.
 * sse-starlette ends lines with CRLF, and a chunk may end between the CR and the LF:
 * a CR at the very end of a chunk is held back until the next chunk shows whether an
 * LF follows, or it would read as an extra empty line and end an event early.
 */
export async function* splitLines(textChunks) {
  let buffer = "";
  for await (const chunk of textChunks) {
    buffer += chunk;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer[i];
      if (ch !== "\n" && ch !== "\r") {
        continue;
      }
      if (ch === "\r" && i === buffer.length - 1) {
        break; // held: the LF of this CRLF may be in the next chunk
      }
      yield buffer.slice(start, i);
      if (ch === "\r" && buffer[i + 1] === "\n") {
        i++;
      }
      start = i + 1;
    }
    buffer = buffer.slice(start);
  }
  if (buffer.endsWith("\r")) {
    buffer = buffer.slice(0, -1);
    yield buffer;
    buffer = "";
  }
  if (buffer !== "") {
    yield buffer;
  }
}

/** A ReadableStream's chunks; Safari cannot yet iterate a stream with `for await` itself. */
async function* chunks(stream) {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        return;
      }
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
