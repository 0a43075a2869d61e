// SPDX-License-Identifier: GPL-3.0-or-later
// Media between wachat-sim and an unmodified Baileys (protocol-features.md
// 1): Baileys links as alice:1 (mock-phone QR scan); Bob, a simulated
// contact, sends a photo, a voice note, a video, a document and a
// sticker (the fixtures tests/sim-media.sh made, in SIM_MEDIA_FIXTURES):
// each must reach Baileys with the type's fields, type="media" and the
// <enc mediatype> on the stanza, and downloadMediaMessage must give the
// fixture's bytes.  Baileys sends a photo and a document to Bob: its
// upload goes through the sim's media_conn and host, and Bob's phone
// must decrypt the same bytes (GET /admin/media).  The upload's refusals
// (token, auth expiry, size cap) with Baileys' own media_conn auth.  An
// expired blob answers 404/410 and Baileys' media retry
// (updateMediaMessage) gets a new path that downloads.  Needs SIM_TLS_CERT, SIM_TLS_KEY,
// NODE_EXTRA_CA_CERTS (the same self-signed certificate) and
// SIM_MEDIA_FIXTURES.  TAP.
//
// Baileys 7.0.0-rc14 downloads from its fixed mmg.whatsapp.net
// (getUrlFromDirectPath) when a message's URL is not on that host:
// redirectMedia() (lib.mjs) sends those requests to the sim's media host.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bail, finish, importPkg, ok, quietLogger, redirectMedia, rootPub, sleep, startSim, until, within } from './lib.mjs';

const cert = process.env.SIM_TLS_CERT;
const key = process.env.SIM_TLS_KEY;
const fx = process.env.SIM_MEDIA_FIXTURES;
if (!cert || !key || !process.env.NODE_EXTRA_CA_CERTS || !fx)
	bail('set SIM_TLS_CERT, SIM_TLS_KEY, NODE_EXTRA_CA_CERTS and SIM_MEDIA_FIXTURES');

const baileys = await importPkg('@whiskeysockets/baileys/lib/index.js');
const defaults = await importPkg('@whiskeysockets/baileys/lib/Defaults/index.js');
const makeWASocket = baileys.default ?? baileys.makeWASocket;
defaults.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootPub, 'hex');

