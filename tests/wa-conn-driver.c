/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/wa-conn-driver.c -- a tiny client on proto/conn.c for the
 * tests/sim-*.sh scripts: connects as a new companion (registration) or
 * as a paired one (--login), prints what happens as lines on stdout, and
 * stops when the awaited event comes.  Lines:
 *   open                          handshake done, chain verified
 *   recv <stanza, one line>       every stanza received
 *   pair-device refs=N            a pair-device iq (it is acknowledged)
 *   qr TEXT                       the QR text for the first ref (--print-qr)
 *   close err=N (TEXT): REASON    on_close
 *   timeout                       the --deadline-ms passed
 * Exit status: 0 when the awaited event came, 1 on a usage or set-up
 * error, 2 on timeout, 3 when the connection ended first, 4 when libuv
 * handles were left open at the end.
 */
#include "base/compat.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include <uv.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"
#include "proto/conn.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "base/sysrand.h"
#include "base/xmalloc.h"

enum until { UNTIL_PAIR_DEVICE, UNTIL_OPEN, UNTIL_CLOSE };

struct drv {
	uv_loop_t		 loop;
	uv_timer_t		 deadline;
	struct wa_conn		*c;
	enum until		 until;
	int			 reconnects;	/* left */
	bool			 print_qr;
	bool			 done;
	int			 status;
	int64_t			 skew_ms;
	struct buf		 payload;
	uint8_t			 noise_priv[32], noise_pub[32];
	uint8_t			 ident_pub[32];
	uint8_t			 adv[32];
};

static int64_t
now_ms(void *arg)
{
	struct drv	*d = arg;

	return sys_now_ms(NULL) + d->skew_ms;
}

static void
finish(struct drv *d, int status)
{
	if (d->done)
		return;
	d->done = true;
	d->status = status;
	fflush(stdout);
	wa_conn_free(d->c);
	d->c = NULL;
	uv_close((uv_handle_t *)&d->deadline, NULL);
}

static void
print_node(const struct wa_node *n)
{
	struct buf	 txt = BUF_INIT;
	size_t		 i;
	bool		 space = false;

	wa_bin_print(n, 0, &txt);
	fputs("recv ", stdout);
	for (i = 0; i < txt.len; i++) {
		uint8_t	 ch = txt.p[i];

		if (ch == '\n' || ch == ' ') {
			space = true;
			continue;
		}
		if (space)
			putchar(' ');
		space = false;
		putchar(ch);
	}
	putchar('\n');
	buf_release(&txt);
}

static void
b64(const uint8_t *p, size_t len, char *out)
{
	EVP_EncodeBlock((unsigned char *)out, p, (int)len);
}

/* Acknowledge pair-device (protocol.md 6.1) and report it. */
static void
on_pair_device(struct drv *d, const struct wa_node *iq,
    const struct wa_node *pd)
{
	const struct wa_val	*id = wa_node_attr(iq, "id");
	struct arena		 a;
	struct wa_node		 ack;
	struct wa_attr		 at[3];
	struct buf		 out = BUF_INIT;
	size_t			 i, nrefs = 0;
	const struct wa_node	*first = NULL;

	if (pd->content.kind == WA_VAL_LIST)
		for (i = 0; i < pd->content.u.list.n; i++)
			if (wa_str_eqc(pd->content.u.list.v[i].tag, "ref")) {
				if (first == NULL)
					first = &pd->content.u.list.v[i];
				nrefs++;
			}
	memset(&ack, 0, sizeof(ack));
	memset(at, 0, sizeof(at));
	ack.tag = wa_str_c("iq");
	at[0].key = wa_str_c("to");
	at[0].val.kind = WA_VAL_JID;
	at[0].val.u.jid.server = wa_str_c("s.whatsapp.net");
	at[1].key = wa_str_c("type");
	at[1].val.kind = WA_VAL_STR;
	at[1].val.u.str = wa_str_c("result");
	at[2].key = wa_str_c("id");
	at[2].val.kind = WA_VAL_STR;
	if (id != NULL)
		at[2].val.u.str = id->u.str;
	ack.attrs = at;
	ack.nattrs = 3;
	arena_init(&a, 0);
	if (wa_bin_encode(&ack, &out) == 0 &&
	    wa_conn_send(d->c, out.p, out.len) != 0)
		printf("ack-failed\n");
	buf_release(&out);
	arena_release(&a);
	printf("pair-device refs=%zu\n", nrefs);
	if (d->print_qr && first != NULL && (first->content.kind ==
	    WA_VAL_BYTES || first->content.kind == WA_VAL_STR)) {
		char	 k1[48], k2[48], k3[48];

		b64(d->noise_pub, 32, k1);
		b64(d->ident_pub, 32, k2);
		b64(d->adv, 32, k3);
		printf("qr https://wa.me/settings/linked_devices#%.*s,%s,%s,%s,9\n",
		    (int)first->content.u.str.len, first->content.u.str.p, k1,
		    k2, k3);
	}
	if (d->until == UNTIL_PAIR_DEVICE)
		finish(d, 0);
}

