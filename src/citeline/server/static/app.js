/**
 * The search page: the query in the URL, classic results at once, an answer streaming
 * into the panel beside them, and "Continue in chat" on the stored answer.
 *
 * It reads the event stream of contracts/answer_endpoint.md and nothing else: chips
 * come from citation events, never from the prose. The panel always says something once
 * it was asked for: a refused answer (rate limit, token) says when to try again, from the
 * server's real window; an answer that found nothing says so and lists the closest
 * results; one that failed or was cut off says so; a Stop before any text says "Stopped.".
 * Its header shows only over an answer's text, and its sources and label sit above the
 * text, so a long answer never hides them. An answer drawn from the tables replaces the
 * results with the measure or query it used: documents that merely share its words are
 * no results for it. With no query, the page shows what the collection is and example
 * questions. Rendering an answer is answer-view.js's job; reading the wire is sse.js's.
 */

import { AnswerView, sourceHref } from "./answer-view.js";
import { handoffIdFrom, redeemHandoff } from "./handoff.js";
import { postForEvents } from "./sse.js";

// Documents listed. Hits are passages and a long document can fill several of the top
// places, so the page asks for twice as many and keeps each document's best one; the
// server caps k itself (CITELINE_SEARCH_MAX_K).
const RESULTS_SHOWN = 10;
const PASSAGES_ASKED = 2 * RESULTS_SHOWN;
// Closest results a "nothing found" card lists: the three a reader scans at a glance.
const CLOSEST_SHOWN = 3;

const $ = (id) => document.getElementById(id);
const ui = {
  form: $("search"),
  query: $("q"),
  searchView: $("search-view"),
  status: $("results-status"),
  results: $("results"),
  panel: $("answer"),
  panelHead: $("answer-head"),
  sources: $("answer-sources"),
  closest: $("answer-closest"),
  prose: $("answer-prose"),
  stop: $("stop"),
  continueButton: $("continue"),
  note: $("answer-note"),
  chatView: $("chat-view"),
  conversation: $("conversation"),
  chatForm: $("chat-form"),
  message: $("message"),
  chatStop: $("chat-stop"),
  chatNote: $("chat-note"),
  back: $("back"),
  turnTemplate: $("turn-template"),
  welcome: $("welcome"),
  welcomeName: $("welcome-name"),
  welcomeSize: $("welcome-size"),
  welcomeTry: $("welcome-try"),
  examples: $("examples"),
};

const info = fetch("/v1/info")
  .then((response) => (response.ok ? response.json() : {}))
  .catch(() => ({}))
  .then((data) => {
    for (const node of document.querySelectorAll(".model-name")) {
      node.textContent = data.model || "an unnamed model";
    }
    return data;
  });

const state = {
  query: "",
  dataAnswer: null, // the query whose answer came from the tables, so its results are its data
  answerId: null,
  answerRun: null, // {controller, stoppedByReader} of the streaming answer
  chatRun: null,
  conversationId: null,
  chatAnswerId: null,
  // The chat view's opening (the stored or handed-off answer fetched and shown). A
  // follow-up sent before it settles waits for it: sent at once, its turns would come before
  // the answer they follow, and a handed-off chat's first follow-up would start a new
  // conversation.
  chatOpening: Promise.resolve(),
};

let answerView = null;
let currentRoute = null; // routePlace() of the view shown, see routeChanged

/**
 * The reader's caller token for guarded mode: a site's own hook when it defines one
 * (tokens are short-lived, so a long-open page should fetch fresh ones), else the
 * token the site rendered into the page, else none (the server is in --open mode).
 */
async function callerToken() {
  if (typeof window.citelineCallerToken === "function") {
    try {
      return String((await window.citelineCallerToken()) ?? "");
    } catch {
      return ""; // the site's hook failed: the server refuses, and the panel stays hidden
    }
  }
  return document.documentElement.dataset.callerToken ?? "";
}

/**
 * Feed one answer stream into `view`; the `done` payload, or null if none came.
 * Checks `signal` at every event: events already read from a chunk would otherwise
 * still arrive after a newer query aborted this one, into the view it now owns.
 */
async function feed(events, view, signal, onStart, onFirstText = () => {}) {
  let texts = 0;
  for await (const { name, data } of events) {
    if (signal.aborted) {
      return null;
    }
    if (name === "start") {
      onStart(data);
    } else if (name === "token") {
      view.addText(data.text);
      if (texts++ === 0) {
        onFirstText();
      }
    } else if (name === "citation") {
      view.addCitation(data);
    } else if (name === "done") {
      view.flush();
      return data;
    }
  }
  view.flush();
  return null;
}

