// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the tests/sim-interop/*.mjs checks: start wachat-sim on free
// loopback ports and stop it (never leaving it behind), call its admin
// interface, import the packages installed in tests/interop/node_modules,
// and print TAP.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const srcdir = path.resolve(process.env.top_srcdir ?? path.join(here, '../..'));
export const builddir = path.resolve(process.env.top_builddir ?? srcdir);
export const nodeModules = path.join(srcdir, 'tests/interop/node_modules');
export const simBin = path.join(builddir, 'tests/sim/wachat-sim');
export const rootPub = fs.readFileSync(path.join(srcdir, 'tests/sim/root-key.txt'), 'utf8')
	.match(/^public=([0-9a-f]{64})$/m)[1];

// Import a file of an installed package by its path under node_modules.
export const importPkg = (rel) => import(pathToFileURL(path.join(nodeModules, rel)).href);

let n = 0;
let failed = 0;

export function ok(cond, desc, diag) {
	n++;
	if (cond) {
		console.log(`ok ${n} - ${desc}`);
	} else {
		failed++;
		console.log(`not ok ${n} - ${desc}`);
		if (diag !== undefined) {
			for (const line of String(typeof diag === 'string' ? diag : JSON.stringify(diag)).split('\n'))
				console.log(`# ${line}`);
		}
	}
	return cond;
}

export function bail(why) {
	console.log(`Bail out! ${why}`);
	process.exit(1);
}

export function finish() {
	console.log(`1..${n}`);
	return failed === 0 ? 0 : 1;
}

// Baileys 7.0.0-rc14 downloads history and app-state blobs from its fixed
// mmg.whatsapp.net (lib/Utils/messages-media.js getUrlFromDirectPath)
// with the global fetch: send those URLs to the sim's media host on port
// instead (path and query unchanged).  Returns a counter: .count is how
// many went there, .errors why those that failed failed (Baileys logs a
// failed download only to its logger, which the tests silence).
export function redirectMedia(port) {
	const realFetch = globalThis.fetch;
	const counter = { count: 0, errors: [] };
	globalThis.fetch = (url, opts) => {
		const u = String(url);
		if (u.startsWith('https://mmg.whatsapp.net/')) {
			counter.count++;
			return realFetch(`https://127.0.0.1:${port}/${u.slice('https://mmg.whatsapp.net/'.length)}`, opts)
				.catch((e) => {
					counter.errors.push(`${u.split('?')[0]}: ${e.message} (${e.cause?.code ?? ''} ${e.cause?.message ?? ''})`);
					process.stderr.write(`media GET ${counter.errors.at(-1)}\n`);
					throw e;
				});
		}
		return realFetch(url, opts);
	};
	return counter;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Resolve with p's value, or reject after ms.
export function within(ms, p, what) {
	let t;
	return Promise.race([
		p,
		new Promise((_, reject) => { t = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms); }),
	]).finally(() => clearTimeout(t));
}

// Poll fn() until it returns a truthy value (or ms pass); returns the value.
export async function until(ms, fn) {
	const end = Date.now() + ms;
	for (;;) {
		const v = await fn();
		if (v || Date.now() > end)
			return v;
		await sleep(50);
	}
}

const children = new Set();
process.on('exit', () => { for (const c of children) c.kill('SIGKILL'); });

// Remove a directory a client may still be writing to (Baileys saves its
// keys asynchronously): retry for up to 2 s, then leave it.
export async function rmTree(dir) {
	for (let i = 0; i < 40; i++) {
		try {
			fs.rmSync(dir, { recursive: true, force: true });
			return;
		} catch {
			await sleep(50);
		}
	}
}

