// The page of `tabula serve`: shows the state the JSON API gives and sends
// the person's moves back. No framework: the DOM and fetch. Every request
// that changes the game carries the step and revision this page shows, so a
// stale page is refused (HTTP 409) and then reloads the state.
"use strict";

const $ = (id) => document.getElementById(id);
let state = null;      // the last state from the server
let selection = [];    // cells clicked so far (indices in the board's view)
let pending = {};      // role -> move text chosen while others still choose

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

async function refresh() {
  const response = await fetch("/api/state");
  render(await response.json());
}

// Sends a change; on success shows the new state, on refusal the error.
async function post(path, body) {
  document.body.dataset.busy = "1";
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(Object.assign({ step: state.step, revision: state.revision }, body)),
    });
    const answer = await response.json();
    if (!response.ok) {
      showError(answer.error);
      if (response.status === 409) {
        await refresh();
        showError(answer.error);
      }
      return null;
    }
    clearError();
    return answer;
  } catch (e) {
    showError("the server does not answer: " + e);
    return null;
  } finally {
    delete document.body.dataset.busy;
  }
}

async function change(path, body) {
  const answer = await post(path, body || {});
  if (answer) {
    render(answer);
  }
}

function element(tag, attributes, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes || {})) {
    e.setAttribute(k, v);
  }
  if (text !== undefined) {
    e.textContent = text;
  }
  return e;
}

const players = () => state.roles.filter((r) => !r.nature);
const nature = () => state.roles.find((r) => r.nature);
const choosers = () => players().filter((r) => r.choosing);

// The moves that name cells, of the roles still to choose.
function clickable() {
  const out = [];
  for (const role of choosers()) {
    if (pending[role.name] !== undefined) continue;
    for (const move of role.moves) {
      if (move.cells.length > 0) out.push({ role: role.name, text: move.text, cells: move.cells });
    }
  }
  return out;
}

const startsWith = (cells, prefix) => prefix.every((c, i) => cells[i] === c);

function cellClicked(cell) {
  if (!state || state.over) return;
  const moves = clickable();
  let chosen = selection.concat([cell]);
  let matching = moves.filter((m) => startsWith(m.cells, chosen));
  if (matching.length === 0) {
    chosen = [cell];
    matching = moves.filter((m) => startsWith(m.cells, chosen));
  }
  if (matching.length === 0) {
    selection = [];
    showError("no legal move starts at " + state.cells[cell]);
    highlight();
    return;
  }
  clearError();
  if (matching.length === 1 && matching[0].cells.length === chosen.length) {
    selection = [];
    highlight();
    choose(matching[0].role, matching[0].text);
    return;
  }
  selection = chosen;
  highlight();
}

// Marks the selected cells, the cells that can come next, and the moves
// that fit the selection.
function highlight() {
  const moves = clickable().filter((m) => selection.length > 0 && startsWith(m.cells, selection));
  const next = new Set(moves.map((m) => m.cells[selection.length]).filter((c) => c !== undefined));
  for (const rect of document.querySelectorAll("#board rect.cell")) {
    const i = Number(rect.dataset.cell);
    rect.classList.toggle("chosen", selection.includes(i));
    rect.classList.toggle("target", next.has(i));
  }
  const fitting = new Set(moves.map((m) => m.role + "\u0000" + m.text));
  for (const b of document.querySelectorAll("button.move")) {
    b.classList.toggle("candidate", fitting.has(b.dataset.role + "\u0000" + b.dataset.move));
  }
  $("selection-box").hidden = selection.length === 0;
  $("selection").textContent = selection.map((c) => state.cells[c]).join(" → ");
}

// A player's move; played as soon as every role that chooses has chosen.
function choose(role, text) {
  pending[role] = text;
  if (choosers().every((r) => pending[r.name] !== undefined)) {
    const moves = Object.assign({}, pending);
    const random = nature();
    if (random && random.choosing && $("outcome").value !== "") {
      moves[random.name] = $("outcome").value;
    }
    pending = {};
    change("/api/play", { moves });
  } else {
    renderMoves();
  }
}

function renderMoves() {
  const box = $("moves");
  box.replaceChildren();
  for (const role of players()) {
    const div = element("div", { class: "role", "data-role": role.name });
    div.append(element("span", { class: "role-name" }, role.name + ": "));
    if (state.over) {
      div.append(element("span", { class: "waiting" }, "—"));
    } else if (!role.choosing) {
      const only = role.moves.map((m) => m.text).join(", ") || "no move";
      div.append(element("span", { class: "waiting" }, only));
    } else if (pending[role.name] !== undefined) {
      div.append(element("span", {}, "chose " + pending[role.name] + " "));
      const b = element("button", {}, "change");
      b.onclick = () => { delete pending[role.name]; renderMoves(); };
      div.append(b);
    } else {
      div.append(element("br"));
      for (const move of role.moves) {
        const b = element("button", { class: "move", "data-role": role.name, "data-move": move.text }, move.text);
        b.onclick = () => choose(role.name, move.text);
        div.append(b);
      }
    }
    box.append(div);
  }
  const random = nature();
  const nobody = !state.over && choosers().length === 0 && !(random && random.choosing);
  $("play-forced").hidden = !nobody;
}

