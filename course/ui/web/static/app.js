// The course's web app: a chat whose answers stream in stage by stage, and the graph with the
// answer lit up. Every text from the server is set with textContent: never parsed as markup.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const log = document.getElementById("log");
const form = document.getElementById("ask");
const box = document.getElementById("question");
const send = document.getElementById("send");
let busy = true;            // until the stored conversation is shown (resume)

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  return node;
}

function inView() {
  log.scrollTop = log.scrollHeight;
}

// --- one turn of the conversation ------------------------------------------------------------

function newTurn(question) {
  const turn = el("li", "turn");
  turn.appendChild(el("div", "question", question));
  const stages = el("ol", "stages");
  turn.appendChild(stages);
  log.appendChild(turn);
  inView();
  return { turn, stages };
}

function stage(parts, text, className, code) {
  const item = el("li", className, text);
  if (code) item.appendChild(el("code", null, code));
  parts.stages.appendChild(item);
  inView();
}

function table(columns, rows, count) {
  const t = el("table");
  const head = el("tr");
  for (const c of columns) head.appendChild(el("th", null, c));
  t.appendChild(head);
  for (const row of rows) {
    const line = el("tr");
    for (const v of row) line.appendChild(el("td", null, v));
    t.appendChild(line);
  }
  if (count > rows.length) {
    const more = el("tr");
    const cell = el("td", null, `… ${count - rows.length} more rows`);
    cell.colSpan = columns.length;
    more.appendChild(cell);
    t.appendChild(more);
  }
  return t;
}

