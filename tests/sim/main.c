/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/main.c -- wachat-sim: options, start-up, the loop and an
 * orderly shutdown; `wachat-sim ctl ...` is the command-line client of the
 * admin interface (ctl.c).
 */
#include "base/compat.h"

#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <libwebsockets.h>
#include <protobuf-c/protobuf-c.h>
#include <signal/signal_protocol.h>

#include "proto/crypto.h"
#include "base/err.h"
#include "http.h"
#include "sim.h"
#include "tokens.h"
#include "proto/wa-signal.h"

#ifndef SIM_ROOT_KEY_FILE
#define SIM_ROOT_KEY_FILE "tests/sim/root-key.txt"
#endif

static const struct {
	enum sim_bad	 v;
	const char	*name;
} bad_names[] = {
	{ SIM_BAD_NONE, "none" },
	{ SIM_BAD_TRUNCATED, "truncated" },
	{ SIM_BAD_OVERSIZED, "oversized" },
	{ SIM_BAD_GARBAGE, "garbage" },
	{ SIM_BAD_UNDECRYPTABLE, "undecryptable" },
};

static const struct {
	enum sim_cert_fault	 v;
	const char		*name;
} fault_names[] = {
	{ SIM_CERT_OK, "none" },
	{ SIM_CERT_OTHER_ROOT, "other-root" },
	{ SIM_CERT_LEAF_KEY, "leaf-key" },
	{ SIM_CERT_EXPIRED, "expired" },
	{ SIM_CERT_ISSUER, "issuer-serial" },
};

const char *
sim_bad_name(enum sim_bad b)
{
	size_t	 i;

	for (i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++)
		if (bad_names[i].v == b)
			return bad_names[i].name;
	return "?";
}

int
sim_bad_parse(const char *s, enum sim_bad *out)
{
	size_t	 i;

	for (i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++)
		if (strcmp(bad_names[i].name, s) == 0) {
			*out = bad_names[i].v;
			return 0;
		}
	return -1;
}

const char *
sim_cert_fault_name(enum sim_cert_fault f)
{
	size_t	 i;

	for (i = 0; i < sizeof(fault_names) / sizeof(fault_names[0]); i++)
		if (fault_names[i].v == f)
			return fault_names[i].name;
	return "?";
}

int
sim_cert_fault_parse(const char *s, enum sim_cert_fault *out)
{
	size_t	 i;

	for (i = 0; i < sizeof(fault_names) / sizeof(fault_names[0]); i++)
		if (strcmp(fault_names[i].name, s) == 0) {
			*out = fault_names[i].v;
			return 0;
		}
	return -1;
}

void
sim_log(struct sim *s, const char *fmt, ...)
{
	struct timeval	 tv;
	struct tm	 tm;
	va_list		 ap;
	FILE		*f = s->log != NULL ? s->log : stderr;

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	fprintf(f, "%02d:%02d:%02d.%03ld sim: ", tm.tm_hour, tm.tm_min,
	    tm.tm_sec, (long)(tv.tv_usec / 1000));
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fflush(f);
}