// How the answer was produced, from `done.provenance`: the server's label, never a guess
// from the prose. A reader must be able to tell a governed figure from SQL a model wrote.
// The label sits under the sources it speaks of, in the panel and under a chat reply.
const PROVENANCE_NOTES = {
  sourced: "Drawn from the collection's documents cited above.",
  verified: "Figures from a governed measure defined by the data's owner.",
  cited: "Figures from a query the model wrote, backed by a quote the server verified.",
  untrusted: "Figures from a query the model wrote, with no verified quote behind them: check them.",
  none: "Not drawn from any cited source.",
};

function provenanceNote(done) {
  return PROVENANCE_NOTES[done?.provenance] ?? "";
}

function answered(done, view) {
  return done !== null && done.state === "answered" && view.text.trim() !== "";
}

/**
 * Shown for a `done {state: "refused"}`, which the contract keeps exactly as it is: the
 * page, not the event, tells the reader what to do, from the server's rate window
 * (`/v1/info`). Measured before: past the demo's limit the panel vanished, then said "a
 * minute" for a 600 s window.
 */
function refusedMessage(data) {
  return "The answer service is busy or declined this request; " +
    `try again in ${duration(Number(data.rate_window))}.`;
}

/** `seconds` as a reader says it: "10 minutes", "an hour", "90 seconds". */
function duration(seconds) {
  if (!Number.isFinite(seconds) || seconds <= 0) {
    return "a minute";
  }
  const say = (count, unit) =>
    count === 1 ? `${unit === "hour" ? "an" : "a"} ${unit}` : `${count} ${unit}s`;
  if (seconds % 3600 === 0) {
    return say(seconds / 3600, "hour");
  }
  if (seconds % 60 === 0 || seconds > 600) {
    return say(Math.ceil(seconds / 60), "minute");
  }
  return say(seconds, "second");
}

function collectionName(data) {
  return data.collection || "the collection";
}

/** Citations of a data source: a governed measure's call or the query the model wrote. */
function dataSources(view) {
  return [...view.citations.values()]
    .filter((citation) => /^(measure|query):/.test(citation.id ?? ""))
    .sort((a, b) => a.n - b.n);
}

// Labels that say an answer's figures came from the tables, not the documents.
const DATA_PROVENANCE = new Set(["verified", "cited", "untrusted"]);

// ---------------------------------------------------------------- search view

function setQueryInUrl(query, mode) {
  const url = new URL(window.location.href);
  url.search = "";
  url.hash = ""; // a query replaces a handoff the page was opened on
  url.searchParams.set("q", query);
  if (mode === "push") {
    history.pushState(null, "", url);
  } else {
    history.replaceState(null, "", url);
  }
  currentRoute = routePlace();
}

function showSearchView() {
  ui.chatView.hidden = true;
  ui.searchView.hidden = false;
  stopChat();
}

