// SPDX-License-Identifier: GPL-3.0-or-later
// wachat's media to an unmodified Baileys and back (issue 19) through
// wachat-sim with TLS and its media host: wachat (linked as "me" by the
// mock phone, running in a detached tmux pane) sends "bob" (Baileys,
// paired by the mock phone) a photo with a caption, a document, a video
// with a caption, a voice note and a sticker with `wachat send CHAT
// --file [--ptt]` (handed to the running wachat); Baileys receives an
// imageMessage (image/jpeg, 64x48, the caption, a thumbnail), a
// documentMessage (application/pdf, its file name), a videoMessage
// (video/mp4, 3 s, 320x240, no gifPlayback, a jpegThumbnail that djpeg
// decodes to 100x75, its left red and its right blue), an audioMessage
// (ptt, audio/ogg; codecs=opus, 1 s, a 64-byte waveform, each value
// within 1 of what opusdec's samples give) and a
// stickerMessage (image/webp, 64x48, not animated), and
// downloadMediaMessage gives each file's bytes (SHA-256).  Then Baileys
// sends wachat a photo with a caption, a voice note (ptt, its seconds
// and waveform), a document with a file name, a sticker, and an MP4 as
// a video with a caption, as a GIF (gifPlayback) and as a round video
// (ptv): wachat's pane shows each with its type word and metadata, its download key
// (Alt-w) fetches each into download-dir and each file is what Baileys
// sent (SHA-256).  Forwarding (issue 20, protocol-features.md 3.7):
// wachat's forward key (Alt-.) sends Baileys' photo back to bob, who
// receives an imageMessage with isForwarded and forwardingScore 1 and the
// original's directPath and mediaKey (no upload), and downloads the
// photo's bytes; a text Baileys forwards (sendMessage's forward: score
// 3 + 1) shows "(forwarded)" in wachat, and wachat's forward of it
// reaches Baileys as an extendedTextMessage with isForwarded and score
// 5; Baileys reads it (readMessages) and wachat's message info (Alt-?)
// shows bob's delivery and read times.  Needs SIM_TLS_CERT, SIM_TLS_KEY, NODE_EXTRA_CA_CERTS
// (the same self-signed certificate) and SIM_MEDIA_FIXTURES (photo.jpg,
// notes.pdf, clip.mp4, voice.ogg, its waveform voice.wave, sticker.webp),
// and djpeg.  TAP.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bail, builddir, finish, importPkg, ok, quietLogger, redirectMedia, rmTree, rootPub, sleep, startSim, until, within } from './lib.mjs';

const cert = process.env.SIM_TLS_CERT;
const key = process.env.SIM_TLS_KEY;
const fx = process.env.SIM_MEDIA_FIXTURES;
if (!cert || !key || !process.env.NODE_EXTRA_CA_CERTS || !fx)
	bail('set SIM_TLS_CERT, SIM_TLS_KEY, NODE_EXTRA_CA_CERTS and SIM_MEDIA_FIXTURES');
try {
	execFileSync('tmux', ['-V'], { stdio: 'ignore' });
} catch {
	bail('tmux is not installed');
}

const baileys = await importPkg('@whiskeysockets/baileys/lib/index.js');
const defaults = await importPkg('@whiskeysockets/baileys/lib/Defaults/index.js');
const makeWASocket = baileys.default ?? baileys.makeWASocket;
defaults.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootPub, 'hex');

