/**
 * Server-sent events from a POST: the answer and chat endpoints take a JSON body, and
 * EventSource can only GET. The reading itself is the Ask box's (embed/ask-stream.js), so
 * the page and the box read the wire one way. Deliberately absent: `id`, `retry` and
 * reconnection (an answer is not resumable; a dropped stream is simply over).
 */

import { readEvents } from "./embed/ask-stream.js";

export { readEvents };

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