static void
usage(FILE *f)
{
	fputs(
"Usage: wachat-sim [OPTION]...\n"
"       wachat-sim ctl --admin URL COMMAND [ARG]...   (see: wachat-sim ctl --help)\n"
"A local WhatsApp-compatible server for tests and the demo: WebSocket and\n"
"the Noise handshake (responder) with a certificate chain from a test root,\n"
"pair-device for registrations, failure 401 for unknown logins, the\n"
"primary phone of every account (Signal keys, QR scan, link code,\n"
"pair-success), and the connect sequence after <success> (prekeys).\n"
"On start it prints 'port=N' and 'admin-port=N' lines on stdout.\n"
"\n"
"Options:\n"
"  --host ADDR            address to bind both ports to (default 127.0.0.1)\n"
"  --port N               WebSocket port; 0 picks a free one (default 0)\n"
"  --admin-port N         admin HTTP port; 0 picks a free one (default 0)\n"
"  --root-key FILE        root key pair (private=HEX, public=HEX lines) that\n"
"                         signs the intermediate certificate\n"
"                         (default " SIM_ROOT_KEY_FILE ")\n"
"  --cert-fault KIND      send a faulty chain: none, other-root, leaf-key,\n"
"                         expired, issuer-serial (default none; also a knob)\n"
"  --tls-cert FILE        serve wss:// with this PEM certificate ...\n"
"  --tls-key FILE         ... and this PEM private key\n"
"  --refs N               refs in each pair-device (1-32, default 6)\n"
"  --prekeys N            one-time prekeys per primary phone (default 20)\n"
"  --min-version REV      answer failure 405 to versions below 2.3000.REV\n"
"                         (default: accept every version; also a knob)\n"
"  --sw-revision REV      the client_revision GET /sw.js on the admin port\n"
"                         carries (default 1045649367, or --min-version if\n"
"                         higher; also a knob)\n"
"  --reg-refresh-pct P    at the first scan of a connection, with P%\n"
"                         chance send companion_reg_refresh instead and\n"
"                         refuse the scan (default 0; also a knob)\n"
"  --group-addressing M   groups clients create are addressed by lid\n"
"                         (default) or pn (protocol.md 10.1)\n"
"  --media-port N         the media host (history blobs, media; HTTPS with\n"
"                         --tls-cert/--tls-key, else HTTP); 0 picks a free\n"
"                         one (default 0; printed as media-port=N)\n"
"  --media-delay-ms MS    the media host waits MS before each answer (slow\n"
"                         media, to stop a client mid-import; default 0;\n"
"                         also POST /admin/history/media)\n"
"  --media-dir DIR        keep uploads in DIR (default: a new directory in\n"
"                         $TMPDIR, removed at exit)\n"
"  --history-chats N      every account made gets a phone history of N\n"
"                         chats (one in five a group), with contacts made\n"
"                         for it; sent to each companion after it links\n"
"  --history-messages M   messages in all (default 10 per chat)\n"
"  --history-seed S       the generator's seed (default 1)\n"
"  --history-chunk N      messages per history sync chunk (default 3000)\n"
"  --history-full-if-asked  send FULL chunks (history older than a year)\n"
"                         only to companions whose DeviceProps ask for a\n"
"                         full sync (requireFullSync), as the phone does;\n"
"                         by default every companion gets everything\n"
"  --handshake-timeout S  close connections that have not finished the\n"
"                         handshake after S seconds (default 20)\n"
"  --log FILE             log to FILE instead of stderr (appends)\n"
"  -v, --verbose          log every stanza sent and received, not only those\n"
"                         the sim does not handle\n"
"  -h, --help             show this help and exit\n"
"  -V, --version          show the version and exit\n"
"\n"
"Admin interface (JSON over HTTP on the admin port, loopback):\n"
"  GET  /admin/status                      ports, keys, counters, knobs\n"
"  GET  /admin/accounts                    accounts and contacts, devices\n"
"  POST /admin/accounts {pn,lid?,name?}    create an account (Signal keys made)\n"
"  POST /admin/contacts {pn,lid?,name?,of?,echo?,chatty_s?} create a\n"
"                                          contact (of = owner PN; echo, or\n"
"                                          the name Echo: it answers every\n"
"                                          text; chatty_s N: it writes to its\n"
"                                          owner every N s while the owner\n"
"                                          has a linked companion)\n"
"  GET  /admin/devices/JID                 what the sim holds for a device\n"
"                                          (PN[:DEV]@s.whatsapp.net, LID[:DEV]@lid),\n"
"                                          with its uploaded prekeys\n"
"  POST /admin/devices/JID/use-prekeys {n} hand n one-time prekeys out; below\n"
"                                          5 left, send the encrypt notification\n"
"  POST /admin/devices/JID/remove          unlink a companion: its connections\n"
"                                          dropped, devices notification sent\n"
"  GET  /admin/messages                    every stanza routed to a device\n"
"                                          (id, from, to, enc, delivered, acked)\n"
"  GET  /admin/connections                 live connections\n"
"  POST /admin/connections/ID/drop         close it (ID: number, last, all)\n"
"  POST /admin/connections/ID/stream-error {code}   send <stream:error>, close\n"
"  POST /admin/connections/ID/failure {reason}      send <failure>, close\n"
"  POST /admin/connections/ID/reg-refresh {child?}  send an unpaired client\n"
"                                          companion_reg_refresh (child:\n"
"                                          companion_reg_refresh or\n"
"                                          pair-device-rotate-qr); QRs scanned\n"
"                                          before it are refused from then on\n"
"  POST /admin/connections/ID/cut {bytes} send only that many bytes of the\n"
"                                          next <message> frame, then close\n"
"                                          (ID may be the device JID)\n"
"  POST /admin/connections/ID/malformed {kind}      send a malformed frame:\n"
"                                          truncated, oversized, garbage,\n"
"                                          undecryptable\n"
"  GET  /admin/knobs, POST /admin/knobs {malformed_next?, cert_fault?,\n"
"                                          min_version?, sw_revision?,\n"
"                                          reg_refresh_pct?, silent_next?,\n"
"                                          drop_pair_sign?}\n"
"                                          malformed_next applies once, right\n"
"                                          after the next handshake;\n"
"                                          silent_next (handshake|login) and\n"
"                                          drop_pair_sign once too\n"
"  GET  /admin/cert-chain[?fault=KIND]     the chain sent, in hex and in parts\n"
"  POST /admin/mock-phone/scan-qr[?pn=PN&dry_run=1]  body: the QR text;\n"
"                                          pair it as PN's phone (default:\n"
"                                          the first account)\n"
"  POST /admin/mock-phone/enter-code {code, pn?}   the phone enters a link\n"
"                                          code (XXXX-XXXX) for the client\n"
"                                          that sent companion_hello\n"
"  POST /admin/mock-phone/receipt {pn, to, id, type?}  PN's phone sends\n"
"                                          <receipt> (read, ...) for message id\n"
"  POST /admin/mock-phone/send {from_pn, to, text | react_to + emoji,\n"
"                               quoted_id?}  PN's phone sends a message\n"
"                                          (Signal, to every device of to and\n"
"                                          as deviceSentMessage to PN's own)\n"
"  POST /admin/mock-phone/send-media {from_pn, to, media, caption?,\n"
"                               file_name?, size?, width?, height?,\n"
"                               seconds?, pages?, animated?, wrap?}\n"
"                                          PN's phone sends a media message\n"
"                                          (metadata only, no blob)\n"
"  GET  /admin/mock-phone/inbox?pn=PN      what PN's phone received (decrypted)\n"
"                                          and sent\n"
"  GET  /admin/groups, POST /admin/groups {subject, members: [PN|sim:N],\n"
"                               creator?, addressing_mode?}  list or create\n"
"  GET  /admin/groups/G                    a group and its members\n"
"  POST /admin/groups/G/{add,remove,promote,demote} {members}, .../subject\n"
"                               {subject}  the creator's phone changes it\n"
"  GET  /admin/groups/G/delivery?id=ID     which member phones read ID\n"
"  POST /admin/mock-phone/group-send {from_pn, group, text}  a member's\n"
"                                          phone sends to the group\n"
"  GET  /admin/mock-phone/group-inbox?pn=PN[&group=G]  the group messages\n"
"                                          PN's phone decrypted\n"
"  POST /admin/mock-phone/forget-sessions {pn}  the phone drops its sessions\n"
"  POST /admin/mock-phone/reinstall {pn[, notify: pn|lid]}\n"
"                                          the phone gets a new identity\n"
"                                          and keys, and no session; notify:\n"
"                                          every other account's devices get\n"
"                                          the encrypt <identity/> notification\n"
"  POST /admin/tokens/require {pn, mode?} mode token: 1:1 messages to pn\n"
"                                          need a privacy token (else ack\n"
"                                          error 463); refuse: 463 always;\n"
"                                          off: none needed\n"
"  POST /admin/tokens/notify {pn, to, t?}  pn gives to a token\n"
"                                          (privacy_token notification)\n"
"  GET  /admin/tokens                      marked users, tokens, 463s\n"
"  GET  /sw.js                             \"client_revision\":REV, as on\n"
"                                          web.whatsapp.com/sw.js\n"
"  POST /admin/history {pn,chats,messages,seed?,chunk?,now?,full?}\n"
"                                          give PN's phone a generated history\n"
"  GET  /admin/history?pn=PN               its summary and chat list\n"
"  GET  /admin/history/chat?pn=PN&jid=CHAT[&offset=N&limit=N]  a chat's\n"
"                                          messages, oldest first\n"
"  POST /admin/history/send {pn,device?}   send the history (again) now\n"
"  POST /admin/history/fault {pn,kind,device?}  send a faulty blob: corrupt,\n"
"                                          bomb, nest, gone\n"
"  GET  /admin/history/blobs               every blob on the media host\n"
"  GET  /admin/history/status              the history counters\n"
"  POST /admin/history/media {delay_ms}    the media host's delay\n"
"  GET  /admin/appstate?pn=PN              app state: keys, collections\n"
"  POST /admin/appstate/contact {pn,chat,name}  the phone renames a contact\n"
"  POST /admin/appstate/mute|pin|archive|read {pn,chat,value?}  the phone\n"
"                                          mutes, pins, archives, marks read\n"
"  POST /admin/appstate/fault {pn,kind}    patch-mac, snapshot-mac, new-key,\n"
"                                          conflict, big-snapshot\n"
"  POST /admin/appstate/settings {page?,inline_max?}  page, inline size\n"
"  GET  /admin/appstate/status             the app-state counters\n"
"  POST /admin/media/send {from_pn,to,type,file?,caption?,...}  a contact\n"
"                                          sends a photo, video (gif, ptv),\n"
"                                          voice note, document or sticker;\n"
"                                          flip_byte, declared_length:\n"
"                                          download faults\n"
"  GET  /admin/media                       uploads, media messages, blobs\n"
"  POST /admin/media/expire {path|id,code?}  the blob answers 404 or 410\n"
"  POST /admin/media/settings {auth_ttl?,max_bytes?,upload_delay_ms?}\n"
"                                  upload auth, cap, answer's wait\n"
"  POST /admin/shutdown                    exit cleanly\n"
"After <success> the sim answers the connect queries (prekey count and\n"
"upload, passive, digest, props, blocklist, privacy, usync, ping) and\n"
"answers any other iq with error 501, logged as an unanswered query.\n", f);
}

