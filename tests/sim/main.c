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
"  --media-port N         the media host (history blobs; HTTPS with\n"
"                         --tls-cert/--tls-key, else HTTP); 0 picks a free\n"
"                         one (default 0; printed as media-port=N)\n"
"  --media-delay-ms MS    the media host waits MS before each answer (slow\n"
"                         media, to stop a client mid-import; default 0;\n"
"                         also POST /admin/history/media)\n"
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
"                                          reg_refresh_pct?}\n"
"                                          malformed_next applies once, right\n"
"                                          after the next handshake\n"
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
"  POST /admin/mock-phone/reinstall {pn}   the phone gets a new identity\n"
"                                          and keys, and no session\n"
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

enum {
	OPT_HOST = 256, OPT_PORT, OPT_ADMIN_PORT, OPT_ROOT_KEY, OPT_CERT_FAULT,
	OPT_TLS_CERT, OPT_TLS_KEY, OPT_REFS, OPT_PREKEYS, OPT_MIN_VERSION,
	OPT_HS_TIMEOUT, OPT_LOG, OPT_SW_REVISION, OPT_REFRESH_PCT, OPT_GROUP_ADDR,
	OPT_MEDIA_PORT, OPT_HIST_CHATS, OPT_HIST_MSGS, OPT_HIST_SEED,
	OPT_HIST_CHUNK, OPT_HIST_FULL_ASKED, OPT_MEDIA_DELAY,
};