function folded(title, content) {
  const d = el("details");
  d.appendChild(el("summary", null, title));
  d.appendChild(content);
  return d;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

const STEP_WORDS = {
  cypher: "Cypher written", answer: "answer written", tools: "tool loop step",
  updater: "query updater", router: "router", critic: "answer critic",
  text2cypher: "text2cypher",
};

function showCall(parts, e) {
  const rows = e.row_count === null || e.row_count === undefined ? "" : ` · ${plural(e.row_count, "row")}`;
  if (e.name === "execute_cypher") {
    if (e.verdict === "allowed") stage(parts, `Guard: allowed; ran read-only${rows}`, "allowed", e.query);
    else if (e.verdict === "refused by the guard") stage(parts, `Guard: refused. ${e.error}`, "refused", e.query);
    else stage(parts, `Guard: allowed; the database said: ${e.error}`, "failed", e.query);
  } else {
    const said = e.ok ? rows : ` · ${e.error}`;
    stage(parts, `Tool called: ${e.name}${said}`, e.ok ? "allowed" : "failed", e.arguments);
  }
}

function showStep(parts, e) {
  const what = STEP_WORDS[e.kind] || e.kind || "model call";
  const tokens = e.tokens ? ` · ${plural(e.tokens, "token")}` : "";
  if (e.problem) { stage(parts, `${what} (${e.provider}): ${e.problem}`, "failed"); return; }
  if (e.kind === "cypher") stage(parts, `Model call ${e.number}: ${what} by ${e.provider}${tokens}`, "step");
  else if (e.kind === "answer") stage(parts, `Model call ${e.number}: ${what} by ${e.provider}${tokens}`, "step");
  else if (e.kind === "tools") stage(parts, `Model call ${e.number}: ${what} (${e.provider})${tokens}`, "step", e.text || null);
  else {   // the agentic agent's roles: their step's text starts with the role's name
    const said = e.text.startsWith(`${e.kind}: `) ? e.text.slice(e.kind.length + 2) : e.text;
    stage(parts, `${what} (${e.provider}): ${said}`, "step");
  }
  for (const call of e.calls || []) showCall(parts, call);
}

function showAnswer(parts, e) {
  const answer = el("div", `answer ${e.status}`, e.answer || e.error || "(no answer)");
  parts.turn.appendChild(answer);
  parts.turn.appendChild(el("div", "footer", footer(e)));
  if (e.cypher) {
    const pre = el("pre");
    pre.appendChild(el("code", null, e.cypher));
    parts.turn.appendChild(folded("Cypher", pre));
  }
  if (e.status === "answered" && e.columns && e.columns.length) {
    parts.turn.appendChild(folded(`Rows (${e.count})`, table(e.columns, e.rows, e.count)));
  }
  inView();
}

function footer(e) {
  const bits = [e.status, e.provider || "no provider"];
  if (e.attempts) bits.push(plural(e.attempts, "attempt"));   // the pipeline's own
  bits.push(plural(e.llm_calls, "model call"));
  const tokens = (e.input_tokens || 0) + (e.output_tokens || 0);
  if (tokens) bits.push(plural(tokens, "token"));
  if (e.cost_usd) bits.push(`$${Number(e.cost_usd).toFixed(4)}`);
  if (e.from_memory) bits.push("from memory");
  return bits.join(" · ");
}

function handle(parts, e) {
  if (e.type === "linked") {
    const names = e.mentions.map((m) => `${m.label} ${m.value}`);
    stage(parts, names.length ? `Linked: ${names.join(", ")}` : "Linked: no names of the graph", "linked");
  } else if (e.type === "step") showStep(parts, e);
  else if (e.type === "call") showCall(parts, e);
  else if (e.type === "rows") {
    const cut = e.truncated ? " (cut at the row cap)" : "";
    stage(parts, `Rows: ${e.count}${cut}${e.columns.length ? " — " + e.columns.join(", ") : ""}`, "rows");
  } else if (e.type === "retry") stage(parts, `Attempt ${e.number} failed: ${e.error}`, "failed");
  else if (e.type === "answer") showAnswer(parts, e);
  else if (e.type === "graph") draw(e);
  else if (e.type === "error") { parts.turn.appendChild(el("div", "error", e.message)); inView(); }
}

// --- asking: a POST whose answer is a stream of server-sent events ---------------------------

async function ask(question) {
  if (busy || !question.trim()) return;
  busy = true;
  send.disabled = true;
  const parts = newTurn(question);
  try {
    const response = await fetch("/api/ask", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ question }),
    });
    if (!response.ok) {
      handle(parts, { type: "error", message: await problem(response) });
      return;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let pending = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let end;
      while ((end = pending.indexOf("\n\n")) >= 0) {
        const frame = pending.slice(0, end);
        pending = pending.slice(end + 2);
        const data = frame.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
        if (data) handle(parts, JSON.parse(data));      // ": keep-alive" frames carry no data
      }
    }
  } catch (error) {
    handle(parts, { type: "error", message: "The server could not be reached: is `python -m course serve` still running?" });
  } finally {
    busy = false;
    send.disabled = false;
    box.focus();
  }
}

async function problem(response) {
  try {
    const body = await response.json();
    return body.error || `The server said ${response.status}.`;
  } catch (error) {
    return (await response.text().catch(() => "")) || `The server said ${response.status}.`;
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  if (busy || !box.value.trim()) return;     // the question stays in the box until it can go
  const question = box.value;
  box.value = "";
  ask(question);
});

box.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  }
});

for (const button of document.querySelectorAll("button.try")) {
  button.addEventListener("click", () => { box.value = button.textContent; form.requestSubmit(); });
}