let sim;
try {
	sim = await startSim(['--tls-cert', cert, '--tls-key', key]);
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
const st0 = (await sim.ctl('GET', '/admin/status')).body;
const mediaPort = st0.history?.media_port;
if (!mediaPort)
	bail('the sim reports no media port');
redirectMedia(mediaPort);
const wss = sim.url.replace(/^ws:/, 'wss:');
const ME = '15550000001';	// wachat
const BOB = '15550000002';	// Baileys
const meJid = `${ME}@s.whatsapp.net`;
const home = path.join(sim.tmp, 'home');
const data = path.join(sim.tmp, 'data');
const qrFile = path.join(sim.tmp, 'qr');
const sock = path.join(sim.tmp, 'tmux.sock');
const logFile = path.join(home, '.local/state/wachat/wachat.log');
const statusFile = path.join(sim.tmp, 'status');
fs.mkdirSync(home, { mode: 0o700 });
const sha = (b) => crypto.createHash('sha256').update(b).digest('hex');
const esc = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A size as wachat's pane says it (base/media-text.c media_size).
const size = (n) => {
	const unit = ['B', 'KB', 'MB', 'GB'];
	let v = n, u = 0;
	while (v >= 1000 && u < 3) {
		v /= 1000;
		u++;
	}
	return u === 0 ? `${n} B` : v < 9.95 ? `${v.toFixed(1)} ${unit[u]}` : `${v.toFixed(0)} ${unit[u]}`;
};
// A thumbnail decoded by djpeg (libjpeg-turbo-progs): its sides and the
// RGB of its middle row's pixels at the given columns, or null.
function thumbPixels(jpeg, cols) {
	if (!jpeg?.length)
		return null;
	const r = spawnSync('djpeg', ['-pnm'], { input: Buffer.from(jpeg) });
	const m = r.status === 0 && /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(r.stdout.subarray(0, 32).toString('latin1'));
	if (!m)
		return null;
	const [w, h] = [Number(m[1]), Number(m[2])];
	const px = r.stdout.subarray(m[0].length);
	return { w, h, rgb: cols.map((x) => [...px.subarray(((h >> 1) * w + x) * 3, ((h >> 1) * w + x) * 3 + 3)]) };
}
const withFfmpeg = !/^ffmpeg none/m.test(execFileSync(path.join(builddir, 'wachat'), ['--version'], { encoding: 'utf8' }));
const redBlue = (t) => !!t && t.w === 100 && t.h === 75 && t.rgb[0][0] > 200 && t.rgb[0][2] < 60 &&
	t.rgb[1][0] < 60 && t.rgb[1][2] > 200;
const tm = (...args) => execFileSync('tmux', ['-u', '-S', sock, '-f', '/dev/null', ...args],
	{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const capture = () => { try { return tm('capture-pane', '-p', '-t', 'wachat'); } catch { return ''; } };
const logTail = () => { try { return fs.readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n'); } catch { return ''; } };
process.on('exit', () => { try { tm('kill-server'); } catch { /* gone */ } });

const bob = { dir: path.join(sim.tmp, 'auth-bob'), ev: [], msgs: [] };
async function bobConnect() {
	bob.sock = makeWASocket({
		waWebSocketUrl: wss, auth: bob.state, logger: quietLogger,
		browser: baileys.Browsers.ubuntu('Chrome'), connectTimeoutMs: 10000, defaultQueryTimeoutMs: 5000,
		markOnlineOnConnect: true, syncFullHistory: false, shouldSyncHistoryMessage: () => false,
		getMessage: async () => undefined,
	});
	const s = bob.sock;
	s.ev.on('creds.update', bob.saveCreds);
	s.ev.on('connection.update', (d) => { if (bob.sock === s) bob.ev.push(d); });
	s.ev.on('messages.upsert', ({ messages }) => { if (bob.sock === s) bob.msgs.push(...messages); });
}
const bobWait = (ms, what, pred) => within(ms, (async () => {
	for (;;) {
		const x = bob.ev.find(pred);
		if (x)
			return x;
		await sleep(20);
	}
})(), `bob: ${what}`);
// wachat send me's chat with bob, a file.
const send = (...args) => spawnSync(path.join(builddir, 'wachat'), ['send', '--data-dir', data, ...args],
	{ encoding: 'utf8', env: { ...process.env, HOME: home, LC_ALL: 'C.UTF-8' }, timeout: 90000 });

try {
	for (const [pn, name] of [[ME, 'me'], [BOB, 'bob']]) {
		const r = await sim.ctl('POST', '/admin/accounts', { pn, name });
		if (r.status !== 200)
			bail(`cannot create account ${pn}: ${JSON.stringify(r.body)}`);
	}
	const cmd = `env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='${home}' ` +
		`'${path.join(builddir, 'wachat')}' --url '${wss}' --root-key '${rootPub}' --ca-file '${cert}' ` +
		`--data-dir '${data}' --qr-file '${qrFile}' 2>>'${path.join(sim.tmp, 'w.err')}'; echo $? >'${statusFile}'`;
	tm('new-session', '-d', '-s', 'wachat', '-x', '160', '-y', '40', cmd);
	await until(60000, () => fs.existsSync(qrFile) && /https:\/\/wa\.me/.test(fs.readFileSync(qrFile, 'utf8')));
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${ME}`, fs.readFileSync(qrFile, 'utf8').trim());
	ok(scan.status === 200 && !!await until(30000, () => new RegExp(`connected as .*\\+${ME}`).test(capture())),
		'wachat links by QR and shows itself connected', capture() + logTail());
	await until(60000, () => { try { return /prekeys: event 6, \d+ keys/.test(fs.readFileSync(logFile, 'utf8')); } catch { return false; } });

	({ state: bob.state, saveCreds: bob.saveCreds } = await baileys.useMultiFileAuthState(bob.dir));
	await bobConnect();
	const { qr } = await bobWait(15000, 'a QR', (x) => x.qr);
	await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${BOB}`, qr);
	await bobWait(15000, 'the 515 restart', (x) => x.connection === 'close');
	bob.state.creds.me.name = 'bob';
	bob.ev = [];
	await bobConnect();
	const open = await bobWait(20000, 'open', (x) => x.connection === 'open' || x.connection === 'close');
	ok(open.connection === 'open', 'Baileys (bob) links and logs in');
	// a text first, so that wachat's store knows the chat "bob"
	await bob.sock.sendMessage(meJid, { text: 'send me your files' });
	ok(!!await until(20000, () => /send me your files/.test(capture())), "bob's text reaches wachat", capture());

	// the voice note's waveform from opusdec's samples (voice.wave): each
	// of wachat's 64 values within 1 of it (libopusfile decodes floats,
	// opusdec 16-bit integers)
	const wave0 = fs.readFileSync(path.join(fx, 'voice.wave'), 'utf8').trim().split(',').map(Number);
	const cases = [
		{ file: 'photo.jpg', args: ['--caption', 'A photo for Baileys'], kind: 'imageMessage',
		  want: (m) => m.mimetype === 'image/jpeg' && m.width === 64 && m.height === 48 &&
			m.caption === 'A photo for Baileys' && m.jpegThumbnail?.length > 0 },
		{ file: 'notes.pdf', args: [], kind: 'documentMessage',
		  want: (m) => m.mimetype === 'application/pdf' && m.fileName === 'notes.pdf' },
		// a wachat built without FFmpeg sends it without seconds, sides
		// and thumbnail (its --version says "ffmpeg none")
		{ file: 'clip.mp4', args: ['--caption', 'A video for Baileys'], kind: 'videoMessage',
		  want: (m) => m.mimetype === 'video/mp4' && m.caption === 'A video for Baileys' && !m.gifPlayback &&
			(withFfmpeg ? m.seconds === 3 && m.width === 320 && m.height === 240 &&
				redBlue(thumbPixels(m.jpegThumbnail, [10, 90])) :
				!m.seconds && !m.width && !m.height && !m.jpegThumbnail?.length) },
		{ file: 'voice.ogg', args: ['--ptt'], kind: 'audioMessage',
		  want: (m) => m.ptt === true && m.mimetype === 'audio/ogg; codecs=opus' && m.seconds === 1 &&
			m.waveform?.length === 64 && [...m.waveform].every((v, i) => Math.abs(v - wave0[i]) <= 1) },
		{ file: 'sticker.webp', args: [], kind: 'stickerMessage',
		  want: (m) => m.mimetype === 'image/webp' && m.width === 64 && m.height === 48 && !m.isAnimated },
	];
	for (const c of cases) {
		const bytes = fs.readFileSync(path.join(fx, c.file));
		const r = send(`+${BOB}`, '--file', path.join(fx, c.file), ...c.args);
		ok(r.status === 0 && /^wachat: sent to/m.test(r.stdout), `wachat send --file ${c.file} ${c.args.join(' ')}: exit 0`,
			{ status: r.status, out: r.stdout, err: r.stderr, log: logTail() });
		const m = await until(30000, () => bob.msgs.find((x) => !x.key.fromMe && x.message?.[c.kind] &&
			Number(x.message[c.kind].fileLength) === bytes.length));
		const body = m?.message?.[c.kind];
		ok(!!body && c.want(body), `Baileys receives a ${c.kind} with its fields`, body &&
			{ mimetype: body.mimetype, width: body.width, height: body.height, caption: body.caption,
			  fileName: body.fileName, thumb: body.jpegThumbnail?.length, ptt: body.ptt,
			  seconds: body.seconds, waveform: body.waveform && [...body.waveform].join(','),
			  want_waveform: c.kind === 'audioMessage' ? wave0.join(',') : undefined, animated: body.isAnimated,
			  gif: body.gifPlayback, pixels: thumbPixels(body.jpegThumbnail, [10, 90]) });
		let dl;
		try {
			dl = m ? await baileys.downloadMediaMessage(m, 'buffer', {}) : undefined;
		} catch (e) {
			dl = e;
		}
		ok(Buffer.isBuffer(dl) && sha(dl) === sha(bytes), `downloadMediaMessage gives ${c.file}'s bytes (SHA-256)`,
			Buffer.isBuffer(dl) ? { got: sha(dl), want: sha(bytes) } : String(dl?.stack ?? dl));
	}
	// The other way: Baileys sends wachat a photo with a caption, a
	// voice note, a document, a sticker, a video with a caption, the
	// same as a GIF (gifPlayback) and as a round video (ptv); each shows in bob's chat
	// with its word and metadata (base/media-text.c: the size in
	// 1000-based units), and the download key (Alt-w) on it writes its
	// bytes into download-dir (DATA-DIR/media): TYPE-ID.EXT, a document
	// under its own name, and its line shows the path.
	const wave = Uint8Array.from({ length: 64 }, (_, i) => (i * 37) % 100);
	const theirsSent = {};
	const theirs = [
		{ file: 'photo.jpg', what: 'photo', content: (b) => ({ image: b, caption: 'A photo from Baileys' }),
		  line: (n) => `📷 Photo · ${size(n)} · 64×48`, caption: 'A photo from Baileys',
		  name: (id) => `image-${id}.jpg` },
		{ file: 'voice.ogg', what: 'voice note',
		  content: (b) => ({ audio: b, ptt: true, mimetype: 'audio/ogg; codecs=opus', seconds: 1, waveform: wave }),
		  line: (n) => `🎤 Voice message 0:01 · ${size(n)}`, name: (id) => `ptt-${id}.ogg` },
		{ file: 'notes.pdf', what: 'document',
		  content: (b) => ({ document: b, mimetype: 'application/pdf', fileName: 'minutes.pdf' }),
		  line: (n) => `📄 Document minutes.pdf · ${size(n)}`, name: () => 'minutes.pdf' },
		{ file: 'sticker.webp', what: 'sticker', content: (b) => ({ sticker: b, width: 64, height: 48 }),
		  line: (n) => `🌟 Sticker · ${size(n)} · 64×48`, name: (id) => `sticker-${id}.webp` },

		{ file: 'clip.mp4', what: 'video',
		  content: (b) => ({ video: b, caption: 'A video from Baileys', seconds: 3, width: 320, height: 240 }),
		  line: (n) => `🎬 Video 0:03 · ${size(n)} · 320×240`, caption: 'A video from Baileys',
		  name: (id) => `video-${id}.mp4` },
		{ file: 'clip.mp4', what: 'GIF (gifPlayback)',
		  content: (b) => ({ video: b, gifPlayback: true, seconds: 3, width: 320, height: 240 }),
		  line: (n) => `🎦 GIF 0:03 · ${size(n)} · 320×240`, name: (id) => `gif-${id}.mp4` },
		// Baileys' ptv content makes its VideoMessage of the file alone
		// (messages.ts generateWAMessageContent): no seconds, no sides
		{ file: 'clip.mp4', what: 'round video (ptv)', content: (b) => ({ video: b, ptv: true }),
		  line: (n) => `🎥 Round video · ${size(n)}`, name: (id) => `ptv-${id}.mp4` },
	];
	tm('send-keys', '-t', 'wachat', 'Tab');
	for (const c of theirs) {
		const bytes = fs.readFileSync(path.join(fx, c.file));
		const sent = await bob.sock.sendMessage(meJid, c.content(bytes));
		theirsSent[c.what] = sent;
		// under bob's header: not wachat's own copy of the same file
		const line = new RegExp(`│ bob \\d\\d:\\d\\d *\\n[^\\n]*│ +${esc(c.line(bytes.length))} *$`, 'm');
		const cap = c.caption ? new RegExp(`│ +${esc(c.caption)} *$`, 'm') : /./;
		ok(!!await until(30000, () => line.test(capture()) && cap.test(capture())),
			`Baileys' ${c.what} shows in bob's chat: ${c.line(bytes.length)}`, capture());
		tm('send-keys', '-t', 'wachat', 'Escape');
		await sleep(300);
		tm('send-keys', '-t', 'wachat', 'Up');
		await sleep(300);
		tm('send-keys', '-t', 'wachat', 'M-w');
		const got = path.join(data, 'media', c.name(sent.key.id));
		const shown = new RegExp(`│ +${esc(got)} *$`, 'm');
		ok(!!await until(30000, () => shown.test(capture()) && fs.existsSync(got)),
			`Alt-w downloads the ${c.what} into download-dir; its line shows the path`, capture() + logTail());
		ok(fs.existsSync(got) && sha(fs.readFileSync(got)) === sha(bytes),
			`the downloaded file is Baileys' ${c.what} (SHA-256)`);
	}

	// Forward Baileys' photo back to bob: Alt-. on it, "bob", Enter
	// (the photo is the first of theirs: theirs.length Ups away).
	const fwd = async (re, what, ups) => {
		tm('send-keys', '-t', 'wachat', 'Escape');
		await sleep(300);
		tm('send-keys', '-t', 'wachat', ...Array(ups).fill('Up'));
		await sleep(300);
		tm('send-keys', '-t', 'wachat', 'M-.');
		ok(!!await until(20000, () => /Forward to: \d+ chat/.test(capture())),
			`Alt-. opens the forward picker on ${what}`, capture());
		tm('send-keys', '-t', 'wachat', '-l', 'bob');
		await sleep(300);
		tm('send-keys', '-t', 'wachat', 'Enter');
		return until(30000, () => bob.msgs.find(re));
	};
	const photo = fs.readFileSync(path.join(fx, 'photo.jpg'));
	const orig = theirsSent.photo.message.imageMessage;
	const fp = await fwd((x) => !x.key.fromMe && x.message?.imageMessage?.contextInfo?.isForwarded,
		"Baileys' photo", theirs.length);
	const fi = fp?.message?.imageMessage;
	ok(!!fi && fi.contextInfo.isForwarded === true && fi.contextInfo.forwardingScore === 1 &&
		fi.caption === 'A photo from Baileys',
		'Baileys receives the forwarded photo as an imageMessage, isForwarded, forwardingScore 1',
		fi && { ctx: fi.contextInfo, caption: fi.caption });
	ok(!!fi && fi.directPath === orig.directPath && Buffer.from(fi.mediaKey).equals(Buffer.from(orig.mediaKey)) &&
		Buffer.from(fi.fileEncSha256).equals(Buffer.from(orig.fileEncSha256)),
		"... with the original's directPath, mediaKey and fileEncSha256 (not uploaded again)");
	let fdl;
	try {
		fdl = fp ? await baileys.downloadMediaMessage(fp, 'buffer', {}) : undefined;
	} catch (e) {
		fdl = e;
	}
	ok(Buffer.isBuffer(fdl) && sha(fdl) === sha(photo), "downloadMediaMessage gives the forwarded photo's bytes",
		Buffer.isBuffer(fdl) ? { got: sha(fdl), want: sha(photo) } : String(fdl?.stack ?? fdl));
	// The pane back at the bottom (selecting the photo scrolled it up).
	tm('send-keys', '-t', 'wachat', 'Escape');
	await sleep(300);
	tm('send-keys', '-t', 'wachat', 'End');
	// A text Baileys forwards (generateForwardMessageContent: score 3 + 1).
	await bob.sock.sendMessage(meJid, { forward: { key: { remoteJid: meJid, fromMe: false, id: 'FWDSRC1' },
		message: { extendedTextMessage: { text: 'pass this on',
			contextInfo: { forwardingScore: 3, isForwarded: true } } } } });
	ok(!!await until(30000, () => /bob [0-9]{2}:[0-9]{2} \(forwarded\)/.test(capture()) &&
		/│ +pass this on *$/m.test(capture())), "Baileys' forwarded text shows (forwarded) in wachat", capture());
	const ft = await fwd((x) => !x.key.fromMe && x.message?.extendedTextMessage?.text === 'pass this on' &&
		x.key.id !== 'FWDSRC1' && x.message.extendedTextMessage.contextInfo?.forwardingScore === 5,
		"Baileys' forwarded text", 1);
	const fx5 = ft?.message?.extendedTextMessage;
	ok(!!fx5 && fx5.contextInfo.isForwarded === true && fx5.contextInfo.forwardingScore === 5,
		"Baileys receives wachat's forward as an extendedTextMessage, isForwarded, forwardingScore 4 + 1",
		fx5 && fx5.contextInfo);
	ok(!!await until(20000, () => /You [0-9]{2}:[0-9]{2} \(forwarded many times\)/.test(capture())),
		'wachat shows its copy "(forwarded many times)"', capture());
	// Message info (issue 20): Baileys reads wachat's forward
	// (readMessages); Alt-? on it shows bob's delivery and read times.
	await bob.sock.readMessages([ft.key]);
	tm('send-keys', '-t', 'wachat', 'Escape');
	await sleep(300);
	tm('send-keys', '-t', 'wachat', 'Up');
	await sleep(300);
	tm('send-keys', '-t', 'wachat', 'M-?');
	ok(!!await until(30000, () => /│ +bob +delivered [0-9]{2}:[0-9]{2} +read [0-9]{2}:[0-9]{2} *$/m.test(capture())),
		"Alt-? on it: Baileys' delivery and read times (readMessages)", capture() + logTail());
	tm('send-keys', '-t', 'wachat', 'Escape');
	await sleep(300);
	tm('send-keys', '-t', 'wachat', 'C-q');
	await until(60000, () => fs.existsSync(statusFile) && fs.readFileSync(statusFile, 'utf8').trim() !== '');
	const st = fs.existsSync(statusFile) ? fs.readFileSync(statusFile, 'utf8').trim() : 'none';
	ok(st === '0', `Ctrl-q quits wachat cleanly (status ${st})`);
} catch (e) {
	ok(false, `no exception: ${e.stack}`, capture() + logTail());
}
try {
	bob.sock?.end(undefined);
} catch { /* closed */ }
try { tm('kill-server'); } catch { /* gone */ }
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
await rmTree(bob.dir);
process.exit(finish());