let sim;
try {
	sim = await startSim(['--tls-cert', cert, '--tls-key', key, ...(process.env.SIM_VERBOSE ? ['-v'] : [])]);
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
const st0 = (await sim.ctl('GET', '/admin/status')).body;
const mediaPort = st0.history?.media_port;
if (!mediaPort)
	bail('the sim reports no media port');
const host = `https://127.0.0.1:${mediaPort}`;
const realFetch = globalThis.fetch;
redirectMedia(mediaPort);

const ALICE = '15550000001';
const BOB = '15550000002';
const BOBJ = `${BOB}@s.whatsapp.net`;
const sha = (b) => crypto.createHash('sha256').update(b).digest('hex');
const file = (n) => path.join(fx, n);
const media = async () => (await sim.ctl('GET', '/admin/media')).body;

const c = { ev: [], msgs: new Map(), stanzas: new Map(), updates: [] };
const dir = path.join(sim.tmp, 'auth-alice');
const { state, saveCreds } = await baileys.useMultiFileAuthState(dir);
function connect() {
	c.sock = makeWASocket({
		waWebSocketUrl: sim.url.replace(/^ws:/, 'wss:'),
		auth: state,
		logger: quietLogger,
		browser: baileys.Browsers.ubuntu('Chrome'),
		connectTimeoutMs: 10000,
		defaultQueryTimeoutMs: 5000,
		markOnlineOnConnect: false,
		syncFullHistory: false,
		fireInitQueries: true,
	});
	const sock = c.sock;
	sock.ev.on('creds.update', saveCreds);
	sock.ev.on('connection.update', (d) => { if (c.sock === sock) c.ev.push(d); });
	sock.ev.on('messages.upsert', ({ messages }) => { for (const m of messages) c.msgs.set(m.key.id, m); });
	sock.ev.on('messages.media-update', (u) => c.updates.push(...u));
	sock.ws.on('frame', (f) => { if (f.tag === 'message') c.stanzas.set(f.attrs.id, f); });
}
const waitEv = (ms, what, pred) => within(ms, (async () => {
	for (;;) {
		const x = c.ev.find(pred);
		if (x)
			return x;
		await sleep(20);
	}
})(), what);

try {
	for (const [pn, name] of [[ALICE, 'alice'], [BOB, 'bob']]) {
		const r = await sim.ctl('POST', '/admin/accounts', { pn, name });
		if (r.status !== 200)
			bail(`cannot create account ${pn}: ${JSON.stringify(r.body)}`);
	}
	connect();
	const { qr } = await waitEv(60000, 'a QR', (d) => d.qr);
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${ALICE}`, qr);
	await waitEv(60000, 'the 515 restart', (d) => d.connection === 'close');
	c.ev = [];
	connect();
	const open = await waitEv(60000, 'open', (d) => d.connection === 'open' || d.connection === 'close');
	ok(scan.status === 200 && open.connection === 'open', 'Baileys pairs as alice:1 and logs in', scan.body);
	const up = await until(60000, async () => {
		const d = (await sim.ctl('GET', `/admin/devices/${ALICE}:1@s.whatsapp.net`)).body;
		return /"uploads":[1-9]/.test(JSON.stringify(d));
	});
	if (!up)
		bail('Baileys uploaded no prekeys');

	// 1. Bob sends each type; Baileys gets it and downloads the bytes.
	const thumb = fs.readFileSync(file('thumb.jpg'));
	const specs = [
		{ type: 'image', f: 'photo.jpg', mt: 'image', req: { width: 64, height: 48, caption: 'A photo 📷', thumbnail: file('thumb.jpg') },
			check: (x) => x.mimetype === 'image/jpeg' && x.width === 64 && x.height === 48 && x.caption === 'A photo 📷' &&
				Buffer.from(x.jpegThumbnail).equals(thumb) },
		{ type: 'audio', f: 'voice.ogg', mt: 'ptt', req: { seconds: 2 },
			check: (x) => x.mimetype === 'audio/ogg; codecs=opus' && x.ptt === true && x.seconds === 2 &&
				x.waveform?.length === 64 && [...x.waveform].every((v) => v <= 100) },
		{ type: 'video', f: 'clip.mp4', mt: 'video', req: { seconds: 3, width: 64, height: 48, caption: 'A clip', thumbnail: file('thumb.jpg') },
			check: (x) => x.mimetype === 'video/mp4' && x.seconds === 3 && x.width === 64 && x.height === 48 &&
				x.caption === 'A clip' && Buffer.from(x.jpegThumbnail).equals(thumb) },
		{ type: 'document', f: 'notes.pdf', mt: 'document', req: { file_name: 'notes.pdf', pages: 2, caption: 'The notes' },
			check: (x) => x.mimetype === 'application/pdf' && x.fileName === 'notes.pdf' && x.pageCount === 2 &&
				x.title === 'notes.pdf' && x.caption === 'The notes' },
		{ type: 'sticker', f: 'sticker.webp', mt: 'sticker', req: { width: 64, height: 64 },
			check: (x) => x.mimetype === 'image/webp' && x.width === 64 && x.height === 64 },
	];
	const got = {};
	for (const s of specs) {
		const bytes = fs.readFileSync(file(s.f));
		const r = await sim.ctl('POST', '/admin/media/send', { from_pn: BOB, to: `${ALICE}@s.whatsapp.net`, type: s.type, file: file(s.f), ...s.req });
		if (r.status !== 200) {
			ok(false, `Bob's phone sends the ${s.type}`, r.body);
			continue;
		}
		const m = await until(30000, () => c.msgs.get(r.body.id));
		const x = m?.message?.[`${s.type}Message`];
		const st = c.stanzas.get(r.body.id);
		const encs = (st?.content ?? []).filter((n) => n.tag === 'enc');
		ok(!!x && s.check(x) && Number(x.fileLength) === bytes.length && Buffer.from(x.fileSha256).toString('hex') === sha(bytes) &&
			x.directPath?.startsWith('/v/t62.7118-24/') && x.mediaKey?.length === 32 && Number(x.mediaKeyTimestamp) > 0,
			`Baileys gets Bob's ${s.type} with its fields (mimetype, sizes, hashes, direct path${s.type === 'audio' ? ', ptt, seconds, waveform' : ''})`,
			x ? { ...x, jpegThumbnail: x.jpegThumbnail?.length, waveform: x.waveform?.length, mediaKey: undefined } : { id: r.body.id });
		ok(st?.attrs.type === 'media' && encs.length > 0 && encs.every((e) => e.attrs.mediatype === s.mt),
			`the ${s.type}'s stanza is type="media" with <enc mediatype="${s.mt}">`, st?.attrs);
		let dl;
		try {
			dl = m ? await baileys.downloadMediaMessage(m, 'buffer', {}) : undefined;
		} catch (e) {
			dl = e.message;
		}
		ok(Buffer.isBuffer(dl) && sha(dl) === sha(bytes), `downloadMediaMessage gives the ${s.type} fixture's bytes (SHA-256)`,
			Buffer.isBuffer(dl) ? { got: sha(dl), want: sha(bytes) } : dl);
		got[s.type] = m;
	}

	// 2. Baileys sends a photo and a document to Bob.
	const photo = fs.readFileSync(file('photo.jpg'));
	const pdf = fs.readFileSync(file('notes.pdf'));
	const m0 = await media();
	const sent = [];
	for (const [what, content, bytes] of [
		['photo', { image: photo, caption: 'From Baileys', jpegThumbnail: thumb.toString('base64') }, photo],
		['document', { document: pdf, mimetype: 'application/pdf', fileName: 'baileys.pdf' }, pdf],
	]) {
		let s;
		try {
			s = await within(30000, c.sock.sendMessage(BOBJ, content), `send the ${what}`);
		} catch (e) {
			ok(false, `Baileys sends a ${what} to Bob`, e.message);
			continue;
		}
		const r = await until(30000, async () => (await media()).messages.find((x) => x.dir === 'received' && x.id === s.key.id &&
			x.to === BOBJ));
		ok(r?.ok === true && r.decrypted_sha256 === sha(bytes) && r.decrypted_bytes === bytes.length &&
			r.type === (what === 'photo' ? 'image' : 'document') &&
			(what === 'photo' ? r.caption === 'From Baileys' : r.file_name === 'baileys.pdf' && r.mimetype === 'application/pdf'),
			`Bob's phone decrypts Baileys' ${what} (uploaded to the sim's host) to the bytes Baileys sent`, r);
		sent.push(s);
	}
	const m1 = await media();
	ok(m1.uploads === m0.uploads + 2 && m1.blobs.filter((b) => b.kind === 'upload').length === 2,
		'the media host took two uploads (POST /mms/TYPE/TOKEN with the media_conn auth)', { before: m0.uploads, after: m1.uploads });

	// 3. The upload's checks with Baileys' own media_conn auth.
	const mc = await c.sock.refreshMediaConn(false);
	const blob = crypto.randomBytes(4096 + 26);
	const tok = crypto.createHash('sha256').update(blob).digest('base64url');
	const post = (t, auth, body = blob) => realFetch(`${host}/mms/document/${t}?auth=${encodeURIComponent(auth)}&token=${t}`,
		{ method: 'POST', body, headers: { 'Content-Type': 'application/octet-stream', Origin: 'https://web.whatsapp.com' } });
	const bad = await post(crypto.createHash('sha256').update('other').digest('base64url'), mc.auth);
	ok(bad.status === 400, 'an upload whose token is not base64url(SHA-256(body)) is refused (400)', bad.status);
	const padded = await post(`${tok}=`, mc.auth);
	const pj = padded.status === 200 ? await padded.json() : {};
	ok(padded.status === 200 && pj.direct_path?.startsWith('/v/') && pj.url === `${host.replace('https://', 'https://')}${pj.direct_path}`,
		'an upload with the padded token ([WM]) is taken: url and direct_path', pj);
	const back = pj.direct_path ? await realFetch(`${host}${pj.direct_path}`) : null;
	ok(back?.status === 200 && Buffer.from(await back.arrayBuffer()).equals(blob), '... and downloads to the same bytes', back?.status);
	await sim.ctl('POST', '/admin/media/settings', { max_bytes: 1000 });
	const big = await post(tok, mc.auth);
	ok(big.status === 413, 'an upload over the cap is refused (413)', big.status);
	await sim.ctl('POST', '/admin/media/settings', { auth_ttl: 0, max_bytes: 1 << 26 });
	const mc2 = await c.sock.refreshMediaConn(true);
	await sleep(1100);
	const old = await post(tok, mc2.auth);
	ok(old.status === 401 && mc2.auth !== mc.auth, 'an upload with an expired media_conn auth is refused (401)', old.status);
	await sim.ctl('POST', '/admin/media/settings', { auth_ttl: 21600 });
	await c.sock.refreshMediaConn(true);

	// 4. Expired blobs and the media retry.
	const img = got.image;
	if (img) {
		const p0 = img.message.imageMessage.directPath;
		await sim.ctl('POST', '/admin/media/expire', { id: img.key.id });
		const r404 = await realFetch(`${host}${p0}`);
		ok(r404.status === 404, 'the expired photo answers 404', r404.status);
		let upd;
		try {
			upd = await within(30000, c.sock.updateMediaMessage(img), 'updateMediaMessage');
		} catch (e) {
			upd = e.message;
		}
		const p1 = upd?.message?.imageMessage?.directPath;
		ok(typeof p1 === 'string' && p1 !== p0 && p1.startsWith('/v/t62.7118-24/'),
			'updateMediaMessage: the phone answers the server-error receipt with a new direct path (mediaretry)', { p0, p1, upd: typeof upd === 'string' ? upd : undefined });
		let dl;
		try {
			dl = await baileys.downloadMediaMessage(upd, 'buffer', {});
		} catch (e) {
			dl = e.message;
		}
		ok(Buffer.isBuffer(dl) && sha(dl) === sha(photo), '... and the new path downloads to the photo', Buffer.isBuffer(dl) ? sha(dl) : dl);
		const mm = (await media()).messages.find((x) => x.dir === 'sent' && x.id === img.key.id);
		ok(mm?.retries === 1 && mm.direct_path === p1, 'the sim counts one media retry for the photo, on the new path', mm);
	}
	const vid = got.video;
	if (vid) {
		await sim.ctl('POST', '/admin/media/expire', { id: vid.key.id, code: 410 });
		const r410 = await realFetch(`${host}${vid.message.videoMessage.directPath}`);
		// (downloadMediaMessage's own reuploadRequest does not fire in
		// rc14: it looks for error.status, its Boom has
		// output.statusCode; so the retry is asked for directly.)
		let dl;
		try {
			const upd = await within(30000, c.sock.updateMediaMessage(vid), 'updateMediaMessage of the video');
			dl = await baileys.downloadMediaMessage(upd, 'buffer', {});
		} catch (e) {
			dl = e.message;
		}
		ok(r410.status === 410 && Buffer.isBuffer(dl) && sha(dl) === sha(fs.readFileSync(file('clip.mp4'))),
			'a video expired with 410: after the media retry it downloads to the clip', { status: r410.status, dl: Buffer.isBuffer(dl) ? sha(dl) : dl });
	}
	const fake = { key: { id: '3EB0000000000000000000', remoteJid: BOBJ, fromMe: false },
		message: { imageMessage: { ...got.image?.message?.imageMessage, mediaKey: crypto.randomBytes(32) } } };
	let err;
	try {
		await within(30000, c.sock.updateMediaMessage(fake), 'updateMediaMessage of an unknown message');
	} catch (e) {
		err = e;
	}
	ok(err?.output?.statusCode === 404 || /\(2\)/.test(err?.message ?? ''),
		'a media retry for a message the phone does not know gets <error code="2"/> (404)', err?.message);
} finally {
	c.sock?.end(undefined);
	const code = await sim.stop();
	ok(code === 0, 'wachat-sim exits cleanly', code);
	finish();
}
