// SPDX-License-Identifier: GPL-3.0-or-later
// History sync between wachat's engine (tests/wa-eng-driver --messaging,
// a real store) and the sim's phone holding 50,000 messages in 500 chats
// (protocol.md 12, 14.2; issue 9), read back with wachat's own shell
// commands: every chat with its name and newest message, in order; a word
// that appears once, found; a chat's export equal to what the phone holds,
// message for message; the shell reading while the engine writes; kill -9
// in the middle of the import, then the import completes with nothing lost
// or doubled; a corrupt blob, a bomb and a deeply nested message refused
// with a clear line, the rest going on; older messages asked of the phone
// (on-demand) arriving.  TAP.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bail, builddir, engineDriver, finish, ok, sleep, startSim, until } from './lib.mjs';

const ME = '15550000001';
const CHATS = 500;
const MSGS = 50000;
const wachatBin = path.join(builddir, 'wachat');

let sim;
const certDir = fs.mkdtempSync('/tmp/wachat-hist-cert-');
const cert = path.join(certDir, 'cert.pem');
try {
	execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
		'-nodes', '-keyout', path.join(certDir, 'key.pem'), '-out', cert, '-days', '2', '-subj', '/CN=localhost',
		'-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
	sim = await startSim(['--tls-cert', cert, '--tls-key', path.join(certDir, 'key.pem'),
		'--history-full-if-asked']);
} catch (e) {
	bail(`wachat-sim did not start with TLS: ${e.message}`);
}
const url = sim.url.replace(/^ws:/, 'wss:');
const store = path.join(sim.tmp, 'wachat');

function wachat() {
	return engineDriver(url, store, path.join(sim.tmp, 'qr'), ['--ca-file', cert, '--full-history'], 300000);
}

// wachat's shell commands on the store: { code, out, lines (JSON) }.
function cli(...args) {
	const r = spawnSync(wachatBin, [args[0], '--data-dir', store, ...args.slice(1)], { encoding: 'utf8', maxBuffer: 1 << 28 });
	const lines = [];
	for (const l of (r.stdout ?? '').split('\n'))
		if (l.startsWith('{'))
			try { lines.push(JSON.parse(l)); } catch { /* text */ }
	const msgs = lines.filter((x) => x.type === 'message' || x.type === 'hit');
	return { code: r.status, out: r.stdout ?? '', err: r.stderr ?? '', lines, msgs };
}
const hstatus = async () => (await sim.ctl('GET', '/admin/history/status')).body;