static int
parse_opts(int argc, char **argv, struct sim_opts *o)
{
	static const struct option	 longopts[] = {
		{ "host", required_argument, NULL, OPT_HOST },
		{ "port", required_argument, NULL, OPT_PORT },
		{ "admin-port", required_argument, NULL, OPT_ADMIN_PORT },
		{ "root-key", required_argument, NULL, OPT_ROOT_KEY },
		{ "cert-fault", required_argument, NULL, OPT_CERT_FAULT },
		{ "tls-cert", required_argument, NULL, OPT_TLS_CERT },
		{ "tls-key", required_argument, NULL, OPT_TLS_KEY },
		{ "refs", required_argument, NULL, OPT_REFS },
		{ "prekeys", required_argument, NULL, OPT_PREKEYS },
		{ "min-version", required_argument, NULL, OPT_MIN_VERSION },
		{ "handshake-timeout", required_argument, NULL, OPT_HS_TIMEOUT },
		{ "sw-revision", required_argument, NULL, OPT_SW_REVISION },
		{ "reg-refresh-pct", required_argument, NULL, OPT_REFRESH_PCT },
		{ "group-addressing", required_argument, NULL, OPT_GROUP_ADDR },
		{ "media-port", required_argument, NULL, OPT_MEDIA_PORT },
		{ "media-delay-ms", required_argument, NULL, OPT_MEDIA_DELAY },
		{ "history-chats", required_argument, NULL, OPT_HIST_CHATS },
		{ "history-messages", required_argument, NULL, OPT_HIST_MSGS },
		{ "history-seed", required_argument, NULL, OPT_HIST_SEED },
		{ "history-chunk", required_argument, NULL, OPT_HIST_CHUNK },
		{ "history-full-if-asked", no_argument, NULL,
		    OPT_HIST_FULL_ASKED },
		{ "log", required_argument, NULL, OPT_LOG },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long	 v;
	int		 ch;

	while ((ch = getopt_long(argc, argv, "vhV", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_HOST:
			o->host = optarg;
			break;
		case OPT_PORT:
		case OPT_ADMIN_PORT:
			if (parse_uint(optarg, 65535, &v) != 0) {
				fprintf(stderr, "wachat-sim: bad port %s\n",
				    optarg);
				return 2;
			}
			if (ch == OPT_PORT)
				o->port = (int)v;
			else
				o->admin_port = (int)v;
			break;
		case OPT_ROOT_KEY:
			o->root_key_file = optarg;
			break;
		case OPT_CERT_FAULT:
			if (sim_cert_fault_parse(optarg, &o->cert_fault) != 0) {
				fprintf(stderr, "wachat-sim: --cert-fault: none, "
				    "other-root, leaf-key, expired or "
				    "issuer-serial\n");
				return 2;
			}
			break;
		case OPT_TLS_CERT:
			o->tls_cert = optarg;
			break;
		case OPT_TLS_KEY:
			o->tls_key = optarg;
			break;
		case OPT_REFS:
			if (parse_uint(optarg, SIM_REFS_MAX, &v) != 0 || v == 0) {
				fprintf(stderr, "wachat-sim: --refs: 1-%d\n",
				    SIM_REFS_MAX);
				return 2;
			}
			o->nrefs = (unsigned)v;
			break;
		case OPT_PREKEYS:
			if (parse_uint(optarg, 2000, &v) != 0) {
				fprintf(stderr, "wachat-sim: --prekeys: 0-2000\n");
				return 2;
			}
			o->nprekeys = (unsigned)v;
			break;
		case OPT_MIN_VERSION:
			if (parse_uint(optarg, UINT32_MAX, &v) != 0) {
				fprintf(stderr, "wachat-sim: bad --min-version\n");
				return 2;
			}
			o->min_revision = (uint32_t)v;
			break;
		case OPT_SW_REVISION:
			if (parse_uint(optarg, UINT32_MAX, &v) != 0 || v == 0) {
				fprintf(stderr, "wachat-sim: bad --sw-revision\n");
				return 2;
			}
			o->sw_revision = (uint32_t)v;
			break;
		case OPT_REFRESH_PCT:
			if (parse_uint(optarg, 100, &v) != 0) {
				fprintf(stderr, "wachat-sim: --reg-refresh-pct: "
				    "0-100\n");
				return 2;
			}
			o->refresh_pct = (unsigned)v;
			break;
		case OPT_GROUP_ADDR:
			if (strcmp(optarg, "lid") != 0 &&
			    strcmp(optarg, "pn") != 0) {
				fprintf(stderr, "wachat-sim: --group-addressing: "
				    "lid or pn\n");
				return 2;
			}
			o->group_pn = strcmp(optarg, "pn") == 0;
			break;
		case OPT_MEDIA_PORT:
			if (parse_uint(optarg, 65535, &v) != 0) {
				fprintf(stderr, "wachat-sim: bad port %s\n",
				    optarg);
				return 2;
			}
			o->media_port = (int)v;
			break;
		case OPT_MEDIA_DELAY:
			if (parse_uint(optarg, 60000, &v) != 0) {
				fprintf(stderr, "wachat-sim: --media-delay-ms: "
				    "0-60000\n");
				return 2;
			}
			o->media_delay_ms = (unsigned)v;
			break;
		case OPT_HIST_CHATS:
			if (parse_uint(optarg, 20000, &v) != 0) {
				fprintf(stderr, "wachat-sim: --history-chats: "
				    "0-20000\n");
				return 2;
			}
			o->hist_chats = (unsigned)v;
			break;
		case OPT_HIST_MSGS:
			if (parse_uint(optarg, 2000000, &v) != 0) {
				fprintf(stderr, "wachat-sim: --history-messages: "
				    "0-2000000\n");
				return 2;
			}
			o->hist_msgs = (unsigned)v;
			break;
		case OPT_HIST_SEED:
			if (parse_uint(optarg, ULONG_MAX, &v) != 0) {
				fprintf(stderr, "wachat-sim: bad --history-seed\n");
				return 2;
			}
			o->hist_seed = v;
			break;
		case OPT_HIST_CHUNK:
			if (parse_uint(optarg, 100000, &v) != 0 || v == 0) {
				fprintf(stderr, "wachat-sim: --history-chunk: "
				    "1-100000\n");
				return 2;
			}
			o->hist_chunk = (unsigned)v;
			break;
		case OPT_HIST_FULL_ASKED:
			o->hist_full_if_asked = true;
			break;
		case OPT_HS_TIMEOUT:
			if (parse_uint(optarg, 3600, &v) != 0 || v == 0) {
				fprintf(stderr, "wachat-sim: bad "
				    "--handshake-timeout\n");
				return 2;
			}
			o->handshake_timeout_s = (unsigned)v;
			break;
		case OPT_LOG:
			o->log_file = optarg;
			break;
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
