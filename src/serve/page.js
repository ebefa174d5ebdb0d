// page.js — weft -serve's page: draws the session's state from the JSON API
// (serve.h lists it) and sends the user's commands.  The graph is laid out
// here as weft's dot files lay it out (src/report/dot.c): the initial
// writes in a row on top, a column per thread in program order, P0 on the
// left; edges styled by their look, as the dot writer styles them.
//
// A scenario in the address (?scenario=STEP;STEP...) is played by clicking
// the page's own controls, for the tests: `commit E P` (click event E,
// then the commit button of its choice P), `why E P`, `undo`, `reset`,
// `auto`, `goto STATE`, `open TEST` (pick it in the list of tests), and
// `snap`, which copies what the page shows into the list #scenario.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const LOOKS = ['po', 'rf', 'co', 'fr', 'addr', 'data', 'ctrl', 'rmw', 'lock', 'shown', 'witness', 'pending'];
let state = null;       // the last /api/state
let selected = null;    // the event whose choices are shown
let pending = Promise.resolve();   // the action under way

const $ = (id) => document.getElementById(id);

function el(tag, attrs, text) {
	const e = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs || {}))
		e.setAttribute(k, v);
	if (text !== undefined)
		e.textContent = text;
	return e;
}

function svgEl(tag, attrs, text) {
	const e = document.createElementNS(SVG, tag);
	for (const [k, v] of Object.entries(attrs || {}))
		e.setAttribute(k, v);
	if (text !== undefined)
		e.textContent = text;
	return e;
}

async function api(path, body) {
	const opts = body === undefined ? {} : {
		method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body)
	};
	const r = await fetch(path, opts);
	const j = await r.json();
	if (!r.ok)
		throw new Error(j.error || r.statusText);
	return j;
}

function say(text, bad) {
	$('message').textContent = text || '';
	$('message').className = bad ? 'bad' : '';
}

// Run an action; its errors are said on the page.
function act(f) {
	pending = pending.then(f).catch((e) => say(String(e.message || e), true));
	return pending;
}

// ---- the graph ---------------------------------------------------------------------

// The point where the line from a box's centre towards (tx, ty) leaves it.
function border(c, w, h, tx, ty) {
	const dx = tx - c.x, dy = ty - c.y;
	if (dx === 0 && dy === 0)
		return { x: c.x, y: c.y };
	const s = Math.min(dx ? (w / 2) / Math.abs(dx) : Infinity, dy ? (h / 2) / Math.abs(dy) : Infinity);
	return { x: c.x + dx * s, y: c.y + dy * s };
}

