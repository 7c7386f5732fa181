/**
 * "Continue in chat" from another site's search page: the reactome wire profile's handoff.
 *
 * React-to-Me's website posts to /api/handoff and opens the `path` it gets back, the chat
 * page with `#handoff=<id>` in its fragment (never sent to a server, so never in a log).
 * This module reads that id and redeems it for the answer the reader saw. Rendering it is
 * app.js's job; the contract is contracts/reactome_wire.md.
 */

// Handoff ids are citeline's random ids (24 URL-safe characters); anything else in the
// fragment is not one, and is never put into a request.
const HANDOFF_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The handoff id in a URL fragment (`#handoff=<id>`), or null when it names none. */
export function handoffIdFrom(hash) {
  const id = new URLSearchParams(String(hash ?? "").replace(/^#/, "")).get("handoff");
  return id !== null && HANDOFF_ID.test(id) ? id : null;
}

/**
 * The handed-off answer, `{answer_id, question, text, citations, release}` with citations
 * as native citation payloads, or null when the handoff has expired, never existed, or the
 * server could not be reached.
 */
export async function redeemHandoff(id) {
  try {
    const response = await fetch(`/api/handoff/${encodeURIComponent(id)}`, { cache: "no-store" });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}