/** The empty page: the collection's name and size, and the owner's example questions. */
async function showWelcome() {
  const data = await info;
  if (state.query !== "") {
    return; // a query arrived while /v1/info was on its way
  }
  ui.welcomeName.textContent = data.collection || "this collection";
  const documents = Number(data.documents ?? 0);
  ui.welcomeSize.textContent =
    `${documents.toLocaleString("en")} document${documents === 1 ? "" : "s"}`;
  const examples = data.examples ?? [];
  // Never "Try, for example:" over an empty list.
  ui.welcomeTry.hidden = examples.length === 0;
  ui.examples.replaceChildren(
    ...examples.map((question) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/?${new URLSearchParams({ q: question })}`;
      link.textContent = question;
      link.addEventListener("click", (event) => {
        event.preventDefault();
        setQueryInUrl(question, "push");
        runQuery(question);
      });
      item.append(link);
      return item;
    }),
  );
  ui.welcome.hidden = false;
}

async function runQuery(query) {
  state.query = query;
  state.dataAnswer = null;
  ui.query.value = query;
  document.title = `${query} · citeline`;
  ui.welcome.hidden = true;
  showSearchView();
  const linkTemplate = (await info).link_template ?? null;
  const documents = searchDocuments(query);
  await Promise.all([
    showResults(query, documents, linkTemplate),
    streamAnswer(query, documents, linkTemplate),
  ]);
}

/** The best passage of each of the first documents for `query`; null when search failed. */
async function searchDocuments(query) {
  try {
    const params = new URLSearchParams({ q: query, k: String(PASSAGES_ASKED) });
    const response = await fetch(`/v1/search?${params}`);
    if (!response.ok) {
      return null;
    }
    const hits = await response.json();
    const seen = new Set();
    return hits.filter((hit) => !seen.has(hit.id) && seen.add(hit.id)).slice(0, RESULTS_SHOWN);
  } catch {
    return null;
  }
}

async function showResults(query, searched, linkTemplate) {
  ui.results.replaceChildren();
  ui.status.textContent = "Searching…";
  const documents = await searched;
  if (state.query !== query || state.dataAnswer === query) {
    return; // a newer query owns the list now, or the answer came from the tables
  }
  if (documents === null) {
    ui.status.textContent = "Search is unavailable right now. Try again in a moment.";
    return;
  }
  ui.results.replaceChildren(...documents.map((hit) => resultItem(hit, linkTemplate)));
  ui.status.textContent =
    documents.length === 0
      ? `Nothing in the collection matches “${query}”. Try other words.`
      : `${documents.length} result${documents.length === 1 ? "" : "s"}`;
}

function resultItem(hit, linkTemplate, withSnippet = true) {
  const item = document.createElement("li");
  item.className = "result";
  const href = sourceHref(hit, linkTemplate);
  const title = document.createElement(href === null ? "span" : "a");
  title.className = "result-title";
  title.textContent = hit.title || hit.id;
  item.append(title);
  if (href !== null) {
    title.href = href;
    const where = document.createElement("p");
    where.className = "result-url";
    where.textContent = href;
    item.append(where);
  }
  if (withSnippet) {
    const snippet = document.createElement("p");
    snippet.className = "snippet";
    snippet.textContent = hit.snippet ?? "";
    item.append(snippet);
  }
  return item;
}

/**
 * An answer drawn from the tables: the results column shows the measures and queries it
 * used, or nothing, instead of documents that only share its words ("Enum HOWTO: Planet"
 * beside a penguin's mass).
 */
function showDataSources(query, sources) {
  state.dataAnswer = query;
  ui.results.replaceChildren(
    ...sources.map((citation) => {
      const item = document.createElement("li");
      item.className = "result result-data";
      const kind = document.createElement("p");
      kind.className = "result-title";
      kind.textContent = citation.id.startsWith("measure:")
        ? "Governed measure"
        : "Query the model wrote";
      const call = document.createElement("code");
      call.className = "result-code";
      call.textContent = citation.display_name ?? "";
      item.append(kind, call);
      return item;
    }),
  );
  ui.status.textContent = sources.length === 0
    ? "Answered from the data, not from the documents."
    : "Answered from the data, with:";
}

function cancelAnswer() {
  if (state.answerRun !== null) {
    state.answerRun.controller.abort();
    state.answerRun = null;
  }
}

/** The panel with or without an answer's body: no header or sources over nothing. */
function showAnswerBody(shown) {
  ui.panelHead.hidden = !shown;
  ui.sources.hidden = !shown;
  ui.prose.hidden = !shown;
}

/** The panel as a card that says `message`, with no answer under it. */
function showCard(stateName, message) {
  ui.panel.hidden = false;
  ui.panel.dataset.state = stateName;
  answerView.reset();
  showAnswerBody(false);
  ui.note.textContent = message;
}

/** The "nothing found" card: the sentence, then the closest results as links. */
async function showNothingFound(query, searched, linkTemplate) {
  const [data, documents] = await Promise.all([info, searched]);
  if (state.query !== query) {
    return;
  }
  const closest = (documents ?? []).slice(0, CLOSEST_SHOWN);
  showCard(
    "nothing_found",
    closest.length === 0
      ? `Nothing in ${collectionName(data)} matches that. Try other words.`
      : `Nothing in ${collectionName(data)} answers that directly. The closest results:`,
  );
  ui.closest.replaceChildren(...closest.map((hit) => resultItem(hit, linkTemplate, false)));
  ui.closest.hidden = closest.length === 0;
}

async function streamAnswer(query, searched, linkTemplate) {
  cancelAnswer();
  const run = { controller: new AbortController(), stoppedByReader: false };
  state.answerRun = run;
  state.answerId = null;
  answerView ??= new AnswerView(ui.prose, ui.sources, linkTemplate);
  answerView.linkTemplate = linkTemplate;
  answerView.reset();
  ui.panel.hidden = true;
  ui.panel.dataset.state = "waiting";
  delete ui.panel.dataset.answerId;
  delete ui.panel.dataset.provenance;
  ui.continueButton.hidden = true;
  ui.note.textContent = "";
  ui.closest.hidden = true;
  ui.closest.replaceChildren();
  showAnswerBody(true);

  let done = null;
  try {
    const body = { question: query, caller_token: await callerToken() };
    const events = postForEvents("/v1/answer", body, run.controller.signal);
    done = await feed(events, answerView, run.controller.signal, () => {
      // Shown at `start`, never before: a refusal is a lone `done` and must leave no trace.
      ui.panel.hidden = false;
      ui.panel.dataset.state = "streaming";
      ui.prose.setAttribute("aria-busy", "true");
      ui.stop.hidden = false;
      // Until the first words: a real model may search and read for seconds first, and the
      // header must not stand over nothing.
      ui.note.textContent = "Writing the answer…";
    }, () => {
      ui.note.textContent = "";
    });
  } catch {
    // A network failure or an abort; which one is told by the run's flags below.
  }
  if (state.answerRun !== run && !run.stoppedByReader) {
    return; // superseded by a newer query, which has reset the panel
  }
  state.answerRun = null;
  ui.stop.hidden = true;
  ui.prose.setAttribute("aria-busy", "false");
  answerView.flush();
  const hasText = answerView.text.trim() !== "";
  if (run.stoppedByReader) {
    // Before the first text too: the reader pressed Stop and the panel says so.
    ui.panel.hidden = false;
    ui.panel.dataset.state = "stopped";
    showAnswerBody(hasText);
    ui.note.textContent = "Stopped.";
  } else if (done?.state === "refused") {
    showCard("refused", refusedMessage(await info));
  } else if (done?.state === "nothing_found") {
    await showNothingFound(query, searched, linkTemplate);
  } else if (answered(done, answerView)) {
    ui.panel.dataset.state = "answered";
    state.answerId = done.answer_id ?? null;
    if (state.answerId !== null) {
      ui.panel.dataset.answerId = state.answerId;
    }
    ui.continueButton.hidden = state.answerId === null;
    ui.panel.dataset.provenance = done.provenance ?? "";
    ui.note.textContent = provenanceNote(done);
    const data = dataSources(answerView);
    if (data.length > 0 || DATA_PROVENANCE.has(done.provenance)) {
      showDataSources(query, data);
    }
  } else if (hasText) {
    // Failed or cut off part-way: what arrived stays, and the note says it is unfinished.
    ui.panel.hidden = false;
    ui.panel.dataset.state = "failed";
    ui.note.textContent = "The answer stopped before it was finished; what arrived is below.";
  } else {
    showCard("failed", "No answer this time: it could not be written. Try again in a moment.");
  }
}

function stopAnswer() {
  if (state.answerRun !== null) {
    state.answerRun.stoppedByReader = true;
    state.answerRun.controller.abort();
  }
}

// ---------------------------------------------------------------- chat view

function addTurn(who, className) {
  const turn = ui.turnTemplate.content.firstElementChild.cloneNode(true);
  turn.classList.add(className);
  turn.querySelector(".turn-who").textContent = who;
  ui.conversation.append(turn);
  return turn;
}

function userTurn(text) {
  const turn = addTurn("You", "from-reader");
  turn.querySelector(".prose").textContent = text;
  turn.querySelector(".chips").remove();
  return turn;
}

function replyTurn(linkTemplate) {
  const turn = addTurn("Answer", "from-model");
  const view = new AnswerView(
    turn.querySelector(".prose"),
    turn.querySelector(".chips"),
    linkTemplate,
  );
  return { turn, view };
}

/** Show the chat view, empty, for a conversation to be opened on `answerId` (or on none). */
function enterChat(answerId) {
  cancelAnswer();
  stopChat();
  state.chatAnswerId = answerId;
  state.conversationId = null;
  ui.welcome.hidden = true;
  ui.conversation.replaceChildren();
  ui.chatNote.textContent = "";
  ui.searchView.hidden = true;
  ui.chatView.hidden = false;
}

/** A stored answer as a finished reply turn: its text and its chips, exactly as kept. */
function storedReply(stored, linkTemplate) {
  const { turn, view } = replyTurn(linkTemplate);
  turn.dataset.state = "stored";
  view.addText(stored.text);
  for (const citation of stored.citations ?? []) {
    view.addCitation(citation);
  }
  view.flush();
  return turn;
}

/** Open the chat on the stored answer `answerId`, exactly as the server kept it. */
function openChat(answerId, mode) {
  state.chatOpening = showStoredChat(answerId, mode);
  return state.chatOpening;
}

async function showStoredChat(answerId, mode) {
  enterChat(answerId);
  const linkTemplate = (await info).link_template ?? null;
  if (mode === "push") {
    const url = new URL(window.location.href);
    url.hash = "";
    url.searchParams.set("chat", answerId);
    history.pushState(null, "", url);
    currentRoute = routePlace();
  }
  let stored = null;
  try {
    const response = await fetch(`/v1/answers/${encodeURIComponent(answerId)}`);
    stored = response.ok ? await response.json() : null;
  } catch {
    stored = null;
  }
  if (stored === null) {
    ui.chatNote.textContent =
      "This answer is no longer kept, so there is nothing to continue. Search again to get a new one.";
    ui.chatForm.hidden = true;
    return;
  }
  ui.chatForm.hidden = false;
  userTurn(stored.question);
  storedReply(stored, linkTemplate);
  ui.message.focus();
}

/**
 * Open the chat on a handed-off answer (`#handoff=<id>`, from another site's "Continue in
 * chat"): the answer is the conversation's first turn, and follow-ups continue from it.
 * An expired link still leaves a working chat, with a note that says so.
 */
function openHandoff(handoffId) {
  state.chatOpening = showHandoff(handoffId);
  return state.chatOpening;
}

async function showHandoff(handoffId) {
  enterChat(null);
  ui.chatForm.hidden = false;
  const [handedOff, linkTemplate] = await Promise.all([
    redeemHandoff(handoffId),
    info.then((data) => data.link_template ?? null),
  ]);
  if (handoffIdFrom(window.location.hash) !== handoffId) {
    return; // the reader moved on while the handoff loaded
  }
  if (handedOff === null) {
    ui.chatNote.textContent =
      "This link has expired or was never valid, so the answer it pointed to cannot be shown. " +
      "Go back and choose Continue in chat again, or ask a question here.";
    ui.message.focus();
    return;
  }
  state.chatAnswerId = handedOff.answer_id;
  const turn = storedReply(handedOff, linkTemplate);
  turn.dataset.handoff = handoffId;
  turn.querySelector(".turn-who").textContent = `Continuing from your search: ${handedOff.question}`;
  ui.message.focus();
}

/**
 * Scroll a new chat reply's start into view when it begins below (or above) the screen:
 * on a phone the reply opened under the composer, and the reader saw nothing arrive.
 */
function bringIntoView(turn) {
  // After the view's own frame has rendered the text: scrolling an empty reply to the top
  // of the screen is as far as the page can scroll, which left it under the fold.
  requestAnimationFrame(() => {
    const box = turn.getBoundingClientRect();
    const hidden = box.top < 0 || box.top > window.innerHeight * 0.6;
    if (hidden && box.bottom > window.innerHeight) {
      turn.scrollIntoView({ block: "start" });
    }
  });
}

function stopChat() {
  if (state.chatRun !== null) {
    state.chatRun.stoppedByReader = true;
    state.chatRun.controller.abort();
  }
}

async function sendMessage(message) {
  if (state.chatRun !== null) {
    return;
  }
  const run = { controller: new AbortController(), stoppedByReader: false };
  state.chatRun = run;
  const opening = state.chatOpening;
  await opening.catch(() => undefined);
  const linkTemplate = (await info).link_template ?? null;
  if (run.stoppedByReader || state.chatOpening !== opening || ui.chatForm.hidden) {
    // Stopped while it waited, another chat opened meanwhile, or this one has nothing to
    // continue (its note says so): the question belongs to no conversation shown.
    state.chatRun = null;
    return;
  }
  ui.chatNote.textContent = "";
  userTurn(message);
  const { turn, view } = replyTurn(linkTemplate);
  turn.hidden = true;
  turn.dataset.state = "waiting";
  ui.chatStop.hidden = false;
  ui.conversation.setAttribute("aria-busy", "true");

  const body = { message, caller_token: await callerToken() };
  if (state.conversationId !== null) {
    body.conversation_id = state.conversationId;
  } else {
    body.answer_id = state.chatAnswerId;
  }
  let done = null;
  try {
    const events = postForEvents("/v1/chat", body, run.controller.signal);
    done = await feed(events, view, run.controller.signal, (start) => {
      state.conversationId = start.conversation_id ?? state.conversationId;
      turn.hidden = false;
      turn.dataset.state = "streaming";
    }, () => bringIntoView(turn));
  } catch {
    // Aborted or broken: handled below like any reply that did not arrive.
  }
  state.chatRun = null;
  ui.chatStop.hidden = true;
  ui.conversation.setAttribute("aria-busy", "false");
  if (run.stoppedByReader) {
    turn.dataset.state = "stopped";
    ui.chatNote.textContent = "Stopped.";
    if (view.text.trim() === "") {
      turn.remove();
    }
  } else if (done?.state === "refused") {
    turn.remove();
    ui.chatNote.textContent = refusedMessage(await info);
  } else if (answered(done, view)) {
    turn.dataset.state = "answered";
    turn.dataset.provenance = done.provenance ?? "";
    ui.chatNote.textContent = provenanceNote(done);
    bringIntoView(turn);
  } else if (done?.state === "nothing_found") {
    turn.remove();
    ui.chatNote.textContent =
      `Nothing in ${collectionName(await info)} answers that. Try asking another way.`;
  } else if (view.text.trim() !== "") {
    turn.dataset.state = "failed";
    ui.chatNote.textContent = "The answer stopped before it was finished; what arrived is above.";
  } else {
    turn.remove();
    ui.chatNote.textContent = "No answer this time: it could not be written. Try again in a moment.";
  }
  ui.message.focus({ preventScroll: true });
}

// ---------------------------------------------------------------- wiring

/** Where the page is, as far as routing goes: its path and query, and a handoff if any. */
function routePlace() {
  return {
    where: `${window.location.pathname}${window.location.search}`,
    handoff: handoffIdFrom(window.location.hash),
  };
}

/**
 * Whether the URL now names another view than the one shown. The answer's markers are
 * in-page fragment links: following one (or going back from one) changes only the
 * fragment, and must not reroute, and so reload, the view.
 */
function routeChanged() {
  const place = routePlace();
  if (currentRoute === null || place.where !== currentRoute.where) {
    return true;
  }
  return place.handoff !== null && place.handoff !== currentRoute.handoff;
}


function routeFromUrl(mode) {
  currentRoute = routePlace();
  const handoff = handoffIdFrom(window.location.hash);
  if (handoff !== null) {
    openHandoff(handoff);
    return;
  }
  const params = new URLSearchParams(window.location.search);
  const query = (params.get("q") ?? "").trim();
  const chat = params.get("chat");
  if (chat) {
    if (query) {
      ui.query.value = query;
      state.query = query;
    }
    openChat(chat, "none");
  } else if (query && (query !== state.query || mode === "load")) {
    runQuery(query);
  } else if (query) {
    showSearchView();
  } else {
    state.query = "";
    showSearchView();
    showWelcome();
    ui.query.focus();
  }
}

ui.form.addEventListener("submit", (event) => {
  event.preventDefault();
  const query = ui.query.value.trim();
  if (query === "") {
    return;
  }
  setQueryInUrl(query, "push");
  runQuery(query);
});

ui.stop.addEventListener("click", stopAnswer);
ui.chatStop.addEventListener("click", stopChat);

ui.continueButton.addEventListener("click", () => {
  if (state.answerId !== null) {
    openChat(state.answerId, "push");
  }
});

ui.back.addEventListener("click", () => {
  if (state.query) {
    setQueryInUrl(state.query, "push");
  }
  showSearchView();
  ui.query.focus();
});

ui.chatForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const message = ui.message.value.trim();
  if (message === "" || state.chatRun !== null) {
    return;
  }
  ui.message.value = "";
  sendMessage(message);
});

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") {
    stopAnswer();
    stopChat();
    return;
  }
  const typing = event.target instanceof HTMLElement &&
    event.target.closest("input, textarea, select, [contenteditable]");
  if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    ui.query.focus();
    ui.query.select();
  }
});

// A fragment change fires both events; whichever comes first reroutes, once.
for (const change of ["popstate", "hashchange"]) {
  window.addEventListener(change, () => {
    if (routeChanged()) {
      routeFromUrl("history");
    }
  });
}
routeFromUrl("load");