/* Read "private=" and "public=" hex lines; check they belong together. */
static int
read_root(struct sim *s, const char *path)
{
	FILE		*f = fopen(path, "r");
	char		 line[256];
	bool		 have_priv = false, have_pub = false;
	uint8_t		 derived[SIM_KEY_LEN];

	if (f == NULL) {
		fprintf(stderr, "wachat-sim: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		if (strncmp(line, "private=", 8) == 0)
			have_priv = sim_unhex(line + 8, s->root_priv,
			    SIM_KEY_LEN) == 0;
		else if (strncmp(line, "public=", 7) == 0)
			have_pub = sim_unhex(line + 7, s->root_pub,
			    SIM_KEY_LEN) == 0;
	}
	fclose(f);
	if (!have_priv || !have_pub) {
		fprintf(stderr, "wachat-sim: %s: want private=HEX and "
		    "public=HEX lines (32 bytes each)\n", path);
		return -1;
	}
	wa_crypto_x25519_base(s->root_priv, derived);
	if (memcmp(derived, s->root_pub, SIM_KEY_LEN) != 0) {
		fprintf(stderr, "wachat-sim: %s: the public key is not the "
		    "private key's\n", path);
		return -1;
	}
	return 0;
}

static void
on_signal(uv_signal_t *h, int signum)
{
	struct sim	*s = h->data;

	sim_log(s, "signal %d: shutting down", signum);
	sim_stop(s);
}

struct walk {
	void	*ctx;
	int	 n;
};

static void
count_ctx_handles(uv_handle_t *h, void *arg)
{
	struct walk	*w = arg;

	if (h->data == w->ctx)
		w->n++;
}

/*
 * Second half of the libwebsockets teardown on a foreign loop: once the
 * loop has closed every handle of lws's own (their data is the context),
 * a second lws_context_destroy() frees the context.
 */
static void
reap(uv_timer_t *t)
{
	struct sim	*s = t->data;
	struct walk	 w = { s->lws, 0 };

	if (s->lws != NULL) {
		uv_walk(&s->loop, count_ctx_handles, &w);
		if (w.n > 0 && uv_now(&s->loop) < s->reap_deadline)
			return;
		if (w.n == 0)	/* else leak it rather than free live handles */
			lws_context_destroy(s->lws);
	}
	uv_close((uv_handle_t *)t, NULL);
}

void
sim_stop(struct sim *s)
{
	if (s->stopping)
		return;
	s->stopping = true;
	sim_phone_chatty_stop_all(s);
	sim_http_stop(s->admin);
	s->admin = NULL;
	uv_close((uv_handle_t *)&s->sigint, NULL);
	uv_close((uv_handle_t *)&s->sigterm, NULL);
	if (s->lws != NULL) {
		lws_context_destroy(s->lws);
		uv_timer_init(&s->loop, &s->reaper);
		s->reaper.data = s;
		s->reap_deadline = uv_now(&s->loop) + 10000;
		uv_timer_start(&s->reaper, reap, 1, 1);
	}
}

static void
print_version(void)
{
	Dl_info	 info;
	void	*fn = dlsym(RTLD_DEFAULT, "protobuf_c_message_unpack");

	printf("wachat-sim %s\n", PACKAGE_VERSION);
	printf("protobuf-c %s", protobuf_c_version());
	if (fn != NULL && dladdr(fn, &info) != 0 && info.dli_fname != NULL)
		printf(" (%s)", info.dli_fname);
	putchar('\n');
	printf("libwebsockets %s\n", lws_get_library_version());
}

static int
parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char		*end;
	unsigned long	 v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || end == s || v > max)
		return -1;
	*out = v;
	return 0;
}

