/**
 * The search page: the query in the URL, classic results at once, an answer streaming
 * into the panel beside them, and "Continue in chat" on the stored answer.
 *
 * It reads the event stream of contracts/answer_endpoint.md and nothing else: chips
 * come from citation events, never from the prose. The panel always says something once
 * it was asked for: a refused answer (rate limit, token) says to try again in a minute,
 * a Stop before any text says "Stopped."; an answer that failed, found nothing or was
 * cut off hides the panel: the results are the page, the answer is a bonus. With no
 * query, the page shows what the collection is and the owner's example questions.
 * Rendering an answer is answer-view.js's job; reading the wire format is sse.js's.
 */

import { AnswerView, sourceHref } from "./answer-view.js";
import { handoffIdFrom, redeemHandoff } from "./handoff.js";
import { postForEvents } from "./sse.js";

// Documents listed. Hits are passages and a long document can fill several of the top
// places, so the page asks for twice as many and keeps each document's best one; the
// server caps k itself (CITELINE_SEARCH_MAX_K).
const RESULTS_SHOWN = 10;
// Shown for a `done {state: "refused"}`, which the contract keeps exactly as it is: the
// page, not the event, tells the reader what to do. Measured in the demo: past its rate
// limit, the panel used to vanish and the reader could not tell why.
const REFUSED_MESSAGE =
  "The answer service is busy or declined this request; try again in a minute.";
const PASSAGES_ASKED = 2 * RESULTS_SHOWN;

const $ = (id) => document.getElementById(id);
const ui = {
  form: $("search"),
  query: $("q"),
  searchView: $("search-view"),
  status: $("results-status"),
  results: $("results"),
  panel: $("answer"),
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
  answerId: null,
  answerRun: null, // {controller, stoppedByReader} of the streaming answer
  chatRun: null,
  conversationId: null,
  chatAnswerId: null,
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
async function feed(events, view, signal, onStart) {
  for await (const { name, data } of events) {
    if (signal.aborted) {
      return null;
    }
    if (name === "start") {
      onStart(data);
    } else if (name === "token") {
      view.addText(data.text);
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
const PROVENANCE_NOTES = {
  sourced: "Drawn from the collection's documents cited below.",
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
  ui.examples.replaceChildren(
    ...(data.examples ?? []).map((question) => {
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
  ui.query.value = query;
  document.title = `${query} · citeline`;
  ui.welcome.hidden = true;
  showSearchView();
  const linkTemplate = (await info).link_template ?? null;
  await Promise.all([showResults(query, linkTemplate), streamAnswer(query, linkTemplate)]);
}

async function showResults(query, linkTemplate) {
  ui.results.replaceChildren();
  ui.status.textContent = "Searching…";
  let hits;
  try {
    const params = new URLSearchParams({ q: query, k: String(PASSAGES_ASKED) });
    const response = await fetch(`/v1/search?${params}`);
    if (!response.ok) {
      throw new Error(`search answered HTTP ${response.status}`);
    }
    hits = await response.json();
  } catch {
    if (state.query === query) {
      ui.status.textContent = "Search is unavailable right now. Try again in a moment.";
    }
    return;
  }
  if (state.query !== query) {
    return; // a newer query owns the list now
  }
  const seen = new Set();
  const documents = hits
    .filter((hit) => !seen.has(hit.id) && seen.add(hit.id))
    .slice(0, RESULTS_SHOWN);
  ui.results.replaceChildren(...documents.map((hit) => resultItem(hit, linkTemplate)));
  ui.status.textContent =
    documents.length === 0
      ? `Nothing in the collection matches “${query}”. Try other words.`
      : `${documents.length} result${documents.length === 1 ? "" : "s"}`;
}

function resultItem(hit, linkTemplate) {
  const item = document.createElement("li");
  item.className = "result";
  const href = sourceHref(hit, linkTemplate);
  const title = document.createElement(href === null ? "span" : "a");
  title.className = "result-title";
  title.textContent = hit.title || hit.id;
  if (href !== null) {
    title.href = href;
    const where = document.createElement("p");
    where.className = "result-url";
    where.textContent = href;
    item.append(title, where);
  } else {
    item.append(title);
  }
  const snippet = document.createElement("p");
  snippet.className = "snippet";
  snippet.textContent = hit.snippet ?? "";
  item.append(snippet);
  return item;
}

function cancelAnswer() {
  if (state.answerRun !== null) {
    state.answerRun.controller.abort();
    state.answerRun = null;
  }
}

async function streamAnswer(query, linkTemplate) {
  cancelAnswer();
  const run = { controller: new AbortController(), stoppedByReader: false };
  state.answerRun = run;
  state.answerId = null;
  answerView ??= new AnswerView(ui.prose, $("answer-sources"), linkTemplate);
  answerView.linkTemplate = linkTemplate;
  answerView.reset();
  ui.panel.hidden = true;
  ui.panel.dataset.state = "waiting";
  delete ui.panel.dataset.answerId;
  delete ui.panel.dataset.provenance;
  ui.continueButton.hidden = true;
  ui.note.textContent = "";

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
  if (run.stoppedByReader) {
    // Before the first text too: the reader pressed Stop and the panel says so.
    ui.panel.hidden = false;
    ui.panel.dataset.state = "stopped";
    ui.note.textContent = "Stopped.";
  } else if (done?.state === "refused") {
    ui.panel.hidden = false;
    ui.panel.dataset.state = "refused";
    answerView.reset();
    ui.note.textContent = REFUSED_MESSAGE;
  } else if (answered(done, answerView)) {
    ui.panel.dataset.state = "answered";
    state.answerId = done.answer_id ?? null;
    if (state.answerId !== null) {
      ui.panel.dataset.answerId = state.answerId;
    }
    ui.continueButton.hidden = state.answerId === null;
    ui.panel.dataset.provenance = done.provenance ?? "";
    ui.note.textContent = provenanceNote(done);
  } else {
    // Refused, failed, nothing found or cut off: the reader sees the results alone.
    ui.panel.hidden = true;
    ui.panel.dataset.state = "none";
    answerView.reset();
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
async function openChat(answerId, mode) {
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
async function openHandoff(handoffId) {
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
  const linkTemplate = (await info).link_template ?? null;
  const run = { controller: new AbortController(), stoppedByReader: false };
  state.chatRun = run;
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
      turn.scrollIntoView({ block: "nearest" });
    });
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
    ui.chatNote.textContent = REFUSED_MESSAGE;
  } else if (answered(done, view)) {
    turn.dataset.state = "answered";
    turn.dataset.provenance = done.provenance ?? "";
    ui.chatNote.textContent = provenanceNote(done);
  } else {
    turn.remove();
  }
  ui.message.focus();
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