export async function startSim(args = []) {
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wachat-sim-js-'));
	const log = path.join(tmp, 'sim.log');
	const child = spawn(simBin, ['--port', '0', '--admin-port', '0', '--log', log, ...args],
		{ stdio: ['ignore', 'pipe', 'pipe'] });
	children.add(child);
	let out = '';
	let err = '';
	child.stderr.on('data', (d) => { err += d; });
	const exited = new Promise((resolve) => child.on('exit', (code, sig) => {
		children.delete(child);
		resolve(code ?? sig);
	}));
	const ports = await within(60000, new Promise((resolve, reject) => {
		child.stdout.on('data', (d) => {
			out += d;
			const p = out.match(/^port=(\d+)$/m);
			const a = out.match(/^admin-port=(\d+)$/m);
			if (p && a)
				resolve({ port: Number(p[1]), adminPort: Number(a[1]) });
		});
		exited.then((code) => reject(new Error(`wachat-sim exited (${code}): ${err}`)));
	}), 'wachat-sim ports');
	const admin = `http://127.0.0.1:${ports.adminPort}`;
	const sim = {
		...ports,
		tmp,
		url: `ws://127.0.0.1:${ports.port}/ws/chat`,
		admin,
		stderr: () => err,
		log: () => { try { return fs.readFileSync(log, 'utf8'); } catch { return ''; } },
		// Call the admin interface: returns { status, body }.
		async ctl(method, route, body) {
			const res = await fetch(`${admin}${route}`, {
				method,
				body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
				headers: { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' },
			});
			const text = await res.text();
			let json;
			try { json = JSON.parse(text); } catch { json = text; }
			return { status: res.status, body: json };
		},
		// Shut the sim down; resolves with its exit status.
		async stop() {
			try { await sim.ctl('POST', '/admin/shutdown'); } catch { /* gone already */ }
			try {
				return await within(60000, exited, 'wachat-sim exit');
			} catch {
				child.kill('SIGKILL');
				return 'killed';
			} finally {
				await rmTree(tmp);
			}
		},
	};
	return sim;
}

// A logger with pino's shape that discards everything (Baileys wants one).
export const quietLogger = {
	level: 'silent',
	child() { return quietLogger; },
	trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {},
};

// wachat's engine under test: tests/wa-eng-driver --messaging --commands
// against url with its store in dir (QR text in dir/../qr), its output
// lines in w.lines; w.cmd(line) sends a command, w.wait(ms, what, re,
// from) waits for a line matching re (from line index from on), w.count(re)
// counts lines, w.quit() stops it (SIGKILL after 10 s) and resolves with
// its status.  extra: more driver options.
export function engineDriver(url, store, qr, extra = [], deadlineMs = 150000) {
	const p = spawn(path.join(builddir, 'tests/wa-eng-driver'), ['--url', url, '--root', rootPub, '--store', store,
		'--qr-file', qr, '--messaging', '--commands', '--deadline-ms', String(deadlineMs), ...extra],
	{ stdio: ['pipe', 'pipe', 'pipe'] });
	const w = { p, lines: [], err: '', qr };
	let buf = '';
	p.stdout.on('data', (d) => {
		buf += d;
		let i;
		while ((i = buf.indexOf('\n')) >= 0) {
			w.lines.push(buf.slice(0, i));
			buf = buf.slice(i + 1);
		}
	});
	p.stderr.on('data', (d) => { w.err += d; });
	w.exited = new Promise((resolve) => p.on('exit', (code, sig) => resolve(code ?? sig)));
	w.cmd = (line) => p.stdin.write(`${line}\n`);
	w.wait = (ms, what, re, from = 0) => within(ms, (async () => {
		for (;;) {
			const l = w.lines.slice(from).find((x) => re.test(x));
			if (l)
				return l;
			await sleep(20);
		}
	})(), `wachat: ${what}`);
	w.count = (re) => w.lines.filter((x) => re.test(x)).length;
	w.quit = async () => {
		w.cmd('quit');
		try {
			return await within(60000, w.exited, 'wachat exit');
		} catch {
			p.kill('SIGKILL');
			return 'killed';
		}
	};
	return w;
}

// Baileys (the package baileys, its socket maker makeWASocket) linked to
// the sim's account pn through the mock phone's QR scan, its auth in
// dir, over url: resolves with { sock, scan, open } once it is open (or
// closed: open.connection says which); opts go to makeWASocket.
export async function linkBaileys(sim, baileys, makeWASocket, pn, dir, url, opts = {}) {
	const { state, saveCreds } = await baileys.useMultiFileAuthState(dir);
	const ev = [];
	let sock;
	const connect = () => {
		sock = makeWASocket({
			waWebSocketUrl: url, auth: state, logger: quietLogger,
			browser: baileys.Browsers.ubuntu('Chrome'), connectTimeoutMs: 10000,
			defaultQueryTimeoutMs: 10000, syncFullHistory: false,
			shouldSyncHistoryMessage: () => false, fireInitQueries: true, ...opts,
		});
		const me = sock;
		sock.ev.on('creds.update', saveCreds);
		sock.ev.on('connection.update', (d) => { if (sock === me) ev.push(d); });
	};
	const wait = (ms, what, pred) => within(ms, (async () => {
		for (;;) {
			const x = ev.find(pred);
			if (x)
				return x;
			await sleep(20);
		}
	})(), what);
	connect();
	const { qr } = await wait(60000, 'a QR', (d) => d.qr);
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${pn}`, qr);
	await wait(60000, 'the 515 restart', (d) => d.connection === 'close');
	ev.length = 0;
	connect();
	const open = await wait(60000, 'open', (d) => d.connection === 'open' || d.connection === 'close');
	return { sock, scan, open };
}

// The end of a Baileys scenario: sock closed, the sim's log on stderr
// with SIM_DUMP_LOG, the sim stopped (its exit status a TAP line), dir
// removed, and the process' exit with the TAP plan.
export async function endScenario(sim, sock, dir) {
	try {
		sock?.end(undefined);
	} catch { /* already closed */ }
	if (process.env.SIM_DUMP_LOG)
		process.stderr.write(sim.log());
	const code = await sim.stop();
	ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
	await rmTree(dir);
	process.exit(finish());
}