static void
ev_open(void *arg)
{
	(void)arg;
	printf("open\n");
	fflush(stdout);
	if (((struct drv *)arg)->until == UNTIL_OPEN)
		finish(arg, 0);
}

static void
ev_frame(void *arg, const uint8_t *p, size_t len)
{
	struct drv	*d = arg;
	struct arena	 a;
	struct wa_node	*n;
	size_t		 off = 0;
	int		 rc;

	arena_init(&a, 0);
	if ((rc = wa_bin_unpack(p, len, &a, &n, &off)) != 0)
		printf("undecodable err=%d (%s) at %zu\n", rc, wc_strerror(rc),
		    off);
	else {
		const struct wa_node	*pd = NULL;
		size_t			 i;

		print_node(n);
		if (wa_str_eqc(n->tag, "iq") && n->content.kind == WA_VAL_LIST)
			for (i = 0; i < n->content.u.list.n; i++)
				if (wa_str_eqc(n->content.u.list.v[i].tag,
				    "pair-device"))
					pd = &n->content.u.list.v[i];
		if (pd != NULL)
			on_pair_device(d, n, pd);
	}
	fflush(stdout);
	arena_release(&a);
}

static void
ev_close(void *arg, int err, const char *reason)
{
	struct drv	*d = arg;
	int		 rc;

	printf("close err=%d (%s): %s\n", err, wc_strerror(err), reason);
	fflush(stdout);
	if (d->done)
		return;
	if (d->reconnects > 0) {
		d->reconnects--;
		printf("reconnect\n");
		if ((rc = wa_conn_open(d->c, d->noise_priv, d->payload.p,
		    d->payload.len)) != 0) {
			printf("reopen failed: %s\n", wc_strerror(rc));
			finish(d, 1);
		}
		return;
	}
	finish(d, d->until == UNTIL_CLOSE ? 0 : 3);
}

static void
on_deadline(uv_timer_t *t)
{
	struct drv	*d = t->data;

	printf("timeout\n");
	finish(d, 2);
}

static int
read_root_file(const char *path, uint8_t out[32])
{
	FILE	*f = fopen(path, "r");
	char	 line[256];
	int	 rc = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		size_t	 i;

		if (strncmp(line, "public=", 7) != 0)
			continue;
		for (i = 0; i < 32; i++) {
			unsigned	 v;

			if (sscanf(line + 7 + 2 * i, "%2x", &v) != 1)
				break;
			out[i] = (uint8_t)v;
		}
		rc = i == 32 ? 0 : -1;
	}
	fclose(f);
	return rc;
}

