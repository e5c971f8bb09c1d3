// The data explorer: facets with counts, search, a page of records, a record as chat, exclusions.
import { api, chat, el } from "./common.js";

const $ = (id) => document.getElementById(id);
const narrow = () => window.matchMedia("(max-width: 900px)").matches;
const topbarHeight = () => document.querySelector(".topbar").getBoundingClientRect().height + 8;
const TITLES = { set: "Set", failure_dimension: "Failure dimension", success_pattern: "Success pattern", scenario: "Scenario", difficulty: "Difficulty" };
const filters = {};
let offset = 0;
let selected = null;
let sets = {};
let searchTimer = null;

function params(extra = {}) {
  const query = new URLSearchParams({ ...filters, q: $("q").value, excluded: $("excluded").value, ...extra });
  return query.toString();
}

function facetButton(name, [value, n, english]) {
  const on = filters[name] === value;
  const toggle = async () => {
    if (on) delete filters[name];
    else filters[name] = value;
    await load();
    // on a phone the facets fill the screen: bring the results they chose into view, their
    // first row below the sticky top bar (scrollIntoView would put it under the bar)
    if (narrow()) window.scrollTo({ top: $("results").getBoundingClientRect().top + window.scrollY - topbarHeight() });
  };
  return el(
    "button",
    { class: `${on ? "on" : ""}${n === 0 ? " zero" : ""}`, "data-facet": name, "data-value": value, onclick: toggle },
    name === "set"
      ? el("span", {}, english)
      : el("span", {}, value, english && english !== value ? el("span", { class: "en" }, ` ${english}`) : null),
    el("span", { class: "n" }, String(n)),
  );
}

function renderFacets(counts) {
  $("facets").replaceChildren(
    ...Object.keys(TITLES).map((name) => {
      const rows = counts[name].slice();
      if (filters[name] && !rows.some((r) => r[0] === filters[name])) rows.unshift([filters[name], 0, ""]);
      return el("div", { class: "facet" }, el("h3", {}, TITLES[name]), rows.map((row) => facetButton(name, row)));
    }),
  );
  const active = Object.keys(filters).length;
  $("filter-count").textContent = active ? `(${active} on)` : "";
}

function row(item) {
  const chips = Object.values(item.labels).filter((v) => v !== "(none)").map((v) => el("span", { class: "chip" }, v));
  const setClass = item.set === "task1_good" ? "good" : item.set === "task1_bad" ? "bad" : "";
  return el(
    "li",
    {},
    el(
      "button",
      { class: `row${selected === item.key ? " on" : ""}`, "data-key": item.key, onclick: () => openRecord(item.key, true) },
      el("span", { class: "cid" }, item.cid),
      el("span", { class: `chip ${setClass}` }, sets[item.set] || item.set),
      item.excluded ? el("span", { class: "chip excluded" }, "excluded") : null,
      chips,
      el("div", { class: "preview" }, item.preview),
    ),
  );
}

async function load(append = false) {
  offset = append ? offset : 0;
  const { data } = await api(`/api/records?${params({ offset })}`);
  renderFacets(data.counts);
  $("total").textContent = `${data.total} record${data.total === 1 ? "" : "s"}`;
  const rows = data.items.map(row);
  if (append) $("list").append(...rows);
  else $("list").replaceChildren(...rows);
  offset = data.offset + data.items.length;
  $("more").hidden = offset >= data.total;
}

function labelRows(labels) {
  return Object.entries(labels).flatMap(([name, value]) => [
    el("dt", {}, name.replaceAll("_", " ")),
    el("dd", {}, typeof value === "object" ? JSON.stringify(value) : String(value)),
  ]);
}

function exclusionPanel(record) {
  const panel = $("d-exclusion");
  if (record.exclusion) {
    const x = record.exclusion;
    panel.replaceChildren(
      el("h3", {}, "Excluded"),
      el("p", {}, `by ${x.who || "?"} at ${x.when}: `, el("q", {}, x.reason)),
      el("p", { class: "muted" }, "Tasks run with -T exclude=FILE leave it out. Delete its line in the file to take it back."),
    );
    return;
  }
  const reason = el("input", { id: "reason", placeholder: "Why should this record not count?", required: true, maxlength: "500" });
  const error = el("p", { class: "error", hidden: true });
  const submit = async (event) => {
    event.preventDefault();
    if (!reason.value.trim()) return;
    const { status, data } = await api("/api/exclude", { cid: record.cid, reason: reason.value });
    if (status !== 200) {
      error.hidden = false;
      error.textContent = data.error;
      return;
    }
    await openRecord(record.key);
    await load();
  };
  panel.replaceChildren(
    el("h3", {}, "Exclude from the benchmark"),
    el("form", { onsubmit: submit }, reason, el("button", { class: "btn primary", type: "submit", id: "exclude" }, "Exclude with this reason")),
    error,
  );
}

// An opened record is a history entry (#record=key), so a phone's Back closes it instead of
// leaving the page; `remember` is false when the history itself is moving.
async function openRecord(key, remember = false) {
  const { status, data } = await api(`/api/record?key=${encodeURIComponent(key)}`);
  if (status !== 200) return;
  if (remember && selected !== key) history.pushState({ record: key }, "", `#record=${encodeURIComponent(key)}`);
  selected = key;
  $("layout").classList.add("with-detail");
  $("detail").hidden = false;
  $("d-cid").textContent = data.cid;
  $("d-set").textContent = sets[data.set] || data.set;
  $("d-labels").replaceChildren(...labelRows(data.labels));
  $("d-chat").replaceChildren(chat(data.turns));
  exclusionPanel(data);
  for (const button of document.querySelectorAll(".row")) button.classList.toggle("on", button.dataset.key === key);
  $("detail").scrollTop = 0;
  if (narrow()) window.scrollTo(0, 0);
}

function closeRecord() {
  selected = null;
  $("detail").hidden = true;
  $("layout").classList.remove("with-detail");
}

function recordInAddress() {
  const found = /^#record=(.+)$/.exec(location.hash);
  return found ? decodeURIComponent(found[1]) : null;
}

async function start() {
  const { data } = await api("/api/summary");
  sets = data.sets;
  $("source").textContent = `${data.records} records from ${data.source}`;
  $("exclude-file").textContent = `exclusions: ${data.exclude_file} (as ${data.who})`;
  if (data.problem_count) {
    $("problems").hidden = false;
    $("problems-title").textContent = `${data.problem_count} record(s) or set(s) could not be read`;
    $("problems-list").replaceChildren(...data.problems.map((p) => el("li", {}, p)));
  }
  if (narrow()) $("filters").open = false;
  await load();
  const key = recordInAddress();
  if (key) await openRecord(key);
}

$("q").addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => load(), 250);
});
$("excluded").addEventListener("change", () => load());
$("clear").addEventListener("click", () => {
  for (const name of Object.keys(filters)) delete filters[name];
  $("q").value = "";
  $("excluded").value = "all";
  load();
});
$("more").addEventListener("click", () => load(true));
// the page's own Back goes back in the history when it opened the record, as the browser's would
$("back").addEventListener("click", () => (history.state && history.state.record ? history.back() : closeRecord()));
window.addEventListener("popstate", () => {
  const key = recordInAddress();
  if (key) openRecord(key);
  else closeRecord();
});
start();