function render(next) {
  const changed = !state || state.revision !== next.revision;
  state = next;
  if (changed) {
    selection = [];
    pending = {};
  }
  document.title = state.title + " — tabula";
  $("title").textContent = state.title;
  $("turn").textContent = state.last_move ? state.turn + "  ·  last: " + state.last_move : state.turn;
  $("step").textContent = "step " + state.step;
  $("undo").disabled = !state.can_undo;
  $("redo").disabled = !state.can_redo;
  $("board").innerHTML = state.svg;
  renderMoves();

  const random = nature();
  const throws = !state.over && random && random.choosing;
  $("throw-box").hidden = !throws;
  const outcome = $("outcome");
  outcome.replaceChildren(element("option", { value: "" }, "random (by weight)"));
  if (throws) {
    for (const m of random.moves) {
      outcome.append(element("option", { value: m.text }, m.text + (m.probability ? "  (" + m.probability + ")" : "")));
    }
  }
  $("throw").textContent = choosers().length > 0 ? "Throw (players move first)" : "Throw";
  $("throw").disabled = choosers().length > 0;

  const agents = $("agents");
  agents.replaceChildren();
  for (const role of players()) {
    const label = element("label", { class: "role" }, role.name + " ");
    const input = element("input", { "data-role": role.name, value: role.agent, size: "10", list: "agent-kinds" });
    label.append(input);
    agents.append(label, element("br"));
  }
  const kinds = element("datalist", { id: "agent-kinds" });
  for (const k of ["random", "first", "mcts:200", "mcts:1000", "mcts:2s"]) kinds.append(element("option", { value: k }));
  agents.append(kinds);
  $("auto").disabled = state.over;
  $("hint").disabled = state.over;

  $("goals-box").hidden = !state.over;
  if (state.over && state.goals) {
    $("goals").textContent = state.goals.error
      ? state.goals.error
      : state.goals.map((g) => g.role + " " + g.goal).join(", ");
  }
  const facts = $("facts");
  facts.replaceChildren(...state.facts.map((f) => element("li", {}, f)));
  $("fact-count").textContent = state.facts.length;
  if (!state.svg.includes('class="cell"')) {
    $("facts-box").open = true;
  }
  if (changed) $("hint-out").replaceChildren();
  highlight();
  document.body.dataset.step = state.step;
  document.body.dataset.revision = state.revision;
}

async function hint() {
  const answer = await post("/api/hint", { search: $("search").value.trim() || null });
  const out = $("hint-out");
  out.replaceChildren();
  if (!answer) return;
  out.append(element("p", { class: "note" }, answer.search + (answer.iterations ? ", " + answer.iterations + " iterations" : "")));
  if (answer.roles.length === 0) out.append(element("p", {}, "nobody has a choice here"));
  for (const role of answer.roles) {
    out.append(element("p", { class: "role-name" }, role.role));
    const table = element("table", { class: "hint" });
    const head = element("tr");
    for (const h of ["#", "move", "visits", "mean goal"]) head.append(element("th", {}, h));
    table.append(head);
    for (const m of role.moves) {
      const row = element("tr");
      row.append(element("td", {}, String(m.number)), element("td", { class: "text" }, m.text),
        element("td", {}, String(m.visits)), element("td", {}, m.mean.toFixed(1) + " ± " + m.ci95.toFixed(1)));
      table.append(row);
    }
    out.append(table);
    if (role.close) {
      out.append(element("p", { class: "note" }, "moves " + role.close[0] + " and " + role.close[1] +
        " are within each other's 95% confidence interval: a longer search may tell them apart"));
    }
  }
}

async function save() {
  const response = await fetch("/api/transcript");
  const text = await response.text();
  const link = element("a", { href: URL.createObjectURL(new Blob([text], { type: "text/plain" })), download: "transcript.txt" });
  document.body.append(link);
  link.click();
  link.remove();
}

async function load(event) {
  const file = event.target.files[0];
  if (!file) return;
  const text = await file.text();
  event.target.value = "";
  await change("/api/transcript", { text });
}

function agentsMove() {
  const agents = {};
  for (const input of document.querySelectorAll("#agents input")) {
    agents[input.dataset.role] = input.value.trim();
  }
  change("/api/auto", { agents });
}

function start() {
  $("board").addEventListener("click", (event) => {
    const rect = event.target.closest("rect.cell");
    if (rect) cellClicked(Number(rect.dataset.cell));
  });
  $("undo").onclick = () => change("/api/undo");
  $("redo").onclick = () => change("/api/redo");
  $("restart").onclick = () => change("/api/restart");
  $("clear").onclick = () => { selection = []; highlight(); };
  $("play-forced").onclick = () => change("/api/play", { moves: {} });
  $("throw").onclick = () => change("/api/roll", { outcome: $("outcome").value || null });
  $("auto").onclick = agentsMove;
  $("hint").onclick = hint;
  $("save").onclick = save;
  $("load").onchange = load;
  refresh().catch((e) => showError("cannot read the state: " + e));
}

start();