let w;
try {
	const acct = await sim.ctl('POST', '/admin/accounts', { pn: ME, name: 'me' });
	if (acct.status !== 200)
		bail(`cannot create the account: ${JSON.stringify(acct.body)}`);
	const hs = await sim.ctl('POST', '/admin/history', { pn: ME, chats: CHATS, messages: MSGS, seed: 7, chunk: 2500, full: 'if-asked' });
	ok(hs.status === 200 && hs.body.chats === CHATS && hs.body.messages === MSGS,
		`the phone holds ${MSGS} messages in ${CHATS} chats`, hs.body);
	// The whole history, to compare with: every chat and its messages.
	await sim.ctl('POST', '/admin/history/media', { delay_ms: 150 });
	w = wachat();
	await until(60000, () => fs.existsSync(w.qr));
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${ME}`, fs.readFileSync(w.qr, 'utf8').trim());
	await w.wait(60000, 'connected', /^connected /);
	ok(scan.status === 200, 'wachat links by QR and logs in over wss');

	// 1. kill -9 in the middle of the import, then a restart.
	await w.wait(60000, 'a few chunks', /^history progress /);
	await until(60000, () => w.lines.filter((l) => /^history progress /.test(l)).length >= 3);
	w.p.kill('SIGKILL');
	await w.exited;
	const before = (await hstatus()).hist_sync_receipts;
	ok(before >= 1 && before < (await hstatus()).chunks_sent, 'wachat is killed in the middle of the import',
		await hstatus());
	await sim.ctl('POST', '/admin/history/media', { delay_ms: 0 });
	w = wachat();
	await w.wait(60000, 'connected again', /^connected /);
	await w.wait(240000, 'the import done', /^history idle /);
	const st = await hstatus();
	const blobs = (await sim.ctl('GET', '/admin/history/blobs')).body.filter((b) => b.kind === 'chunk');
	ok(blobs.length === st.chunks_sent && blobs.every((b) => b.receipt),
		'after the restart every chunk is imported and receipted (a receipt the kill lost goes again)',
		{ st, unreceipted: blobs.filter((b) => !b.receipt).map((b) => b.chunk_order), tail: w.lines.slice(-5) });
	const cnt = spawnSync('sqlite3', [path.join(store, 'wachat.db'), 'SELECT count(*), count(DISTINCT chat || id) FROM message'],
		{ encoding: 'utf8' }).stdout.trim();
	ok(cnt === `${MSGS}|${MSGS}`, `wachat holds all ${MSGS} messages, each once`, cnt);

	// 2. Every chat with its name and newest message, in order.
	const phone = (await sim.ctl('GET', `/admin/history?pn=${ME}`)).body;
	const chats = cli('chats', '--json');
	ok(chats.code === 0 && chats.lines.filter((c) => c.type === 'chat').length === CHATS, `wachat chats lists all ${CHATS} chats`,
		{ code: chats.code, n: chats.lines.length, err: chats.err });
	const key = (c) => c.jid ?? c.chat;
	let order = true;
	let names = true;
	let newest = true;
	for (let i = 0; i < Math.min(chats.lines.length, phone.chat_list.length); i++) {
		const a = chats.lines[i];
		const b = phone.chat_list[i];
		if (key(a) !== b.jid)
			order = false;
		if (b.group && a.name !== b.name)
			names = false;
		const lastText = a.last_text ?? a.preview ?? a.text ?? '';
		if (!lastText.startsWith(b.newest.text.slice(0, 20)))
			newest = false;
	}
	ok(order, 'in the order of their newest message, as on the phone', { a: chats.lines.slice(0, 3), b: phone.chat_list.slice(0, 3) });
	ok(names, 'each group with its name', chats.lines.slice(0, 3));
	ok(newest, 'each chat with its newest message', { a: chats.lines.slice(0, 2), b: phone.chat_list.slice(0, 2).map((c) => c.newest) });

	// 3. A word that appears once in the whole history, in an old message.
	let rare = null;
	for (const c of phone.chat_list.slice().reverse()) {
		const hc = (await sim.ctl('GET', `/admin/history/chat?pn=${ME}&jid=${encodeURIComponent(c.jid)}`)).body;
		const m = hc.messages.find((x) => /\bqx[a-z0-9]+/.test(x.text));
		if (m) {
			rare = { chat: c.jid, msg: m, word: m.text.match(/\bqx[a-z0-9]+/)[0] };
			break;
		}
	}
	const found = rare && cli('search', rare.word, '--json');
	ok(found?.code === 0 && found.msgs.length === 1 && found.msgs[0].id === rare.msg.id,
		'wachat search finds the one message holding a rare word, in its chat', { rare, found: found?.lines, err: found?.err });

	// 4. A chat's export, message for message.
	const big = phone.chat_list.reduce((x, y) => (y.messages > x.messages ? y : x));
	const held = (await sim.ctl('GET', `/admin/history/chat?pn=${ME}&jid=${encodeURIComponent(big.jid)}&limit=100000`)).body;
	const exp = cli('export', big.jid, '--format', 'jsonl');
	const same = exp.code === 0 && exp.msgs.length === held.messages.length &&
		held.messages.every((m, i) => exp.msgs[i].id === m.id && exp.msgs[i].text === m.text &&
			Boolean(exp.msgs[i].from_me) === Boolean(m.from_me));
	ok(same, `the export of the biggest chat (${held.messages.length} messages) matches the phone's, message for message`,
		{ code: exp.code, n: exp.msgs.length, want: held.messages.length, first: [exp.msgs[0], held.messages[0]], err: exp.err });
	const total = cli('export', phone.chat_list[CHATS - 1].jid, '--format', 'jsonl');
	ok(total.code === 0 && total.msgs.length > 0, 'the oldest chat exports too');

	// 5. Older messages asked of the phone (on-demand, 12.4) while the
	// shell reads: the 20 oldest of a chat are taken out of wachat's
	// database (as if never synced), scrolling up asks for them again.
	const od = phone.chat_list.find((c) => !c.group && c.messages > 60) ?? phone.chat_list[0];
	const db = path.join(store, 'wachat.db');
	// The sqlite3 shell has no 'wachat' tokenizer (store/fts-tok.c) and
	// cannot run the delete trigger, which opens the index: the trigger
	// is dropped for the delete and made again from its own text (the
	// rows' stale index entries name rowids no message has; a search
	// joins message and skips those).
	const trig = String(spawnSync('sqlite3', [db,
		"SELECT sql FROM sqlite_master WHERE name = 'message_fts_delete'"]).stdout).trim();
	const del = spawnSync('sqlite3', [db, `BEGIN;
		DROP TRIGGER message_fts_delete;
		DELETE FROM message WHERE rowid IN (SELECT rowid FROM message
		WHERE chat = '${od.jid}' ORDER BY ts_ms, rowid LIMIT 20);
		${trig};
		COMMIT;`]);
	const heldBefore = cli('history', od.jid, '--limit', '100000', '--json').msgs.length;
	ok(del.status === 0 && heldBefore === od.messages - 20, `wachat holds ${od.messages} - 20 messages of a chat`,
		{ heldBefore, want: od.messages - 20, err: String(del.stderr) });
	const from = w.lines.length;
	w.cmd(`history-more ${od.jid}`);
	const reads = [];
	for (let i = 0; i < 5; i++) {
		reads.push(cli('search', 'the', '--limit', '5', '--json').code);
		await sleep(50);
	}
	const odl = await w.wait(60000, 'the on-demand chunk', /^history progress type=6 /, from).catch(() => null);
	const after = cli('history', od.jid, '--limit', '100000', '--json').msgs;
	ok(reads.every((c) => c === 0 || c === 2), 'wachat search answers while the engine imports', reads);
	ok(odl !== null && after.length === od.messages && / count=20 /.test(odl),
		'scrolling above the oldest message asks the phone, and the 20 older ones come back (on-demand history)',
		{ odl, n: after.length, want: od.messages, tail: w.lines.slice(-5) });

	// 6. Faults: each refused with a clear line; wachat goes on.
	for (const [kind, re] of [['corrupt', /history failed .*(MAC|decrypt)/i], ['bomb', /history failed .*(large|limit|cap|above)/i],
		['nest', /history failed .*(nested|malformed)/i], ['gone', /history failed .*gone/i]]) {
		const f0 = w.lines.length;
		await sim.ctl('POST', '/admin/history/fault', { pn: ME, kind });
		const l = await w.wait(60000, `the ${kind} blob`, /^history failed /, f0).catch(() => null);
		ok(l !== null && re.test(l), `a ${kind} history blob is refused with a clear line`, { l, tail: w.lines.slice(-4) });
	}
	const again = cli('chats', '--json');
	ok(again.code === 0 && again.lines.length === CHATS, 'after the faults every chat is still there');
	w.cmd('send 15557000001@s.whatsapp.net still working');
	ok(await w.wait(60000, 'sent', /^dm-state 15557000001@s\.whatsapp\.net \S+ sent$/).then(() => true, () => false),
		'and wachat still sends');
	ok(await w.quit() === 0 && !/Sanitizer|runtime error/.test(w.err), 'wachat stops cleanly, no sanitizer report', w.err.slice(-2000));
} catch (e) {
	ok(false, `no exception: ${e.stack}`, w && w.lines.slice(-20).join('\n'));
	if (w)
		await w.quit();
}
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
fs.rmSync(certDir, { recursive: true, force: true });
process.exit(finish());