document.getElementById("new-chat").addEventListener("click", async () => {
  if (busy) return;
  busy = true;
  await fetch("/api/new", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
  log.replaceChildren();
  await resume();
  box.focus();
});

// --- the graph: the server's layout, drawn as SVG --------------------------------------------

let lastView = null;
window.addEventListener("resize", () => { if (lastView) draw(lastView.original); });

function draw(given) {
  const view = { ...given, original: given, nodes: given.nodes.map((n) => ({ ...n })) };
  const picture = document.getElementById("picture");
  picture.replaceChildren();
  const nodes = new Map(view.nodes.map((n) => [n.id, n]));
  // The server's layout, stretched to the panel in pixels: circles and labels keep their size.
  const width = Math.max(picture.clientWidth, 320), height = Math.max(picture.clientHeight, 300);
  picture.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const xs = view.nodes.map((n) => n.x), ys = view.nodes.map((n) => n.y);
  const left = Math.min(...xs), right = Math.max(...xs), top = Math.min(...ys), bottom = Math.max(...ys);
  const pad = { x: 90, y: 40 };
  const across = (x) => right > left ? pad.x + (x - left) / (right - left) * (width - 2 * pad.x) : width / 2;
  const down = (y) => bottom > top ? pad.y + (y - top) / (bottom - top) * (height - 2 * pad.y) : height / 2;
  for (const n of view.nodes) { n.x = across(n.x); n.y = down(n.y); }
  lastView = view;
  const crowded = view.nodes.length > 40;
  const defs = svg("defs");
  for (const [id, colour] of [["arrow", "#b0b0b0"], ["arrow-lit", view.marks.lit]]) {
    const marker = svg("marker", { id, viewBox: "0 0 10 10", refX: "18", refY: "5",
                                   markerWidth: "6", markerHeight: "6", orient: "auto-start-reverse" });
    marker.appendChild(svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: colour }));
    defs.appendChild(marker);
  }
  picture.appendChild(defs);
  const lit = view.nodes.some((n) => n.lit || n.named);
  const labelEdges = view.edges.length <= 60;
  for (const e of view.edges) {
    const a = nodes.get(e.from), b = nodes.get(e.to);
    picture.appendChild(svg("line", {
      x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: e.lit ? view.marks.lit : "#c8c8c8",
      "stroke-width": e.lit ? 3 : 1, "marker-end": `url(#${e.lit ? "arrow-lit" : "arrow"})`,
    }));
    if (labelEdges) {
      const t = svg("text", { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, class: "edge", "text-anchor": "middle" });
      t.textContent = e.type;
      picture.appendChild(t);
    }
  }
  const labels = [];
  for (const n of view.nodes) {
    const marked = n.lit || n.named;
    const g = svg("g", { class: `node${n.lit ? " lit" : ""}${n.named ? " named" : ""}`, "data-name": n.name });
    n.r = marked ? 12 : n.note ? 5 : 8;
    const circle = svg("circle", {
      cx: n.x, cy: n.y, r: n.r, fill: n.colour,
      stroke: n.lit ? view.marks.lit : n.named ? view.marks.named : "white",
      "stroke-width": n.lit ? 5 : n.named ? 3 : 1,
      opacity: lit && !marked && view.nodes.length > 40 ? 0.35 : 1,
    });
    const tip = svg("title");
    tip.textContent = n.title;
    circle.appendChild(tip);
    g.appendChild(circle);
    if (!n.note || marked) {
      const t = svg("text", { x: n.x, y: n.y - (marked ? 17 : 12), "text-anchor": "middle",
                              class: marked ? "marked" : crowded ? "small" : "" });
      t.textContent = n.name.length > 28 ? n.name.slice(0, 27) + "…" : n.name;
      g.appendChild(t);
      labels.push({ text: t, node: n, marked, r: n.r });
    }
    picture.appendChild(g);
  }
  placeLabels(labels, view.nodes);
  legend(view);
}