function drawGraph(g, nThreads) {
	const svg = $('graph');
	svg.replaceChildren();
	$('graph-title').textContent = g.title;
	const longest = Math.max(8, ...g.nodes.map((n) => n.label.length));
	const boxW = longest * 7.3 + 14, boxH = 24, colW = boxW + 110, rowH = 70;
	const inits = g.nodes.filter((n) => n.thread < 0).length;
	const width = Math.max(nThreads, inits, 1) * colW;
	const pos = {};
	let bottom = 0;
	for (const n of g.nodes) {
		let x, y;
		if (n.thread < 0) {
			x = width / 2 + (n.row - (inits - 1) / 2) * colW;
			y = 24;
		} else {
			x = colW / 2 + n.thread * colW;
			y = 24 + rowH * 1.4 + n.row * rowH;
		}
		pos[n.name] = { x, y };
		bottom = Math.max(bottom, y);
	}
	svg.setAttribute('width', width);
	svg.setAttribute('height', bottom + 50);
	svg.setAttribute('viewBox', `0 0 ${width} ${bottom + 50}`);
	const defs = svgEl('defs');
	for (const look of LOOKS) {
		const m = svgEl('marker', { id: 'arrow-' + look, viewBox: '0 0 10 10', refX: 10, refY: 5,
			markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
		m.appendChild(svgEl('path', { d: 'M0,0 L10,5 L0,10 z', class: 'look-' + look }));
		defs.appendChild(m);
	}
	svg.appendChild(defs);
	for (let t = 0; t < nThreads; t++)
		svg.appendChild(svgEl('text', { class: 'column-title', x: colW / 2 + t * colW, y: 24 + rowH * 0.75,
			'text-anchor': 'middle' }, 'P' + t));
	const onCycle = new Set();
	const edges = svgEl('g', { class: 'edges' });
	let k = 0;
	for (const e of g.edges) {
		const a = pos[e.from], b = pos[e.to];
		if (!a || !b)
			continue;
		if (e.look === 'witness') {
			onCycle.add(e.from);
			onCycle.add(e.to);
		}
		// po down a column is straight; other edges bend, alternately
		// left and right, so that two between the same events part
		const straight = a.x === b.x && /^po\b/.test(e.label) && b.y > a.y;
		const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
		const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
		const bend = straight ? 0 : (a.x === b.x ? 40 : 25) * (k++ % 2 ? -1 : 1);
		const c = { x: mx - dy / len * bend, y: my + dx / len * bend };
		const p = border(a, boxW, boxH, c.x, c.y), q = border(b, boxW, boxH, c.x, c.y);
		const ge = svgEl('g', { class: 'edge look-' + e.look, 'data-from': e.from, 'data-to': e.to,
			'data-label': e.label });
		ge.appendChild(svgEl('path', { d: `M${p.x},${p.y} Q${c.x},${c.y} ${q.x},${q.y}`,
			'marker-end': `url(#arrow-${e.look})` }));
		const lx = 0.25 * p.x + 0.5 * c.x + 0.25 * q.x, ly = 0.25 * p.y + 0.5 * c.y + 0.25 * q.y;
		ge.appendChild(svgEl('text', { x: lx + 4, y: ly - 3 }, e.label));
		edges.appendChild(ge);
	}
	const enabled = new Set(state ? state.events.filter((e) => e.enabled).map((e) => e.name) : []);
	const nodes = svgEl('g', { class: 'nodes' });
	for (const n of g.nodes) {
		const { x, y } = pos[n.name];
		const cls = ['node', n.pending ? 'pending' : 'committed'];
		if (enabled.has(n.name))
			cls.push('enabled');
		if (n.name === selected)
			cls.push('selected');
		if (onCycle.has(n.name))
			cls.push('on-cycle');
		const gn = svgEl('g', { class: cls.join(' '), 'data-name': n.name });
		gn.appendChild(svgEl('rect', { x: x - boxW / 2, y: y - boxH / 2, width: boxW, height: boxH, rx: 3 }));
		gn.appendChild(svgEl('text', { x, y: y + 4, 'text-anchor': 'middle' }, n.label));
		gn.addEventListener('click', () => act(() => selectEvent(n.name)));
		nodes.appendChild(gn);
	}
	svg.appendChild(nodes);
	svg.appendChild(edges);
	const legend = $('legend');
	legend.replaceChildren();
	for (const look of LOOKS.filter((l) => g.edges.some((e) => e.look === l)))
		legend.appendChild(el('span', { class: 'look-' + look }, look));
}

// ---- the state -----------------------------------------------------------------------

function renderState(st) {
	state = st;
	const t = st.test;
	$('test-name').textContent = t.name;
	$('test-about').textContent = `${t.arch}, under ${t.model} (${t.file})`;
	document.title = `weft -serve: ${t.name}`;
	const prog = $('program');
	prog.replaceChildren();
	for (const th of t.threads) {
		const d = el('div', { class: 'thread' });
		d.appendChild(el('b', {}, 'P' + th.id));
		const ol = el('ol', { start: 0 });
		for (const i of th.instrs)
			ol.appendChild(el('li', {}, i));
		d.appendChild(ol);
		if (th.stops)
			d.appendChild(el('p', { class: 'hint' }, 'stops: ' + th.stops));
		prog.appendChild(d);
	}
	const status = $('status');
	status.replaceChildren();
	if (st.complete) {
		status.appendChild(el('p', { class: 'complete' }, 'Complete: ' + st.final +
			(st.filtered ? ' (the test\'s filter drops this execution)' : '')));
	} else {
		const en = st.events.filter((e) => e.enabled);
		status.appendChild(el('p', {}, 'Enabled: ' + (en.length ? en.map((e) => `${e.name}: ${e.desc}`).join('; ')
			: 'none') + ' (click one on the graph)'));
	}
	const commits = $('commits');
	commits.replaceChildren();
	for (const c of st.commits)
		commits.appendChild(el('li', { class: 'mono' }, 'commit ' + c));
	if (selected && !st.events.some((e) => e.name === selected && e.enabled))
		selected = null;
	if (!selected)
		$('choices').replaceChildren();
	if (st.graph)
		drawGraph(st.graph, t.threads.length);
	else
		say(st.graph_error, true);
}

function hideRefusal() {
	$('refusal').hidden = true;
}

// A refused choice: the check and its cycle in words, and the refused
// execution drawn with the cycle in magenta.
function showRefusal(g, words) {
	$('refusal').hidden = false;
	$('refusal-check').textContent = g.check || '';
	$('refusal-cycle').textContent = g.cycle || words || '';
	drawGraph(g, state.test.threads.length);
}

// After a command that moved the state.
function moved(r) {
	hideRefusal();
	$('checks').hidden = true;
	say(r.message, !r.ok);
	renderState(r.state);
	if (selected)
		return selectEvent(selected);
}

async function selectEvent(name) {
	if (!state.events.some((e) => e.name === name && e.enabled)) {
		selected = null;
		$('choices').replaceChildren(el('p', {}, `${name} is not enabled now`));
		return;
	}
	selected = name;
	const r = await api('/api/choices', { event: name });
	const ev = state.events.find((e) => e.name === name);
	const box = $('choices');
	box.replaceChildren(el('h2', {}, `${name}: ${ev.desc}`));
	const ul = el('ul');
	const load = ev.desc[0] === 'R', choice = ev.desc.startsWith('choose');
	for (const c of r.choices) {
		const what = choice ? 'takes ' : c.param === 'fail' ? '' : load ? 'reads ' : ev.lock_write ? 'locks after ' : 'co-after ';
		const li = el('li', { class: c.allowed ? 'allowed' : 'forbidden', 'data-param': c.param });
		li.appendChild(document.createTextNode(what + c.param + ': ' +
			(c.allowed ? 'allowed' : `forbidden by ${c.check}: ${c.cycle || ''}`)));
		const commit = el('button', { class: 'commit', 'data-param': c.param }, 'commit');
		commit.addEventListener('click', () => act(() => commitChoice(name, c.param)));
		li.appendChild(commit);
		if (!c.allowed) {
			const why = el('button', { class: 'why', 'data-param': c.param }, 'why');
			why.addEventListener('click', () => act(() => whyChoice(name, c.param)));
			li.appendChild(why);
		}
		ul.appendChild(li);
	}
	box.appendChild(ul);
	for (const n of document.querySelectorAll('#graph .node'))
		n.classList.toggle('selected', n.dataset.name === name);
}

async function commitChoice(event, param) {
	const r = await api('/api/commit', { event, param });
	if (r.ok)
		return moved(r);
	say(r.message, true);
	renderState(r.state);
	showRefusal(r.graph, r.message);
	return selectEvent(event);
}

async function whyChoice(event, param) {
	const r = await api('/api/why', { event, param });
	say(r.text, !r.graph.allowed);
	if (r.graph.allowed) {
		hideRefusal();
		drawGraph(r.graph, state.test.threads.length);
	} else {
		showRefusal(r.graph, r.text);
	}
}

async function command(name, body) {
	return moved(await api('/api/' + name, body || {}));
}

async function showChecks() {
	const r = await api('/api/checks');
	$('checks').hidden = false;
	$('checks').textContent = r.text;
}

async function loadTests() {
	const r = await api('/api/tests');
	const sel = $('tests');
	sel.replaceChildren();
	for (const name of r.tests)
		sel.appendChild(el('option', name === r.open ? { value: name, selected: '' } : { value: name }, name));
	$('tests-label').hidden = r.tests.length < 2;
}

// ---- a scenario (the tests) ----------------------------------------------------------

function click(selector) {
	const e = document.querySelector(selector);
	if (!e)
		throw new Error('scenario: nothing to click at ' + selector);
	e.dispatchEvent(new MouseEvent('click', { bubbles: true }));
	return pending;
}

function snapshot(step) {
	const li = el('li', { class: 'snapshot', 'data-after': step });
	for (const id of ['test-name', 'message', 'refusal', 'choices', 'status', 'graph-title', 'graph']) {
		const copy = $(id).cloneNode(true);
		copy.removeAttribute('id');
		for (const inner of copy.querySelectorAll('[id]'))
			inner.removeAttribute('id');
		copy.setAttribute('data-of', id);
		li.appendChild(copy);
	}
	$('scenario').appendChild(li);
}

async function playScenario(text) {
	let last = 'start';
	for (const step of text.split(';').map((s) => s.trim()).filter((s) => s)) {
		const [cmd, ...args] = step.split(/\s+/);
		if (cmd === 'commit' || cmd === 'why') {
			await click(`#graph .node[data-name="${CSS.escape(args[0])}"]`);
			await click(`#choices button.${cmd}[data-param="${CSS.escape(args[1])}"]`);
		} else if (cmd === 'goto') {
			$('goto-state').value = args.join(' ');
			await click('#cmd-goto');
		} else if (cmd === 'open') {
			$('tests').value = args[0];
			$('tests').dispatchEvent(new Event('change'));
			await pending;
		} else if (cmd === 'snap') {
			snapshot(last);
			continue;
		} else {
			await click('#cmd-' + cmd);
		}
		last = step;
	}
	document.body.setAttribute('data-scenario', 'done');
}

// ---- start ----------------------------------------------------------------------------

function start() {
	$('cmd-undo').addEventListener('click', () => act(() => command('undo')));
	$('cmd-reset').addEventListener('click', () => act(() => command('reset')));
	$('cmd-auto').addEventListener('click', () => act(() => command('auto')));
	$('cmd-goto').addEventListener('click', () => act(() => {
		const s = $('goto-state').value.trim();
		return command('goto', s ? { state: s } : {});
	}));
	$('cmd-checks').addEventListener('click', () => act(showChecks));
	$('tests').addEventListener('change', () => act(async () => {
		selected = null;
		await command('open', { test: $('tests').value });
	}));
	act(async () => {
		await loadTests();
		renderState(await api('/api/state'));
	});
	const scenario = new URLSearchParams(location.search).get('scenario');
	if (scenario)
		pending.then(() => playScenario(scenario)).catch((e) => {
			say(String(e.message || e), true);
			document.body.setAttribute('data-scenario', 'failed');
		});
}

start();
