// The blind judging page: long-polls the desk's state and sends answers, skips, undo and pause.
import { api, chat, el, sleep, typing } from "./common.js";

const $ = (id) => document.getElementById(id);
let current = null; // state last rendered
let itemId = null; // item whose conversation is on screen
let ticker = null;
let guidelinesText = null; // fetched once
let rereading = false; // the person reopened the guidelines

async function showGuidelines(first) {
  if (guidelinesText === null) guidelinesText = (await api("/api/guidelines")).data.text || "";
  itemId = null;
  $("workspace").classList.remove("answering");
  for (const id of ["item", "answerbar", "message", "progress"]) $(id).hidden = true;
  $("guidelines").hidden = false;
  $("guidelines-lead").textContent = first
    ? "Please read these once before the first item; they stay one click away in the top bar."
    : "The guidelines you read before the first item.";
  $("guidelines-text").textContent = guidelinesText;
  $("guidelines-done").textContent = first ? "I have read them — start" : "Back";
  $("guidelines-done").onclick = first ? () => send("/api/guidelines", {}) : () => { rereading = false; render(current); };
}

function progress(number, total, done) {
  $("progress").hidden = !total;
  if (!total) return;
  const finished = done ? number : number - 1;
  $("progress-fill").style.width = `${(100 * finished) / total}%`;
  $("progress-text").textContent = done ? `${finished} of ${total} answered` : `Item ${number} of ${total}`;
}

function showItem(item) {
  $("guidelines").hidden = true;
  $("workspace").classList.add("answering");
  $("item").hidden = false;
  $("message").hidden = true;
  $("answerbar").hidden = false;
  if (item.id === itemId) return;
  itemId = item.id;
  $("instructions").hidden = !item.instructions;
  $("instructions-text").textContent = item.instructions;
  $("note").textContent = item.note || (item.turns.length <= 1 ? "— the conversation starts here —" : "");
  const turns = [...item.turns, { role: "assistant", text: item.reply, mark: "the reply to judge" }];
  $("conversation").replaceChildren(chat(turns));
  $("question").textContent = item.question;
  $("answers").replaceChildren(
    ...item.answers.map((a, i) =>
      el(
        "button",
        { class: `answer ${a.label}`, "data-label": a.label, onclick: () => send("/api/answer", { item: item.id, label: a.label }) },
        el("span", { class: "spelling" }, a.spelling),
        el("span", { class: "meaning" }, a.meaning),
        el("kbd", {}, String(i + 1)),
      ),
    ),
  );
  window.scrollTo(0, 0);
}

function showMessage(title, text, code, actions = []) {
  itemId = null;
  $("guidelines").hidden = true;
  $("workspace").classList.remove("answering");
  $("item").hidden = true;
  $("answerbar").hidden = true;
  $("message").hidden = false;
  $("progress").hidden = true;
  $("message-title").textContent = title;
  $("message-text").textContent = text;
  $("message-code").hidden = !code;
  $("message-code").textContent = code || "";
  $("message-actions").replaceChildren(...actions);
}

const answers = (n) => `${n} ${n === 1 ? "answer" : "answers"}`;

function heldText(held) {
  const what = held.label === null ? "skipped" : held.spelling;
  return `Item ${held.number}: ${what}`;
}

// Paused or finished, the page is final: the run's server is going away, so it stops asking,
// and a request that fails then is no lost connection (a resumed run prints a new link).
const final = (state) => Boolean(state && (state.closed || state.paused));
// Every run ended and nothing waits: a server gone now went with its run, not with the network.
const over = (state) => final(state) || Boolean(state && !state.running && state.ended.length && !state.item && !state.held);
const polling = new AbortController();