static int
parse_hex32(const char *s, uint8_t out[32])
{
	size_t	 i;

	if (strlen(s) != 64)
		return -1;
	for (i = 0; i < 32; i++) {
		unsigned	 v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	return 0;
}

static void
usage(FILE *f)
{
	fputs("Usage: wa-conn-driver --url URL [--root HEX | --root-file FILE]\n"
	    "  [--ca-file FILE] [--max-frame N] [--handshake-timeout-ms N]\n"
	    "  [--version V] [--login PN:DEV] [--push-name NAME]\n"
	    "  [--until pair-device|open|close] [--reconnects N]\n"
	    "  [--deadline-ms N] [--clock-skew-s N] [--print-qr]\n", f);
}

/* Make registration material as a fresh companion would (3.2). */
static int
make_reg(struct drv *d, const char *version, const char *push_name)
{
	struct wa_conn_reg	 r;
	uint8_t			 ident_priv[32], spk_priv[32], msg[33];
	uint8_t			 rnd[64];
	int			 rc;

	memset(&r, 0, sizeof(r));
	if (sys_random(NULL, ident_priv, 32) != 0 || sys_random(NULL, spk_priv, 32) != 0 ||
	    sys_random(NULL, rnd, 64) != 0 || sys_random(NULL, (uint8_t *)&r.reg_id, 4) != 0 ||
	    sys_random(NULL, d->adv, 32) != 0)
		return -1;
	r.reg_id &= 0x3fff;
	r.spk_id = 1;
	wa_crypto_x25519_base(ident_priv, r.ident_pub);
	memcpy(d->ident_pub, r.ident_pub, 32);
	wa_crypto_x25519_base(spk_priv, r.spk_pub);
	msg[0] = 5;
	memcpy(msg + 1, r.spk_pub, 32);
	if ((rc = wa_crypto_xeddsa_sign(ident_priv, msg, sizeof(msg), rnd,
	    r.spk_sig)) != 0)
		return rc;
	r.os = "wa-conn-driver";
	wa_crypto_wipe(ident_priv, sizeof(ident_priv));
	wa_crypto_wipe(spk_priv, sizeof(spk_priv));
	return wa_conn_payload_reg(version, &r, push_name, &d->payload);
}

/* What the options say beyond the connection's configuration. */
struct opts {
	const char	*version, *login, *push;
	unsigned long	 deadline;	/* ms */
	bool		 have_root, have_noise;
	uint8_t		 root[32];	/* for cfg->root_pub */
};

/* --until pair-device|open|close into d; -1 when it is none of them. */
static int
parse_until(const char *arg, struct drv *d)
{
	if (strcmp(arg, "pair-device") == 0)
		d->until = UNTIL_PAIR_DEVICE;
	else if (strcmp(arg, "open") == 0)
		d->until = UNTIL_OPEN;
	else if (strcmp(arg, "close") == 0)
		d->until = UNTIL_CLOSE;
	else
		return -1;
	return 0;
}

/* The options into d, cfg and o: -1 to go on, else the exit status. */
static int
parse_opts(int argc, char **argv, struct drv *d, struct wa_conn_cfg *cfg,
    struct opts *o)
{
	static const struct option	 longopts[] = {
		{ "url", required_argument, NULL, 'u' },
		{ "root", required_argument, NULL, 'r' },
		{ "root-file", required_argument, NULL, 'R' },
		{ "ca-file", required_argument, NULL, 'C' },
		{ "max-frame", required_argument, NULL, 'm' },
		{ "handshake-timeout-ms", required_argument, NULL, 'H' },
		{ "version", required_argument, NULL, 'v' },
		{ "login", required_argument, NULL, 'l' },
		{ "push-name", required_argument, NULL, 'p' },
		{ "until", required_argument, NULL, 't' },
		{ "reconnects", required_argument, NULL, 'n' },
		{ "deadline-ms", required_argument, NULL, 'd' },
		{ "clock-skew-s", required_argument, NULL, 's' },
		{ "noise-key", required_argument, NULL, 'k' },
		{ "print-qr", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int	 ch;

	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'u':
			cfg->url = optarg;
			break;
		case 'r':
			if (parse_hex32(optarg, o->root) != 0) {
				fprintf(stderr, "--root: 64 hex digits\n");
				return 1;
			}
			o->have_root = true;
			break;
		case 'R':
			if (read_root_file(optarg, o->root) != 0) {
				fprintf(stderr, "%s: no public=HEX line\n",
				    optarg);
				return 1;
			}
			o->have_root = true;
			break;
		case 'C':
			cfg->ca_file = optarg;
			break;
		case 'm':
			cfg->max_frame = strtoul(optarg, NULL, 10);
			break;
		case 'H':
			cfg->handshake_timeout_ms = (uint32_t)strtoul(optarg,
			    NULL, 10);
			break;
		case 'v':
			o->version = optarg;
			break;
		case 'l':
			o->login = optarg;
			break;
		case 'p':
			o->push = optarg;
			break;
		case 't':
			if (parse_until(optarg, d) != 0) {
				usage(stderr);
				return 1;
			}
			break;
		case 'n':
			d->reconnects = (int)strtol(optarg, NULL, 10);
			break;
		case 'd':
			o->deadline = strtoul(optarg, NULL, 10);
			break;
		case 's':
			d->skew_ms = strtoll(optarg, NULL, 10) * 1000;
			break;
		case 'k':
			if (parse_hex32(optarg, d->noise_priv) != 0) {
				fprintf(stderr, "--noise-key: 64 hex digits\n");
				return 1;
			}
			o->have_noise = true;
			break;
		case 'q':
			d->print_qr = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (cfg->url == NULL || optind != argc) {
		usage(stderr);
		return 1;
	}
	return -1;
}

/* The ClientPayload into d->payload: a login as --login PN:DEVICE says,
 * else a registration.  Returns 0, or 1 (said on stderr). */
static int
make_payload(struct drv *d, const struct opts *o)
{
	int	 rc;

	if (o->login != NULL) {
		unsigned long long	 pn;
		unsigned long		 dev = 0;
		char			*end;

		pn = strtoull(o->login, &end, 10);
		if (*end == ':')
			dev = strtoul(end + 1, &end, 10);
		if (*end != '\0' || pn == 0) {
			fprintf(stderr, "--login: PN:DEVICE\n");
			return 1;
		}
		rc = wa_conn_payload_login(o->version, pn, (uint32_t)dev,
		    o->push, &d->payload);
	} else
		rc = make_reg(d, o->version, o->push);
	if (rc != 0) {
		fprintf(stderr, "cannot build the ClientPayload: %s\n",
		    wc_strerror(rc));
		return 1;
	}
	return 0;
}

/* Connect and run until the awaited event, the deadline or the end.
 * Returns the exit status. */
static int
run(struct drv *d, struct wa_conn_cfg *cfg, const struct opts *o)
{
	int	 rc;

	cfg->root_pub = o->have_root ? o->root : NULL;
	cfg->rng = sys_random;
	cfg->now_ms = now_ms;
	cfg->clock_arg = d;
	cfg->ev.on_open = ev_open;
	cfg->ev.on_frame = ev_frame;
	cfg->ev.on_close = ev_close;
	cfg->ev.arg = d;
	wa_conn_set_lws_log(1 | 2, NULL);	/* LLL_ERR | LLL_WARN */
	uv_loop_init(&d->loop);
	if ((rc = wa_conn_new(&d->loop, cfg, &d->c)) != 0) {
		fprintf(stderr, "wa_conn_new: %s\n", wc_strerror(rc));
		uv_loop_close(&d->loop);
		return 1;
	}
	uv_timer_init(&d->loop, &d->deadline);
	d->deadline.data = d;
	uv_timer_start(&d->deadline, on_deadline, o->deadline, 0);
	if ((rc = wa_conn_open(d->c, d->noise_priv, d->payload.p,
	    d->payload.len)) != 0) {
		fprintf(stderr, "wa_conn_open: %s\n", wc_strerror(rc));
		finish(d, 1);
	}
	uv_run(&d->loop, UV_RUN_DEFAULT);
	if (uv_loop_close(&d->loop) != 0) {
		printf("handles left open\n");
		d->status = 4;
	}
	return d->status;
}

int
main(int argc, char **argv)
{
	struct drv		 d;
	struct wa_conn_cfg	 cfg;
	struct opts		 o;
	int			 rc;

	memset(&d, 0, sizeof(d));
	memset(&cfg, 0, sizeof(cfg));
	memset(&o, 0, sizeof(o));
	o.deadline = 15000;
	if ((rc = parse_opts(argc, argv, &d, &cfg, &o)) >= 0)
		return rc;
	if (wa_crypto_init() != 0)
		return 1;
	if (!o.have_noise && sys_random(NULL, d.noise_priv, 32) != 0)
		return 1;
	wa_crypto_x25519_base(d.noise_priv, d.noise_pub);
	if (make_payload(&d, &o) != 0)
		return 1;
	rc = run(&d, &cfg, &o);
	wa_crypto_wipe(d.noise_priv, sizeof(d.noise_priv));
	buf_release(&d.payload);
	return rc;
}