#define QUOTE(x)	#x
#define XQUOTE(x)	QUOTE(x)

/* How an option's argument is stored in its member of struct sim_opts. */
enum opt_kind {
	OPT_STR,	/* const char *, the argument itself */
	OPT_INT,	/* int, a number min-max */
	OPT_UNSIGNED,	/* unsigned, a number min-max */
	OPT_U32,	/* uint32_t, a number min-max */
	OPT_U64,	/* uint64_t, a number min-max */
	OPT_TRUE,	/* bool, set by the option (no argument) */
	OPT_FN,		/* parsed by fn */
};

/* One long option: where it goes and what is said when it is bad. */
struct opt_def {
	const char	*name;
	enum opt_kind	 kind;
	size_t		 off;		/* the member in struct sim_opts */
	unsigned long	 min, max;
	const char	*bad;		/* "wachat-sim: BAD[ARG]" on stderr */
	bool		 bad_arg;	/* the argument follows bad */
	int		(*fn)(const char *, struct sim_opts *);	/* 0 or -1 */
};

static int
opt_cert_fault(const char *arg, struct sim_opts *o)
{
	return sim_cert_fault_parse(arg, &o->cert_fault);
}

static int
opt_group_addressing(const char *arg, struct sim_opts *o)
{
	if (strcmp(arg, "lid") != 0 && strcmp(arg, "pn") != 0)
		return -1;
	o->group_pn = strcmp(arg, "pn") == 0;
	return 0;
}

