// Shared helpers of the UXBench pages. Record text only ever enters the page as text nodes.

const token = new URLSearchParams(location.search).get("token") || "";

// `signal` (an AbortController's) lets a page stop a long poll it no longer needs, quietly.
export async function api(path, body, signal) {
  const init = { headers: { "X-UXBench-Token": token }, signal };
  if (body !== undefined) {
    init.method = "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (response.status === 403) throw new Error("the page's token was refused; open the link from the terminal");
  return { status: response.status, data: await response.json() };
}

// el("div", {class: "x", onclick: f}, "text", child): children are nodes or text, never markup.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const ROLE = { user: "User", assistant: "Assistant", system: "System" };

// turns: [{role, text, mark}] — a mark ("judged reply", "complaint", ...) names and outlines the turn.
export function chat(turns) {
  return el(
    "div",
    { class: "chat" },
    turns.map((t) =>
      el(
        "div",
        { class: `turn ${t.role}${t.mark ? " marked" : ""}` },
        el("div", { class: "who" }, t.mark ? `${ROLE[t.role] || t.role} · ${t.mark}` : ROLE[t.role] || t.role),
        el("div", { class: "bubble" }, t.text),
      ),
    ),
  );
}

export function typing(event) {
  const tag = event.target && event.target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || event.ctrlKey || event.metaKey || event.altKey;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