function render(state) {
  current = state;
  $("who").textContent = `annotator: ${state.annotator}`;
  const { item, held } = state;
  $("pause").disabled = final(state) || !(item || held || state.running);
  if (final(state)) {
    $("pause-ask").hidden = false;
    $("pause-confirm").hidden = true;
    $("offline").hidden = true;
    polling.abort();
  }
  $("undo").disabled = !held;
  $("held").textContent = held && item ? `Last answer — ${heldText(held)}; you can undo it until you answer this one.` : "";
  clearInterval(ticker);
  const unread = state.guidelines && !state.guidelines.read;
  $("guidelines-open").hidden = !state.guidelines || unread;
  if ((unread && (item || state.running)) || rereading) {
    showGuidelines(unread);
  } else if (item) {
    progress(item.number, item.total, false);
    showItem(item);
  } else if (held) {
    const undo = el("button", { class: "btn", onclick: () => send("/api/undo") }, "Undo ", el("kbd", {}, "Z"));
    const now = el("button", { class: "btn primary", onclick: () => send("/api/send") }, "Send now ", el("kbd", {}, "Enter"));
    const tick = () => {
      const left = held.sends_in === null ? null : Math.max(0, Math.ceil(held.sends_in - (Date.now() - state.receivedAt) / 1000));
      const when = left === null ? "when you continue" : `in ${left} s`;
      $("message-text").textContent = `${heldText(held)}. It is sent ${when}; until then you can undo it.`;
    };
    showMessage("Answer recorded", "", "", [undo, now]);
    progress(held.number, held.total, true);
    tick();
    ticker = setInterval(tick, 250);
  } else if (state.paused) {
    showMessage("Paused", `Your answers so far (${answers(state.sent)} this sitting) are saved in the run's log. To go on later, run this (it prints a new link to this page):`, state.paused);
  } else if (state.running) {
    showMessage("Waiting for the next item…", `${answers(state.sent)} sent so far.`, "");
  } else if (state.ended.length) {
    const last = state.ended[state.ended.length - 1];
    showMessage("Finished — thank you", `The run ended (${last.status}); ${answers(state.sent)} ${state.sent === 1 ? "was" : "were"} sent. Its log:`, last.location);
  } else {
    showMessage("Waiting for the run to start…", "Items appear here as the evaluation asks for them.", "");
  }
}

// Requests go one after another, each naming the item that was on screen when the key was
// pressed; the desk refuses an answer to an item no longer on screen, so a double press is harmless.
let queue = Promise.resolve();
function send(path, body = {}) {
  queue = queue
    .then(() => api(path, body))
    .then(({ data }) => {
      data.receivedAt = Date.now();
      if (!current || data.version >= current.version) render(data); // never step back to an older state
    })
    .catch(() => {
      $("offline").hidden = over(current);
    });
  return queue;
}

// Polls until the page is final (see `final`); the poll in flight then is aborted.
async function poll() {
  let version = -1;
  while (!final(current)) {
    try {
      const { data } = await api(`/api/state?since=${current ? current.version : version}`, undefined, polling.signal);
      $("offline").hidden = true;
      data.receivedAt = Date.now();
      version = data.version;
      // a long poll that began before an answer's own reply came back is older: never step back to it
      if (!current || data.version > current.version) render(data);
    } catch (error) {
      if (over(current)) break;
      $("offline").hidden = false;
      await sleep(1500);
    }
  }
}

document.addEventListener("keydown", (event) => {
  if (typing(event) || !current || !$("guidelines").hidden) return;
  const { item, held } = current;
  const key = event.key.toLowerCase();
  if (item && /^[1-9]$/.test(key) && item.answers[Number(key) - 1]) {
    send("/api/answer", { item: item.id, label: item.answers[Number(key) - 1].label });
  } else if (item && key === "s") {
    send("/api/answer", { item: item.id, label: "skip" });
  } else if (held && (key === "z" || key === "backspace")) {
    send("/api/undo");
  } else if (held && !item && key === "enter") {
    send("/api/send");
  } else {
    return;
  }
  event.preventDefault();
});

$("skip").addEventListener("click", () => current && current.item && send("/api/answer", { item: current.item.id, label: "skip" }));
$("undo").addEventListener("click", () => send("/api/undo"));
$("guidelines-open").addEventListener("click", () => { rereading = true; render(current); });
// the question takes the button's place, so focus goes with it (a keyboard user is not left on nothing)
$("pause").addEventListener("click", () => { $("pause-ask").hidden = true; $("pause-confirm").hidden = false; $("pause-yes").focus(); });
$("pause-no").addEventListener("click", () => { $("pause-ask").hidden = false; $("pause-confirm").hidden = true; $("pause").focus(); });
$("pause-yes").addEventListener("click", async () => {
  $("pause-ask").hidden = false;
  $("pause-confirm").hidden = true;
  await send("/api/pause");
});
poll();