#define OFF(m)	offsetof(struct sim_opts, m)

static const struct opt_def opt_defs[] = {
	{ "host", OPT_STR, OFF(host), 0, 0, NULL, false, NULL },
	{ "port", OPT_INT, OFF(port), 0, 65535, "bad port ", true, NULL },
	{ "admin-port", OPT_INT, OFF(admin_port), 0, 65535, "bad port ", true,
	    NULL },
	{ "root-key", OPT_STR, OFF(root_key_file), 0, 0, NULL, false, NULL },
	{ "cert-fault", OPT_FN, 0, 0, 0, "--cert-fault: none, other-root, "
	    "leaf-key, expired or issuer-serial", false, opt_cert_fault },
	{ "tls-cert", OPT_STR, OFF(tls_cert), 0, 0, NULL, false, NULL },
	{ "tls-key", OPT_STR, OFF(tls_key), 0, 0, NULL, false, NULL },
	{ "refs", OPT_UNSIGNED, OFF(nrefs), 1, SIM_REFS_MAX,
	    "--refs: 1-" XQUOTE(SIM_REFS_MAX), false, NULL },
	{ "prekeys", OPT_UNSIGNED, OFF(nprekeys), 0, 2000,
	    "--prekeys: 0-2000", false, NULL },
	{ "min-version", OPT_U32, OFF(min_revision), 0, UINT32_MAX,
	    "bad --min-version", false, NULL },
	{ "handshake-timeout", OPT_UNSIGNED, OFF(handshake_timeout_s), 1,
	    3600, "bad --handshake-timeout", false, NULL },
	{ "sw-revision", OPT_U32, OFF(sw_revision), 1, UINT32_MAX,
	    "bad --sw-revision", false, NULL },
	{ "reg-refresh-pct", OPT_UNSIGNED, OFF(refresh_pct), 0, 100,
	    "--reg-refresh-pct: 0-100", false, NULL },
	{ "group-addressing", OPT_FN, 0, 0, 0,
	    "--group-addressing: lid or pn", false, opt_group_addressing },
	{ "media-port", OPT_INT, OFF(media_port), 0, 65535, "bad port ", true,
	    NULL },
	{ "media-delay-ms", OPT_UNSIGNED, OFF(media_delay_ms), 0, 60000,
	    "--media-delay-ms: 0-60000", false, NULL },
	{ "history-chats", OPT_UNSIGNED, OFF(hist_chats), 0, 20000,
	    "--history-chats: 0-20000", false, NULL },
	{ "history-messages", OPT_UNSIGNED, OFF(hist_msgs), 0, 2000000,
	    "--history-messages: 0-2000000", false, NULL },
	{ "history-seed", OPT_U64, OFF(hist_seed), 0, ULONG_MAX,
	    "bad --history-seed", false, NULL },
	{ "history-chunk", OPT_UNSIGNED, OFF(hist_chunk), 1, 100000,
	    "--history-chunk: 1-100000", false, NULL },
	{ "history-full-if-asked", OPT_TRUE, OFF(hist_full_if_asked), 0, 0,
	    NULL, false, NULL },
	{ "log", OPT_STR, OFF(log_file), 0, 0, NULL, false, NULL },
	{ "media-dir", OPT_STR, OFF(media_dir), 0, 0, NULL, false, NULL },
};
#define NOPT_DEFS	(sizeof(opt_defs) / sizeof(opt_defs[0]))
#define OPT_FIRST	256	/* getopt's value of opt_defs[0] */