// Each label goes where it covers no other node and no label placed before it: above its
// node, else below, right or left. The answer's and the question's names are placed first
// (and always shown); a name with no free place is left out of the picture, and shown when
// its node is hovered.
function placeLabels(labels, nodes) {
  const placed = [];
  const overlaps = (b, p) => b.x < p.x + p.width && p.x < b.x + b.width &&
                             b.y < p.y + p.height && p.y < b.y + b.height;
  const circles = nodes.map((n) => ({ node: n, x: n.x - n.r, y: n.y - n.r, width: 2 * n.r, height: 2 * n.r }));
  const free = (b, node) => !placed.some((p) => overlaps(b, p)) &&
                            !circles.some((c) => c.node !== node && overlaps(b, c));
  labels.sort((a, b) => Number(b.marked) - Number(a.marked));
  for (const { text, node, marked, r } of labels) {
    const spots = [["middle", node.x, node.y - r - 5], ["middle", node.x, node.y + r + 13],
                   ["start", node.x + r + 3, node.y + 4], ["end", node.x - r - 3, node.y + 4]];
    let box = null;
    for (const [anchor, x, y] of spots) {
      text.setAttribute("text-anchor", anchor);
      text.setAttribute("x", x);
      text.setAttribute("y", y);
      const b = text.getBBox();
      if (free(b, node)) { box = b; break; }
    }
    if (box === null && marked) {
      const [anchor, x, y] = spots[0];
      Object.entries({ "text-anchor": anchor, x, y }).forEach(([k, v]) => text.setAttribute(k, v));
      box = text.getBBox();
    }
    if (box === null) text.remove();
    else placed.push(box);
  }
}

function legend(view) {
  const box = document.getElementById("legend");
  box.replaceChildren();
  for (const item of view.legend) {
    const span = el("span");
    const dot = el("span", "dot");
    dot.style.background = item.colour;
    span.appendChild(dot);
    span.appendChild(document.createTextNode(item.label));
    box.appendChild(span);
  }
  for (const [key, words] of [["lit", "in the answer"], ["named", "named in the question"]]) {
    if (!view.nodes.some((n) => n[key])) continue;
    const span = el("span");
    const ring = el("span", "ring");
    ring.style.borderColor = view.marks[key];
    span.appendChild(ring);
    span.appendChild(document.createTextNode(words));
    box.appendChild(span);
  }
}

// --- a reload resumes the conversation -------------------------------------------------------

async function resume() {
  busy = true;               // no question until the stored ones are shown, in their order
  send.disabled = true;
  try {
    const response = await fetch("/api/history");
    if (!response.ok) {
      log.appendChild(el("li", "error", await problem(response)));
      return;
    }
    const data = await response.json();
    document.getElementById("about").textContent = `agent: ${data.about.agent} · ${data.about.provider}`;
    for (const t of data.turns) {
      const parts = newTurn(t.question);
      parts.turn.appendChild(el("div", `answer ${t.status}`, t.answer));
    }
    draw(data.graph);
    inView();
  } catch (error) {
    log.appendChild(el("li", "error", "The server could not be reached: is `python -m course serve` still running?"));
  } finally {
    busy = false;
    send.disabled = false;
  }
}

resume();
box.focus();

// Zoom with the wheel (around the pointer), move with a drag; a double click fits it again.
(function zoomAndDrag() {
  const picture = document.getElementById("picture");
  const box = () => picture.getAttribute("viewBox").split(" ").map(Number);
  const point = (event) => {
    const [x, y, w, h] = box(), rect = picture.getBoundingClientRect();
    return [x + (event.clientX - rect.left) / rect.width * w, y + (event.clientY - rect.top) / rect.height * h];
  };
  picture.addEventListener("wheel", (event) => {
    event.preventDefault();
    const [x, y, w, h] = box(), [px, py] = point(event);
    const f = event.deltaY > 0 ? 1.15 : 1 / 1.15;
    picture.setAttribute("viewBox", `${px - (px - x) * f} ${py - (py - y) * f} ${w * f} ${h * f}`);
  }, { passive: false });
  let from = null;
  picture.addEventListener("pointerdown", (event) => { from = point(event); picture.setPointerCapture(event.pointerId); });
  picture.addEventListener("pointermove", (event) => {
    if (!from) return;
    const [x, y, w, h] = box(), [px, py] = point(event);
    picture.setAttribute("viewBox", `${x - (px - from[0])} ${y - (py - from[1])} ${w} ${h}`);
  });
  picture.addEventListener("pointerup", () => { from = null; });
  picture.addEventListener("dblclick", () => { if (lastView) draw(lastView.original); });
})();
