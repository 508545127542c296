// SPDX-License-Identifier: ISC
//
// app.js -- sudokud's page.  It draws the grid and calls the daemon's
// public HTTP API (doc/http.md: POST /v2/<verb> with a JSON object,
// GET /v2/hello); nothing else, nothing private, no framework.
//
// The player's state is the puzzle's givens, the digits entered, and
// the candidates that hints have eliminated (which 81 cells cannot hold:
// HINT is then sent the 729-character pencil-mark form, doc/protocol.md).
"use strict";

(function () {
	const CELLS = 81;
	const ALL = 0x3fe;		// candidates 1-9 as bits 1-9

	const $ = (id) => document.getElementById(id);

	// --- cells, units, peers --------------------------------------

	const cellName = (i) => "r" + (Math.floor(i / 9) + 1) + "c" + (i % 9 + 1);

	function cellIndex(name) {
		const m = /^r([1-9])c([1-9])$/.exec(name);
		return m ? (m[1] - 1) * 9 + (m[2] - 1) : -1;
	}

	// "row 3", "column 5", "box 2": the unit's nine cells.
	function unitCells(unit) {
		const m = /^(row|column|box) ([1-9])$/.exec(unit);
		const out = [];
		if (!m)
			return out;
		const k = m[2] - 1;
		for (let j = 0; j < 9; j++) {
			if (m[1] === "row")
				out.push(k * 9 + j);
			else if (m[1] === "column")
				out.push(j * 9 + k);
			else
				out.push((Math.floor(k / 3) * 3 + Math.floor(j / 3)) * 9 +
				    (k % 3) * 3 + j % 3);
		}
		return out;
	}

	const PEERS = [];
	for (let i = 0; i < CELLS; i++) {
		const r = Math.floor(i / 9), c = i % 9;
		const box = Math.floor(r / 3) * 3 + Math.floor(c / 3);
		const set = new Set([...unitCells("row " + (r + 1)),
		    ...unitCells("column " + (c + 1)), ...unitCells("box " + (box + 1))]);
		set.delete(i);
		PEERS.push([...set]);
	}

	// --- state ----------------------------------------------------

	const state = {
		puzzle: null,			// 81 chars, "." for a blank
		entries: new Array(CELLS).fill("."),	// givens included
		elim: new Uint16Array(CELLS),	// eliminated by applied hints
		solved: new Set(),		// cells Solve filled
		mode: "play",			// "play", "edit" or "path"
		hint: null,			// the last hint, to apply
		path: null,			// { reply, at, grids }
		marks: { wrong: new Set(), hint: new Set(), unit: new Set(),
		    place: new Set(), gone: new Map(), placed: new Map() },
		token: ""
	};

	function clearMarks() {
		state.marks.wrong.clear();
		clearHighlights();
	}

	const gridString = (entries) => entries.join("");

	// The candidates of cell i: a filled cell's digit, else those its
	// filled peers leave it, less what hints have eliminated.
	function candidates(entries, elim, i) {
		if (entries[i] !== ".")
			return 1 << Number(entries[i]);
		let m = ALL & ~elim[i];
		for (const p of PEERS[i])
			if (entries[p] !== ".")
				m &= ~(1 << Number(entries[p]));
		return m;
	}

	// The player's grid as HINT reads it: 81 cells, or the 729 pencil
	// marks once a hint has eliminated something.  Only eliminations go
	// into the marks: the server works out what filled peers leave.
	function playerGrid() {
		if (!state.elim.some((m, i) => m !== 0 && state.entries[i] === "."))
			return gridString(state.entries);
		let s = "";
		for (let i = 0; i < CELLS; i++) {
			const m = state.entries[i] !== "." ?
			    1 << Number(state.entries[i]) : ALL & ~state.elim[i];
			for (let d = 1; d <= 9; d++)
				s += (m >> d & 1) ? String(d) : ".";
		}
		return s;
	}

	// --- the API --------------------------------------------------

	class ApiError extends Error {
		constructor(err, status) {
			super(err.message || err.code);
			this.code = err.code;
			this.cells = Array.isArray(err.cells) ? err.cells : [];
			this.status = status;
		}
	}

	async function api(verb, body, method) {
		const init = { method: method || "POST", headers: {} };
		if (state.token)
			init.headers.Authorization = "Bearer " + state.token;
		if (init.method === "POST") {
			init.headers["Content-Type"] = "application/json";
			init.body = JSON.stringify(body || {});
		}
		let resp, json;
		try {
			resp = await fetch(new URL("v2/" + verb, document.baseURI), init);
		} catch (e) {
			throw new ApiError({ code: "network",
			    message: "cannot reach sudokud (" + e.message + ")" }, 0);
		}
		try {
			json = await resp.json();
		} catch (e) {
			throw new ApiError({ code: "protocol", message:
			    "the server's reply is not JSON (HTTP " + resp.status + ")" },
			    resp.status);
		}
		if (json !== null && typeof json === "object" && json.error)
			throw new ApiError(json.error, resp.status);
		if (!resp.ok)
			throw new ApiError({ code: "http",
			    message: "HTTP " + resp.status }, resp.status);
		return json;
	}

	// Runs an action, its buttons disabled meanwhile, its error shown.
	async function run(fn) {
		const buttons = [...document.querySelectorAll("button")];
		const was = buttons.map((b) => b.disabled);
		buttons.forEach((b) => { b.disabled = true; });
		document.body.setAttribute("aria-busy", "true");
		try {
			await fn();
		} catch (e) {
			if (!(e instanceof ApiError))
				throw e;
			showError(e);
		} finally {
			document.body.removeAttribute("aria-busy");
			buttons.forEach((b, k) => { b.disabled = was[k]; });
			updateButtons();
		}
	}

	function showError(e) {
		for (const name of e.cells) {
			const i = cellIndex(name);
			if (i >= 0)
				state.marks.wrong.add(i);
		}
		if (e.code === "noauth") {
			$("auth").hidden = false;
			$("token").focus();
		}
		setStatus(e.message + (e.code ? " (" + e.code + ")" : ""), true);
		render();
	}

	function setStatus(text, error) {
		const s = $("status");
		s.textContent = text;
		s.classList.toggle("error", !!error);
	}

	// --- drawing --------------------------------------------------

	const inputs = [];
	const markBoxes = [];

	function buildBoard() {
		const body = $("board").tBodies[0];
		for (let r = 0; r < 9; r++) {
			const tr = document.createElement("tr");
			for (let c = 0; c < 9; c++) {
				const i = r * 9 + c;
				const td = document.createElement("td");
				const marks = document.createElement("div");
				marks.className = "marks";
				marks.setAttribute("aria-hidden", "true");
				for (let d = 1; d <= 9; d++)
					marks.appendChild(document.createElement("span"));
				const input = document.createElement("input");
				input.type = "text";
				input.inputMode = "numeric";
				input.autocomplete = "off";
				input.maxLength = 2;
				input.dataset.cell = cellName(i);
				input.dataset.index = String(i);
				td.append(marks, input);
				tr.appendChild(td);
				inputs.push(input);
				markBoxes.push(marks);
			}
			body.appendChild(tr);
		}
		body.addEventListener("keydown", onKey);
		body.addEventListener("input", onInput);
	}

	// What the grid shows: the player's state, or a step of the path.
	function shown() {
		if (state.mode === "path" && state.path)
			return state.path.grids[state.path.at];
		return { entries: state.entries, elim: state.elim };
	}

	function render() {
		const { entries, elim } = shown();
		const showMarks = $("marks").checked || state.mode === "path";
		for (let i = 0; i < CELLS; i++) {
			const input = inputs[i], td = input.parentElement;
			const given = state.mode !== "edit" && state.puzzle !== null &&
			    state.puzzle[i] !== ".";
			const v = entries[i] === "." ? "" : entries[i];
			if (input.value !== v)
				input.value = v;
			input.readOnly = state.mode === "path" ||
			    (state.mode === "play" && (given || state.puzzle === null));
			input.classList.toggle("given", given);
			input.classList.toggle("solved", !given && state.mode !== "path" &&
			    state.solved.has(i));
			const wrong = state.marks.wrong.has(i);
			td.classList.toggle("wrong", wrong);
			td.classList.toggle("hint", state.marks.hint.has(i));
			td.classList.toggle("unit", state.marks.unit.has(i));
			td.classList.toggle("place", state.marks.place.has(i));
			input.setAttribute("aria-invalid", wrong ? "true" : "false");
			input.setAttribute("aria-label", "Row " + (Math.floor(i / 9) + 1) +
			    ", column " + (i % 9 + 1) + (given ? ", given" : "") +
			    (wrong ? ", wrong" : "") + (state.marks.hint.has(i) ?
			    ", used by the hint" : ""));
			drawMarks(i, entries, elim, showMarks);
		}
	}

	function drawMarks(i, entries, elim, showMarks) {
		const box = markBoxes[i];
		box.hidden = !showMarks || entries[i] !== ".";
		if (box.hidden)
			return;
		const m = candidates(entries, elim, i);
		const gone = state.marks.gone.get(i) || 0;
		const placed = state.marks.placed.get(i) || 0;
		for (let d = 1; d <= 9; d++) {
			const span = box.children[d - 1];
			const isGone = (gone >> d & 1) !== 0;
			span.textContent = (m >> d & 1) || isGone ? String(d) : "";
			span.className = isGone ? "gone" : d === placed ? "placed" : "";
		}
	}

	function updateButtons() {
		const have = state.puzzle !== null;
		const play = state.mode === "play" && have;
		for (const id of ["check", "hint", "solve", "reset"])
			$(id).disabled = !play;
		$("apply").disabled = !play || state.hint === null ||
		    state.hint.solved;
		$("path-load").disabled = !have || state.mode === "edit";
		const p = state.path, inPath = state.mode === "path" && p;
		$("path-first").disabled = !inPath || p.at === 0;
		$("path-prev").disabled = !inPath || p.at === 0;
		$("path-next").disabled = !inPath || p.at === p.reply.steps.length;
		$("path-last").disabled = !inPath || p.at === p.reply.steps.length;
		$("path-close").disabled = !inPath;
		$("rate").disabled = !have || state.mode === "edit";
		$("canon").disabled = !have || state.mode === "edit";
		$("start").disabled = state.mode !== "edit";
		$("generate").disabled = false;
		$("load").disabled = false;
		$("edit").disabled = false;
	}

	// --- the keyboard ---------------------------------------------

	function onKey(ev) {
		const input = ev.target;
		if (!(input instanceof HTMLInputElement))
			return;
		const i = Number(input.dataset.index);
		const move = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1,
		    ArrowRight: 1 }[ev.key];
		if (move !== undefined) {
			ev.preventDefault();
			let j = i + move;
			if (move === -1 && i % 9 === 0)
				j = i + 8;
			else if (move === 1 && i % 9 === 8)
				j = i - 8;
			inputs[(j + CELLS) % CELLS].focus();
			return;
		}
		if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.key === "Tab")
			return;
		if (/^[1-9]$/.test(ev.key)) {
			ev.preventDefault();
			enter(i, ev.key);
		} else if (["Backspace", "Delete", "0", ".", " "].includes(ev.key)) {
			ev.preventDefault();
			enter(i, ".");
		} else if (ev.key.length === 1) {
			ev.preventDefault();
		}
	}

	// A phone's keyboard may send no usable keydown: take what it typed.
	function onInput(ev) {
		const input = ev.target;
		const i = Number(input.dataset.index);
		const digits = input.value.replace(/[^1-9]/g, "");
		enter(i, digits.length ? digits[digits.length - 1] : ".");
	}

	function enter(i, v) {
		if (inputs[i].readOnly) {
			render();
			return;
		}
		state.entries[i] = v;
		state.solved.delete(i);
		state.marks.wrong.delete(i);
		state.hint = null;
		clearHighlights();
		render();
		updateButtons();
	}

	function clearHighlights() {
		for (const k of ["hint", "unit", "place", "gone", "placed"])
			state.marks[k].clear();
	}

	// --- loading a puzzle -----------------------------------------

	// Text pasted: one token goes to the server as it is (its errors
	// are the server's); a grid over several lines or with blanks has
	// its cells (digits and dots) read in order, its rules skipped.
	function puzzleFromText(text) {
		const t = text.trim();
		if (t === "")
			throw new ApiError({ code: "length", message: "paste a puzzle first" }, 0);
		if (!/\s/.test(t))
			return t;
		const cells = t.replace(/[^0-9.]/g, "");
		if (cells.length !== CELLS)
			throw new ApiError({ code: "length", message: "the grid has " +
			    cells.length + " cells (digits, . or 0), not 81" }, 0);
		return cells;
	}

	function setPuzzle(p) {
		state.puzzle = p.replace(/0/g, ".");
		state.entries = state.puzzle.split("");
		state.elim = new Uint16Array(CELLS);
		state.solved.clear();
		state.mode = "play";
		state.hint = null;
		state.path = null;
		clearMarks();
		$("puzzle-text").value = state.puzzle;
		$("facts").replaceChildren();
		$("path-info").textContent = "";
		render();
		updateButtons();
	}

	// A puzzle not made here: COUNT says whether it can be played.
	async function loadChecked(p) {
		const r = await api("count", { puzzle: p, limit: 2 });
		if (p.length !== CELLS)
			throw new ApiError({ code: "length", message: "this page plays " +
			    "puzzles of 81 cells, not pencil marks" }, 0);
		setPuzzle(p);
		const givens = state.entries.filter((v) => v !== ".").length;
		if (r.count === 0)
			setStatus("This puzzle has no solution.", true);
		else if (r.count > 1)
			setStatus("This puzzle has more than one solution: hints and checks need exactly one.", true);
		else
			setStatus("Loaded: " + givens + " givens, one solution. Your turn.");
	}

	async function generate() {
		const body = { level: $("level").value };
		if ($("symmetry").value !== "none")
			body.symmetry = $("symmetry").value;
		const seed = $("seed").value.trim();
		if (seed !== "")
			body.seed = seed;
		const r = await api("generate", body);
		setPuzzle(r.puzzle);
		setFact("Generated", r.level + ", seed " + r.seed);
		setStatus("A new " + r.level + " puzzle (seed " + r.seed + "). Your turn.");
	}

	// --- playing --------------------------------------------------

	async function check() {
		clearMarks();
		let msg = null;
		try {
			const r = await api("hint", { puzzle: state.puzzle, grid: playerGrid() });
			if (r.solved)
				msg = "Solved: every cell is right.";
		} catch (e) {
			if (!(e instanceof ApiError) || (e.code !== "wrong" && e.code !== "nostep"))
				throw e;
			if (e.code === "wrong") {
				e.cells.forEach((n) => state.marks.wrong.add(cellIndex(n)));
				msg = e.cells.length + (e.cells.length === 1 ? " cell is" :
				    " cells are") + " wrong: " + e.cells.join(", ") + ".";
				setStatus(msg, true);
				render();
				return;
			}
		}
		if (msg === null) {
			const left = state.entries.filter((v) => v === ".").length;
			msg = "No mistakes so far; " + left + " cells to go.";
		}
		setStatus(msg);
		render();
	}

	async function hint() {
		clearMarks();
		let r;
		try {
			r = await api("hint", { puzzle: state.puzzle, grid: playerGrid() });
		} catch (e) {
			if (e instanceof ApiError && e.code === "wrong") {
				e.cells.forEach((n) => state.marks.wrong.add(cellIndex(n)));
				setStatus("Fix these first: " + e.cells.join(", ") + " (wrong).", true);
				render();
				return;
			}
			throw e;
		}
		state.hint = r;
		if (r.solved) {
			setStatus("Solved: every cell is right.");
		} else {
			highlightStep(r);
			setStatus(techniqueName(r.technique) + ": " + r.explanation + ".");
		}
		render();
	}

	function highlightStep(step) {
		clearHighlights();
		for (const u of step.units || [])
			unitCells(u).forEach((i) => state.marks.unit.add(i));
		for (const n of step.cells || [])
			state.marks.hint.add(cellIndex(n));
		for (const a of step.placements || []) {
			state.marks.place.add(cellIndex(a.cell));
			state.marks.placed.set(cellIndex(a.cell), a.digit);
		}
		for (const a of step.eliminations || []) {
			const i = cellIndex(a.cell);
			state.marks.gone.set(i, (state.marks.gone.get(i) || 0) | 1 << a.digit);
		}
	}

	// A step's placements and eliminations, applied to a grid.
	function applyStep(entries, elim, step) {
		for (const a of step.placements || [])
			entries[cellIndex(a.cell)] = String(a.digit);
		for (const a of step.eliminations || [])
			elim[cellIndex(a.cell)] |= 1 << a.digit;
	}

	function apply() {
		const h = state.hint;
		if (!h || h.solved)
			return;
		applyStep(state.entries, state.elim, h);
		const n = (h.placements || []).length, m = (h.eliminations || []).length;
		state.hint = null;
		clearHighlights();
		if (m > 0 && !$("marks").checked) {
			$("marks").checked = true;
		}
		setStatus("Applied: " + (n ? n + " digit" + (n > 1 ? "s" : "") + " placed" : "") +
		    (n && m ? ", " : "") + (m ? m + " candidate" + (m > 1 ? "s" : "") +
		    " eliminated" : "") + ".");
		render();
		updateButtons();
	}

	async function solve() {
		clearMarks();
		const r = await api("solve", { puzzle: state.puzzle });
		state.solved.clear();
		for (let i = 0; i < CELLS; i++) {
			if (state.puzzle[i] !== ".")
				continue;
			state.entries[i] = r.solution[i];
			state.solved.add(i);
		}
		state.elim = new Uint16Array(CELLS);
		state.hint = null;
		setStatus("Solved by sudokud: the digits in green are its solution.");
		render();
	}

	function reset() {
		state.entries = state.puzzle.split("");
		state.elim = new Uint16Array(CELLS);
		state.solved.clear();
		state.hint = null;
		clearMarks();
		setStatus("Your entries are cleared.");
		render();
	}

	// --- the path -------------------------------------------------

	async function loadPath() {
		clearMarks();
		const r = await api("path", { puzzle: state.puzzle });
		const grids = [{ entries: state.puzzle.split(""),
		    elim: new Uint16Array(CELLS) }];
		for (const step of r.steps) {
			const prev = grids[grids.length - 1];
			const next = { entries: prev.entries.slice(),
			    elim: prev.elim.slice() };
			applyStep(next.entries, next.elim, step);
			grids.push(next);
		}
		// A cell with one candidate left counts as filled (HINT's rule):
		// a whole path ends once every cell has one, not by placing
		// each.  The last grid shows them.
		if (r.complete)
			fillSingles(grids[grids.length - 1]);
		state.path = { reply: r, at: 0, grids };
		state.mode = "path";
		setStatus("The logical path: step through it with Next and Back.");
		setFact("Path", r.steps.length + " steps; " + r.level + " " +
		    r.score.toFixed(1) + ", hardest " + techniqueName(r.hardest));
		showStep();
		// After run() has enabled the buttons again.
		setTimeout(() => $("path-next").focus(), 0);
	}

	function fillSingles(g) {
		for (let changed = true; changed;) {
			changed = false;
			for (let i = 0; i < CELLS; i++) {
				const m = candidates(g.entries, g.elim, i);
				if (g.entries[i] !== "." || (m & (m - 1)) !== 0 || m === 0)
					continue;
				g.entries[i] = String(Math.log2(m));
				changed = true;
			}
		}
	}

	function pathGo(at) {
		const p = state.path;
		p.at = Math.max(0, Math.min(at, p.reply.steps.length));
		showStep();
	}

	function showStep() {
		const p = state.path, n = p.reply.steps.length;
		const info = $("path-info");
		clearHighlights();
		if (p.at === 0) {
			info.textContent = "Start: " + n + " steps to " +
			    (p.reply.complete ? "the solution" : "where logic ends") +
			    ". Next shows the first.";
		} else {
			const step = p.reply.steps[p.at - 1];
			highlightStep(step);
			info.textContent = "Step " + p.at + " of " + n + ", " +
			    techniqueName(step.technique) + ": " + step.explanation + ".";
			if (p.at === n && !p.reply.complete)
				info.textContent += " Logic ends here: the rest needs trial and error.";
			else if (p.at === n)
				info.textContent += " Every cell left has one candidate: solved.";
		}
		render();
		updateButtons();
	}

	function closePath() {
		state.mode = "play";
		clearMarks();
		$("path-info").textContent = "";
		render();
		updateButtons();
	}

	// --- facts ----------------------------------------------------

	function setFact(name, value) {
		const dl = $("facts");
		for (const dt of dl.querySelectorAll("dt")) {
			if (dt.textContent === name) {
				dt.nextElementSibling.textContent = value;
				return;
			}
		}
		const dt = document.createElement("dt");
		const dd = document.createElement("dd");
		dt.textContent = name;
		dd.textContent = value;
		dl.append(dt, dd);
	}

	const techniqueName = (t) => String(t).replace(/_/g, " ");

	async function rate() {
		const r = await api("rate", { puzzle: state.puzzle });
		setFact("Level", r.level);
		setFact("Score", r.score.toFixed(1));
		setFact("Hardest technique", techniqueName(r.hardest));
		setStatus("Rated " + r.level + " " + r.score.toFixed(1) + ".");
	}

	async function canon() {
		const r = await api("canon", { puzzle: state.puzzle });
		setFact("Canonical form", r.canonical);
		setFact("Automorphisms", String(r.automorphisms));
		setStatus("The canonical form is the same for every equivalent puzzle.");
	}

	// --- typing a puzzle in ---------------------------------------

	function edit() {
		state.mode = "edit";
		state.puzzle = null;
		state.entries = new Array(CELLS).fill(".");
		state.elim = new Uint16Array(CELLS);
		state.solved.clear();
		state.hint = null;
		state.path = null;
		clearMarks();
		$("facts").replaceChildren();
		setStatus("Type the givens into the grid, then Play the typed puzzle.");
		render();
		updateButtons();
		inputs[0].focus();
	}

	// --- start ----------------------------------------------------

	function fillSelect(id, values, chosen) {
		const sel = $(id);
		sel.replaceChildren();
		for (const v of values) {
			const o = document.createElement("option");
			o.value = v;
			o.textContent = v;
			o.selected = v === chosen;
			sel.appendChild(o);
		}
	}

	async function hello() {
		const h = await api("hello", null, "GET");
		const list = (v, dflt) => Array.isArray(v) ? v : dflt;
		fillSelect("level", list(h.levels, ["easy", "medium", "hard",
		    "expert", "extreme"]), "medium");
		fillSelect("symmetry", list(h.symmetries, ["none"]), "none");
		$("server").textContent = (h.server || "sudokud") + " " +
		    (h.version || "") + ", protocol " + (h.proto || "?");
		if (h.auth === "required")
			$("auth").hidden = false;
	}

	function on(id, fn) {
		$(id).addEventListener("click", () => run(fn));
	}

	function start() {
		buildBoard();
		fillSelect("level", ["easy", "medium", "hard", "expert", "extreme"], "medium");
		fillSelect("symmetry", ["none"], "none");
		on("generate", generate);
		on("load", () => loadChecked(puzzleFromText($("puzzle-text").value)));
		on("edit", edit);
		on("start", () => loadChecked(gridString(state.entries)));
		on("check", check);
		on("hint", hint);
		on("apply", apply);
		on("solve", solve);
		on("reset", reset);
		on("path-load", loadPath);
		on("path-first", () => pathGo(0));
		on("path-prev", () => pathGo(state.path.at - 1));
		on("path-next", () => pathGo(state.path.at + 1));
		on("path-last", () => pathGo(state.path.reply.steps.length));
		on("path-close", closePath);
		on("rate", rate);
		on("canon", canon);
		$("marks").addEventListener("change", render);
		$("token").addEventListener("input", () => {
			state.token = $("token").value.trim();
		});
		render();
		updateButtons();
		run(async () => {
			await hello();
			setStatus("Generate a puzzle, or paste or type one.");
		});
	}

	document.addEventListener("DOMContentLoaded", start);
}());