/* Store the number v (checked) in the member at m, as d's kind says. */
static void
opt_store_num(const struct opt_def *d, char *m, unsigned long v)
{
	int		 i = (int)v;
	unsigned	 u = (unsigned)v;
	uint32_t	 u32 = (uint32_t)v;
	uint64_t	 u64 = v;

	if (d->kind == OPT_INT)
		memcpy(m, &i, sizeof(i));
	else if (d->kind == OPT_UNSIGNED)
		memcpy(m, &u, sizeof(u));
	else if (d->kind == OPT_U32)
		memcpy(m, &u32, sizeof(u32));
	else
		memcpy(m, &u64, sizeof(u64));
}

/* Option d with argument arg (NULL for OPT_TRUE) into o: 0, or 2 when
 * the argument is bad (said on stderr). */
static int
opt_set(const struct opt_def *d, const char *arg, struct sim_opts *o)
{
	char		*m = (char *)o + d->off;
	bool		 yes = true;
	unsigned long	 v;

	switch (d->kind) {
	case OPT_STR:
		memcpy(m, &arg, sizeof(arg));
		return 0;
	case OPT_TRUE:
		memcpy(m, &yes, sizeof(yes));
		return 0;
	case OPT_FN:
		if (d->fn(arg, o) == 0)
			return 0;
		break;
	case OPT_INT:
	case OPT_UNSIGNED:
	case OPT_U32:
	case OPT_U64:
		if (parse_uint(arg, d->max, &v) == 0 && v >= d->min) {
			opt_store_num(d, m, v);
			return 0;
		}
		break;
	}
	fprintf(stderr, "wachat-sim: %s%s\n", d->bad, d->bad_arg ? arg : "");
	return 2;
}

/* The defaults that depend on other options, and the pairs that go
 * together: -1 when o is good, else 2 (said on stderr). */
static int
opts_finish(struct sim_opts *o)
{
	if (o->hist_chats > 0 && o->hist_msgs == 0)
		o->hist_msgs = 10 * o->hist_chats;
	if (o->sw_revision == 0)
		o->sw_revision = o->min_revision > 1045649367u ?
		    o->min_revision : 1045649367u;
	if ((o->tls_cert == NULL) != (o->tls_key == NULL)) {
		fprintf(stderr, "wachat-sim: --tls-cert and --tls-key go "
		    "together\n");
		return 2;
	}
	return -1;
}

/* The options into o: -1 to run, else the exit status (help, version, a
 * bad option). */
static int
parse_opts(int argc, char **argv, struct sim_opts *o)
{
	static struct option	 longopts[NOPT_DEFS + 4];
	size_t			 i;
	int			 ch, rc;

	for (i = 0; i < NOPT_DEFS; i++)
		longopts[i] = (struct option){ opt_defs[i].name,
		    opt_defs[i].kind == OPT_TRUE ? no_argument :
		    required_argument, NULL, OPT_FIRST + (int)i };
	longopts[i++] = (struct option){ "verbose", no_argument, NULL, 'v' };
	longopts[i++] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[i++] = (struct option){ "version", no_argument, NULL, 'V' };
	longopts[i] = (struct option){ NULL, 0, NULL, 0 };
	while ((ch = getopt_long(argc, argv, "vhV", longopts, NULL)) != -1) {
		if (ch >= OPT_FIRST && ch < OPT_FIRST + (int)NOPT_DEFS) {
			if ((rc = opt_set(&opt_defs[ch - OPT_FIRST], optarg,
			    o)) != 0)
				return rc;
			continue;
		}
		switch (ch) {
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			print_version();
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	return opts_finish(o);
}

static int
run(struct sim *s)
{
	int	 rc;

	if (s->opt.log_file != NULL &&
	    (s->log = fopen(s->opt.log_file, "a")) == NULL) {
		fprintf(stderr, "wachat-sim: %s: %s\n", s->opt.log_file,
		    strerror(errno));
		return 1;
	}
	if (wa_crypto_init() != 0 || read_root(s, s->opt.root_key_file) != 0)
		return 1;
	/* libsignal with wachat's own crypto provider, to make the phones'
	 * keys. */
	if (wa_signal_keygen_new(&s->keygen) != 0) {
		fprintf(stderr, "wachat-sim: cannot set up libsignal\n");
		return 1;
	}
	s->sig = wa_signal_keygen_context(s->keygen);
	sim_random(s->static_priv, SIM_KEY_LEN);
	wa_crypto_x25519_base(s->static_priv, s->static_pub);
	sim_random(s->inter_priv, SIM_KEY_LEN);
	wa_crypto_x25519_base(s->inter_priv, s->inter_pub);
	s->cert_fault = s->opt.cert_fault;
	s->min_revision = s->opt.min_revision;
	s->sw_revision = s->opt.sw_revision;
	s->refresh_pct = s->opt.refresh_pct;
	s->media_delay_ms = s->opt.media_delay_ms;
	lws_set_log_level(s->opt.verbose ? LLL_ERR | LLL_WARN | LLL_NOTICE :
	    LLL_ERR | LLL_WARN, NULL);
	uv_loop_init(&s->loop);
	uv_signal_init(&s->loop, &s->sigint);
	uv_signal_init(&s->loop, &s->sigterm);
	s->sigint.data = s->sigterm.data = s;
	uv_signal_start(&s->sigint, on_signal, SIGINT);
	uv_signal_start(&s->sigterm, on_signal, SIGTERM);
	if ((rc = sim_ws_start(s)) != 0) {
		fprintf(stderr, "wachat-sim: cannot start the WebSocket "
		    "server: %s\n", wc_strerror(rc));
		goto fail;
	}
	if ((rc = sim_media_start(s)) != 0) {
		fprintf(stderr, "wachat-sim: cannot start the media host: "
		    "%s\n", wc_strerror(rc));
		goto fail;
	}
	if ((rc = sim_admin_start(s)) != 0) {
		fprintf(stderr, "wachat-sim: cannot start the admin server: "
		    "%s\n", uv_strerror(rc));
		goto fail;
	}
	printf("port=%d\nmedia-port=%d\nadmin-port=%d\n", s->port,
	    s->media_port, s->admin_port);
	fflush(stdout);
	sim_log(s, "listening on %s: WebSocket port %d%s, media port %d, "
	    "admin port %d", s->opt.host, s->port, s->opt.tls_cert != NULL ?
	    " (TLS)" : "", s->media_port, s->admin_port);
	uv_run(&s->loop, UV_RUN_DEFAULT);
	rc = 0;
	goto out;
fail:
	sim_stop(s);
	uv_run(&s->loop, UV_RUN_DEFAULT);
	rc = 1;
out:
	if (uv_loop_close(&s->loop) != 0) {
		fprintf(stderr, "wachat-sim: handles left open at exit\n");
		rc = 1;
	}
	return rc;
}

int
main(int argc, char **argv)
{
	struct sim	 s;
	int		 rc;

	if (argc > 1 && strcmp(argv[1], "ctl") == 0)
		return sim_ctl_main(argc - 1, argv + 1);
	memset(&s, 0, sizeof(s));
	s.opt.host = "127.0.0.1";
	s.opt.root_key_file = SIM_ROOT_KEY_FILE;
	s.opt.nrefs = 6;
	s.opt.nprekeys = 20;
	s.opt.handshake_timeout_s = 20;
	s.opt.hist_seed = 1;
	if ((rc = parse_opts(argc, argv, &s.opt)) >= 0)
		return rc;
	signal(SIGPIPE, SIG_IGN);
	rc = run(&s);
	sim_log(&s, "stopped after %llu handshakes",
	    (unsigned long long)s.nhandshakes);
	sim_route_free(&s);
	sim_tok_free(&s);
	sim_groups_free(&s);
	sim_accounts_free(&s);
	sim_media_free(&s);
	buf_release(&s.chain);
	wa_signal_keygen_free(s.keygen);
	explicit_bzero(s.root_priv, sizeof(s.root_priv));
	explicit_bzero(s.static_priv, sizeof(s.static_priv));
	explicit_bzero(s.inter_priv, sizeof(s.inter_priv));
	if (s.log != NULL)
		fclose(s.log);
	return rc;
}
