/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/eng.c -- the connection engine (proto/eng.h): registration
 * material, QR pairing, login, prekey upload, keepalive, stream errors and
 * reconnects.  Sections of protocol.md are named where each fact is used.
 * Besides proto/conn.c this is the one file of proto/ on libuv: its timers
 * (QR rotation, keepalive, reconnect) run on the engine's loop.  Pairing by
 * code (6.7, crypto in proto/paircode.c) runs its two PBKDF2s (131072
 * rounds each, tens of ms) on the loop: nothing else runs on an unpaired
 * registration connection.  The version look-up after failure 405 (3.3)
 * runs on a libuv worker (proto/engver.c).  It also
 * writes the QR file when one is configured (a setting the demo uses).
 */
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>
#include <uv.h>

#define LOG_TAG "eng"

#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"
#include "proto/conn.h"
#include "proto/crypto.h"
#include "proto/eng.h"
#include "proto/engver.h"
#include "base/err.h"
#include "base/log.h"
#include "proto/pair.h"
#include "proto/dm.h"
#include "proto/hsync.h"
#include "proto/node.h"
#include "proto/paircode.h"
#include "base/i18n.h"
#include "base/xmalloc.h"

/* 6.2 */
#define QR_PREFIX	"https://wa.me/settings/linked_devices#"
#define MAX_REFS	16	/* the server sends 6 (6.1) */
#define MAX_REF_LEN	256
#define IQ_ID_LEN	32
#define N_TIMERS	3

enum conn_kind { KIND_NONE, KIND_REG, KIND_LOGIN };
/* What follows a lost connection. */
enum next { NEXT_RETRY, NEXT_NOW, NEXT_STOP, NEXT_LOGOUT, NEXT_LOOKUP };
/* A phone-number code link (6.7) on the current connection. */
enum lc_state {
	LC_NONE,	/* none asked, or not yet sent */
	LC_HELLO,	/* companion_hello sent, its result awaited */
	LC_CODE,	/* the code is shown; the phone's notification awaited */
	LC_FINISH,	/* companion_finish sent: pair-success awaited, with
			 * the ADV secret derived from the code */
};
#define PN_MAX		24	/* bytes of a phone number, with the NUL */

struct wa_eng {
	uv_loop_t		*loop;
	struct wa_conn		*c;
	uv_timer_t		 t_retry, t_qr, t_ping;
	int			 open_timers;
	bool			 started, freed, halted;
	const struct wa_store_ops *st;
	wa_conn_rng_fn		 rng;
	void			*rng_arg;
	wa_conn_clock_fn	 now;
	void			*clock_arg;
	wa_eng_event_fn		 on_event;
	void			*ev_arg;
	char			*version, *os, *qr_file;
	uint32_t		 qr_first_ms, qr_next_ms, ping_ms, ping_dl_ms;
	uint32_t		 retry_cap_ms;

	struct wa_device	 dev;
	enum conn_kind		 kind;
	bool			 online;
	int64_t			 online_since_ms;
	uint32_t		 attempt;	/* connects made */
	uint32_t		 fails;		/* since the last stable link */

	char			 refs[MAX_REFS][MAX_REF_LEN];
	size_t			 nrefs, ref_idx;

	char			 idp[12];	/* iq id prefix */
	uint32_t		 idn;
	char			 ping_id[IQ_ID_LEN];
	bool			 ping_out;
	char			 count_id[IQ_ID_LEN];
	char			 upload_id[IQ_ID_LEN];
	uint32_t		*upload_ids;	/* ids of the upload */
	size_t			 upload_n;
	bool			 uploaded;	/* on this connection */
	char			 text[1024];	/* event text */

	/* failure 405 (3.3) */
	char			*version_url, *ca_file;
	bool			 full_history;	/* requireFullSync at linking */
	bool			 version_pinned;	/* set by the user */
	bool			 version_retried;	/* since the last login */
	struct wa_engver	*lookup;		/* in flight, or NULL */

	/* pairing by code (6.7) */
	char			 lc_pn[PN_MAX];	/* "" = pair by QR */
	enum lc_state		 lc;
	char			 lc_code[WA_PAIRCODE_LEN + 1];
	uint8_t			 lc_eph_priv[WA_ENG_KEY_LEN];
	char			 lc_ref[MAX_REF_LEN];
	char			 lc_id[IQ_ID_LEN];	/* hello or finish */

	/* 1:1 messaging (proto/dm.h); NULL without its stores */
	struct wa_signal	*sig;
	struct wa_dm		*dm;
	struct wa_dm_host	 dm_host;
	/* history sync (proto/hsync.h); NULL without its store */
	struct wa_hsync		*hs;
	struct wa_hsync_host	 hs_host;
};

static void	connect_now(struct wa_eng *e);
static void	lc_hello(struct wa_eng *e);
static void	lc_reset(struct wa_eng *e);
static void	start_lookup(struct wa_eng *e);

/* Start timer t unless the engine is being freed (a callback may have
 * called wa_eng_free()). */
static void
timer_start(struct wa_eng *e, uv_timer_t *t, uv_timer_cb cb, uint64_t ms)
{
	if (!e->freed)
		uv_timer_start(t, cb, ms, 0);
}
static void	on_retry_timer(uv_timer_t *t);

/* --- small helpers --- */

static void
emit(struct wa_eng *e, enum wa_eng_ev_kind kind, int err, const char *text,
    uint32_t num, uint32_t id)
{
	struct wa_eng_ev	 ev;

	if (e->freed)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.err = err;
	ev.text = text != NULL ? text : "";
	ev.num = num;
	ev.id = id;
	e->on_event(e->ev_arg, &ev);
}

static void
emitf(struct wa_eng *e, enum wa_eng_ev_kind kind, int err, const char *fmt,
    ...) PRINTFLIKE(4, 5);

static void
emitf(struct wa_eng *e, enum wa_eng_ev_kind kind, int err, const char *fmt,
    ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), gettext(fmt), ap);
	va_end(ap);
	emit(e, kind, err, e->text, 0, 0);
}

static int64_t
now_ms(struct wa_eng *e)
{
	return e->now(e->clock_arg);
}

/* A uniform random value in [0, n); 0 when the RNG fails. */
static uint32_t
rand_below(struct wa_eng *e, uint32_t n)
{
	uint32_t	 r = 0;

	if (n == 0 || e->rng(e->rng_arg, (uint8_t *)&r, sizeof(r)) != 0)
		return 0;
	return r % n;
}

static void
next_id(struct wa_eng *e, char out[IQ_ID_LEN])
{
	snprintf(out, IQ_ID_LEN, "%s.%" PRIu32, e->idp, ++e->idn);
}

int
wa_eng_qr_text(const char *ref, size_t ref_len,
    const uint8_t noise_pub[WA_ENG_KEY_LEN],
    const uint8_t identity_pub[WA_ENG_KEY_LEN],
    const uint8_t adv_secret[WA_ENG_KEY_LEN], char *out, size_t out_len)
{
	char	 k1[48], k2[48], k3[48];
	int	 n;

	if (ref_len > INT32_MAX)
		return WC_ETOOBIG;
	/* Standard padded base64 (protocol.md 6.2), by libsodium. */
	sodium_bin2base64(k1, sizeof(k1), noise_pub, WA_ENG_KEY_LEN,
	    sodium_base64_VARIANT_ORIGINAL);
	sodium_bin2base64(k2, sizeof(k2), identity_pub, WA_ENG_KEY_LEN,
	    sodium_base64_VARIANT_ORIGINAL);
	sodium_bin2base64(k3, sizeof(k3), adv_secret, WA_ENG_KEY_LEN,
	    sodium_base64_VARIANT_ORIGINAL);
	n = snprintf(out, out_len, "%s%.*s,%s,%s,%s,9", QR_PREFIX,
	    (int)ref_len, ref, k1, k2, k3);
	if (n < 0 || (size_t)n >= out_len)
		return WC_ETOOBIG;
	return n;
}

/* --- sending --- */

static int
send_node(struct wa_eng *e, const struct wa_node *n)
{
	struct buf	 out = BUF_INIT;
	int		 rc;

	if (e->c == NULL)
		return -ESHUTDOWN;	/* wa_eng_free() from a callback */
	if ((rc = wa_bin_encode(n, &out)) == 0)
		rc = wa_conn_send(e->c, out.p, out.len);
	if (rc != 0)
		log_warn("send <%.*s>: %s", (int)n->tag.len, n->tag.p,
		    wc_strerror(rc));
	wa_crypto_wipe(out.p, out.len);
	buf_release(&out);
	return rc;
}

/* An iq to s.whatsapp.net with room for two more attributes. */
static struct wa_node *
iq(struct arena *a, const char *id, const char *type, const char *xmlns)
{
	struct wa_node	*n = wa_nb_new(a, "iq", 5);

	wa_nb_attr(n, "id", id);
	if (xmlns != NULL)
		wa_nb_attr(n, "xmlns", xmlns);
	wa_nb_attr(n, "type", type);
	wa_nb_attr_server(n, "to");
	return n;
}

/* Parse "PN[:DEV]@server" into the login's username and device (6.6). */
static int
parse_own_jid(const char *jid, uint64_t *pn, uint32_t *device)
{
	char		*end;
	unsigned long long u;

	errno = 0;
	u = strtoull(jid, &end, 10);
	if (errno != 0 || end == jid || u == 0)
		return -EINVAL;
	*device = 0;
	if (*end == ':') {
		unsigned long	 d = strtoul(end + 1, &end, 10);

		if (d > 0xffff)
			return -EINVAL;
		*device = (uint32_t)d;
	}
	if (*end != '@')
		return -EINVAL;
	*pn = u;
	return 0;
}

/* --- the QR file --- */

static void
qr_file_write(struct wa_eng *e, const char *text)
{
	char	 tmp[4096];
	size_t	 len = strlen(text);
	int	 fd, rc = 0;

	if (e->qr_file == NULL)
		return;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", e->qr_file) >=
	    (int)sizeof(tmp)) {
		rc = -ENAMETOOLONG;
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	if (fchmod(fd, 0600) != 0 || write(fd, text, len) != (ssize_t)len ||
	    write(fd, "\n", 1) != 1)
		rc = errno != 0 ? -errno : -EIO;
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, e->qr_file) != 0)
		rc = -errno;
	if (rc != 0)
		(void)unlink(tmp);
out:
	if (rc != 0) {
		log_warn("QR file %s: %s", e->qr_file, wc_strerror(rc));
		emitf(e, WA_ENG_EV_ERROR, rc, "cannot write the QR file %s",
		    e->qr_file);
	}
}

static void
qr_file_remove(struct wa_eng *e)
{
	if (e->qr_file != NULL)
		(void)unlink(e->qr_file);
}

/* --- registration material (3.2) --- */

static int
make_device(struct wa_eng *e)
{
	struct wa_device	*d = &e->dev;
	uint8_t			 msg[1 + WA_ENG_KEY_LEN];
	uint8_t			 rnd[WA_CRYPTO_SIG_RANDOM_LEN];
	uint16_t		 reg;
	int			 rc;

	memset(d, 0, sizeof(*d));
	if ((rc = e->rng(e->rng_arg, d->noise_priv, WA_ENG_KEY_LEN)) != 0 ||
	    (rc = e->rng(e->rng_arg, d->identity_priv, WA_ENG_KEY_LEN)) != 0 ||
	    (rc = e->rng(e->rng_arg, d->spk_priv, WA_ENG_KEY_LEN)) != 0 ||
	    (rc = e->rng(e->rng_arg, d->adv_secret, WA_ENG_KEY_LEN)) != 0 ||
	    (rc = e->rng(e->rng_arg, (uint8_t *)&reg, sizeof(reg))) != 0 ||
	    (rc = e->rng(e->rng_arg, rnd, sizeof(rnd))) != 0)
		goto out;
	wa_crypto_x25519_base(d->noise_priv, d->noise_pub);
	wa_crypto_x25519_base(d->identity_priv, d->identity_pub);
	wa_crypto_x25519_base(d->spk_priv, d->spk_pub);
	/* A 14-bit registration id, never 0 (libsignal's range 1..16380). */
	d->registration_id = (uint32_t)(reg % 16380) + 1;
	d->spk_id = 1;
	msg[0] = 0x05;	/* DJB key type: the signature covers 05 || pub */
	memcpy(msg + 1, d->spk_pub, WA_ENG_KEY_LEN);
	rc = wa_crypto_xeddsa_sign(d->identity_priv, msg, sizeof(msg), rnd,
	    d->spk_sig);
out:
	wa_crypto_wipe(rnd, sizeof(rnd));
	if (rc != 0)
		wa_crypto_wipe(d, sizeof(*d));
	return rc;
}

/* --- prekeys (7.3) --- */

/* Mark the in-flight upload's ids uploaded, one call per run of ids. */
static int
mark_uploaded(struct wa_eng *e)
{
	size_t	 i = 0;
	int	 rc = 0;

	while (i < e->upload_n && rc == 0) {
		size_t	 j = i;

		while (j + 1 < e->upload_n &&
		    e->upload_ids[j + 1] == e->upload_ids[j] + 1)
			j++;
		rc = e->st->prekey_mark_uploaded(e->st->arg, e->upload_ids[i],
		    e->upload_ids[j]);
		i = j + 1;
	}
	return rc;
}

/* Generate n keys under the store's next ids and store them in one
 * transaction.  Returns 0 or an error. */
static int
gen_prekeys(struct wa_eng *e, struct wa_prekey *k, size_t n)
{
	uint32_t	 id;
	size_t		 i;
	int		 rc;

	if ((rc = e->st->prekey_next_id(e->st->arg, &id)) != 0)
		return rc;
	for (i = 0; i < n; i++) {
		if (id == 0 || id > WA_ENG_PREKEY_ID_MAX)
			id = 1;	/* wrap (7.3, [RS]) */
		k[i].id = id++;
		if ((rc = e->rng(e->rng_arg, k[i].priv, WA_ENG_KEY_LEN)) != 0)
			return rc;
		wa_crypto_x25519_base(k[i].priv, k[i].pub);
	}
	/* Durable before they leave (style.md 3.1: persist before send). */
	if ((rc = e->st->prekey_put(e->st->arg, k, n)) != 0)
		return rc;
	emit(e, WA_ENG_EV_PREKEYS_STORED, 0, "", (uint32_t)n, k[0].id);
	return e->freed ? -ESHUTDOWN : 0;
}

static void
put3(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

/* Send the upload iq for k[0..n) (7.3). */
static int
send_upload(struct wa_eng *e, const struct wa_prekey *k, size_t n)
{
	struct arena	 a;
	struct wa_node	*n_iq, *c, *list, *keys, *sk;
	uint8_t		 reg[4], type = 0x05, spk_id[3];
	uint8_t		*ids;
	size_t		 i;
	int		 rc;

	arena_init(&a, 0);
	next_id(e, e->upload_id);
	n_iq = iq(&a, e->upload_id, "set", "encrypt");
	c = wa_nb_kids(&a, n_iq, 5);
	reg[0] = (uint8_t)(e->dev.registration_id >> 24);
	reg[1] = (uint8_t)(e->dev.registration_id >> 16);
	reg[2] = (uint8_t)(e->dev.registration_id >> 8);
	reg[3] = (uint8_t)e->dev.registration_id;
	wa_nb_bytes(wa_nb_kid(&a, &c[0], "registration", 0), reg, 4);
	wa_nb_bytes(wa_nb_kid(&a, &c[1], "type", 0), &type, 1);
	wa_nb_bytes(wa_nb_kid(&a, &c[2], "identity", 0), e->dev.identity_pub,
	    WA_ENG_KEY_LEN);
	list = wa_nb_kid(&a, &c[3], "list", 0);
	keys = wa_nb_kids(&a, list, n);
	ids = arena_alloc(&a, 3 * n);
	for (i = 0; i < n; i++) {
		struct wa_node	*kv = wa_nb_kids(&a, wa_nb_kid(&a, &keys[i], "key", 0), 2);

		put3(ids + 3 * i, k[i].id);
		wa_nb_bytes(wa_nb_kid(&a, &kv[0], "id", 0), ids + 3 * i, 3);
		wa_nb_bytes(wa_nb_kid(&a, &kv[1], "value", 0), k[i].pub,
		    WA_ENG_KEY_LEN);
	}
	sk = wa_nb_kids(&a, wa_nb_kid(&a, &c[4], "skey", 0), 3);
	put3(spk_id, e->dev.spk_id);
	wa_nb_bytes(wa_nb_kid(&a, &sk[0], "id", 0), spk_id, 3);
	wa_nb_bytes(wa_nb_kid(&a, &sk[1], "value", 0), e->dev.spk_pub, WA_ENG_KEY_LEN);
	wa_nb_bytes(wa_nb_kid(&a, &sk[2], "signature", 0), e->dev.spk_sig,
	    WA_ENG_SIG_LEN);
	rc = send_node(e, n_iq);
	arena_release(&a);
	if (rc != 0) {
		e->upload_id[0] = '\0';
		return rc;
	}
	free(e->upload_ids);
	e->upload_ids = xcalloc(n, sizeof(*e->upload_ids));
	for (i = 0; i < n; i++)
		e->upload_ids[i] = k[i].id;
	e->upload_n = n;
	emit(e, WA_ENG_EV_PREKEYS_SENT, 0, "", (uint32_t)n, k[0].id);
	return 0;
}

/*
 * Upload prekeys: first any stored but not uploaded (a crash between store
 * and upload: the same keys again, never new keys under their ids), else,
 * when gen > 0, gen new ones, stored before they are sent.
 */
static void
upload_prekeys(struct wa_eng *e, size_t gen)
{
	struct wa_prekey	*k;
	int			 rc, n;

	if (e->upload_id[0] != '\0')
		return;		/* one upload at a time */
	k = xcalloc(WA_ENG_PREKEY_FIRST, sizeof(*k));
	n = e->st->prekey_pending(e->st->arg, k, WA_ENG_PREKEY_FIRST);
	if (n < 0) {
		rc = n;
		goto fail;
	}
	if (n == 0 && gen > 0) {
		if (gen > WA_ENG_PREKEY_FIRST)
			gen = WA_ENG_PREKEY_FIRST;
		if ((rc = gen_prekeys(e, k, gen)) != 0)
			goto fail;
		n = (int)gen;
	} else if (n > 0)
		log_info("uploading %d stored prekeys from id %" PRIu32
		    " (not acknowledged before)", n, k[0].id);
	rc = n > 0 ? send_upload(e, k, (size_t)n) : 0;
	if (rc != 0)
		goto fail;
	wa_crypto_wipe(k, WA_ENG_PREKEY_FIRST * sizeof(*k));
	free(k);
	return;
fail:
	wa_crypto_wipe(k, WA_ENG_PREKEY_FIRST * sizeof(*k));
	free(k);
	log_warn("prekey upload: %s", wc_strerror(rc));
	emitf(e, WA_ENG_EV_ERROR, rc, "cannot upload prekeys: %s",
	    wc_strerror(rc));
}

static void
on_upload_reply(struct wa_eng *e, const struct wa_node *n)
{
	int	 rc;

	e->upload_id[0] = '\0';
	if (!wa_node_str_is(n, "type", "result")) {
		const struct wa_node	*er = wa_node_child(n, "error");
		struct wa_str		 code = wa_node_str(er, "code");

		emitf(e, WA_ENG_EV_ERROR, WC_EPROTO, "the server refused the "
		    "prekey upload (error %.*s)", (int)code.len,
		    code.p != NULL ? code.p : "");
		return;
	}
	e->uploaded = true;
	if ((rc = mark_uploaded(e)) != 0) {
		emitf(e, WA_ENG_EV_ERROR, rc, "cannot mark prekeys uploaded: "
		    "%s", wc_strerror(rc));
		return;
	}
	emit(e, WA_ENG_EV_PREKEYS_UPLOADED, 0, "", (uint32_t)e->upload_n,
	    e->upload_n > 0 ? e->upload_ids[0] : 0);
}

/* The server's count of our prekeys, from a count reply or an encrypt
 * notification (7.3, 7.4): top up below WA_ENG_PREKEY_MIN. */
static void
on_server_count(struct wa_eng *e, const struct wa_node *count)
{
	struct wa_str	 v = wa_node_str(count, "value");
	char		 tmp[16];
	unsigned long	 n;

	if (v.len == 0 || v.len >= sizeof(tmp))
		return;
	memcpy(tmp, v.p, v.len);
	tmp[v.len] = '\0';
	n = strtoul(tmp, NULL, 10);
	log_info("the server holds %lu of our prekeys", n);
	emit(e, WA_ENG_EV_PREKEY_COUNT, 0, "", n > UINT32_MAX ? UINT32_MAX :
	    (uint32_t)n, 0);
	if (e->freed)
		return;
	if (n >= WA_ENG_PREKEY_MIN || e->upload_id[0] != '\0')
		return;
	/* 812 when the server has none, else a batch of 50 (7.3). */
	upload_prekeys(e, n == 0 && !e->uploaded ? WA_ENG_PREKEY_FIRST :
	    WA_ENG_PREKEY_TOPUP);
}

/* --- timers and the connection's end --- */

static uint32_t
backoff_ms(struct wa_eng *e)
{
	uint64_t	 a = WA_ENG_RETRY_FIRST_MS, b = WA_ENG_RETRY_FIRST_MS;
	uint32_t	 i, d, cap = e->retry_cap_ms;

	/* Fibonacci: 1, 1, 2, 3, 5, ... s, capped (1.6, [RS]). */
	for (i = 0; i < e->fails && a < cap; i++) {
		uint64_t	 t = a + b;

		a = b;
		b = t;
	}
	d = a > cap ? cap : (uint32_t)a;
	/* +-10 % jitter. */
	return d - d / 10 + rand_below(e, d / 5 + 1);
}

static void
stop_timers(struct wa_eng *e)
{
	uv_timer_stop(&e->t_qr);
	uv_timer_stop(&e->t_ping);
	uv_timer_stop(&e->t_retry);
}

/*
 * The connection is over (or must be): close it, clear the per-connection
 * state, then retry, reconnect now, stop, or forget the device.
 */
static void
lost(struct wa_eng *e, int err, enum next nx, const char *reason)
{
	struct wa_eng_ev	 ev;
	int64_t			 t = now_ms(e);
	uint32_t		 delay = 0;
	int			 rc;

	if (e->freed)
		return;
	wa_conn_close(e->c);
	stop_timers(e);
	if (e->online && t - e->online_since_ms >= WA_ENG_STABLE_MS)
		e->fails = 0;
	e->online = false;
	if (e->dm != NULL)
		wa_dm_offline(e->dm);
	if (e->hs != NULL)
		wa_hsync_offline(e->hs);
	e->kind = KIND_NONE;
	e->ping_out = false;
	e->count_id[0] = e->upload_id[0] = e->ping_id[0] = '\0';
	e->uploaded = false;
	e->nrefs = e->ref_idx = 0;
	lc_reset(e);
	snprintf(e->text, sizeof(e->text), "%s", gettext(reason));
	log_info("connection lost: %s (%s)", reason, wc_strerror(err));
	switch (nx) {
	case NEXT_RETRY:
	case NEXT_NOW:
		if (nx == NEXT_RETRY) {
			delay = backoff_ms(e);
			e->fails++;
		}
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_ENG_EV_DISCONNECTED;
		ev.text = e->text;
		ev.err = err;
		ev.retry_ms = delay;
		e->on_event(e->ev_arg, &ev);
		timer_start(e, &e->t_retry, on_retry_timer, delay);
		break;
	case NEXT_STOP:
		e->halted = true;
		emit(e, WA_ENG_EV_STOPPED, err, e->text, 0, 0);
		break;
	case NEXT_LOOKUP:
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_ENG_EV_DISCONNECTED;
		ev.text = e->text;
		ev.err = err;
		e->on_event(e->ev_arg, &ev);
		start_lookup(e);
		break;
	case NEXT_LOGOUT:
		e->halted = true;
		qr_file_remove(e);
		if ((rc = e->st->device_forget(e->st->arg)) != 0)
			emitf(e, WA_ENG_EV_ERROR, rc, "cannot forget the "
			    "device in the store: %s", wc_strerror(rc));
		wa_crypto_wipe(&e->dev, sizeof(e->dev));
		snprintf(e->text, sizeof(e->text), "%s", reason);
		emit(e, WA_ENG_EV_LOGGED_OUT, err, e->text, 0, 0);
		break;
	}
}

static void
on_ping_timer(uv_timer_t *t)
{
	struct wa_eng	*e = t->data;
	struct arena	 a;
	struct wa_node	*n;
	char		 why[96];

	if (e->ping_out) {
		snprintf(why, sizeof(why), _("no answer to the keepalive ping "
		    "within %" PRIu32 " s"), e->ping_dl_ms / 1000);
		lost(e, -ETIMEDOUT, NEXT_RETRY, why);
		return;
	}
	/* 1.4: <iq xmlns="w:p" type="get" to=s.whatsapp.net><ping/></iq>. */
	arena_init(&a, 0);
	next_id(e, e->ping_id);
	n = iq(&a, e->ping_id, "get", "w:p");
	wa_nb_kid(&a, wa_nb_kids(&a, n, 1), "ping", 0);
	if (send_node(e, n) == 0)
		e->ping_out = true;
	arena_release(&a);
	timer_start(e, &e->t_ping, on_ping_timer, e->ping_dl_ms);
}

static void
schedule_ping(struct wa_eng *e)
{
	uint32_t	 ms = e->ping_ms;

	if (ms == 0)
		ms = WA_ENG_PING_MIN_MS + rand_below(e, WA_ENG_PING_MAX_MS -
		    WA_ENG_PING_MIN_MS + 1);
	timer_start(e, &e->t_ping, on_ping_timer, ms);
}

/* --- pairing (6.1-6.6) --- */

static void
show_qr(struct wa_eng *e)
{
	uint32_t		 ms = e->ref_idx == 0 ? e->qr_first_ms :
				    e->qr_next_ms;
	const char		*ref = e->refs[e->ref_idx];
	char			 qr[512];
	struct wa_eng_ev	 ev;
	int			 n;

	n = wa_eng_qr_text(ref, strlen(ref), e->dev.noise_pub,
	    e->dev.identity_pub, e->dev.adv_secret, qr, sizeof(qr));
	if (n < 0) {
		emitf(e, WA_ENG_EV_ERROR, n, "a QR ref too long to show");
		return;
	}
	qr_file_write(e, qr);
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_ENG_EV_QR;
	ev.text = qr;
	ev.secs = ms / 1000;
	ev.num = (uint32_t)e->ref_idx;
	e->on_event(e->ev_arg, &ev);
	wa_crypto_wipe(qr, sizeof(qr));
}

static void
on_qr_timer(uv_timer_t *t)
{
	struct wa_eng	*e = t->data;

	if (++e->ref_idx >= e->nrefs) {
		/* 6.2: the refs ran out; a new connection brings new ones. */
		lost(e, 0, NEXT_NOW,
		    "the QR codes expired; asking for new ones");
		return;
	}
	show_qr(e);
	timer_start(e, &e->t_qr, on_qr_timer, e->qr_next_ms);
}

static void
send_result(struct wa_eng *e, struct wa_str id)
{
	struct arena	 a;
	struct wa_node	*n;
	char		 ids[IQ_ID_LEN * 2];

	snprintf(ids, sizeof(ids), "%.*s", (int)id.len, id.p != NULL ?
	    id.p : "");
	arena_init(&a, 0);
	n = wa_nb_new(&a, "iq", 3);
	wa_nb_attr_server(n, "to");
	wa_nb_attr(n, "type", "result");
	wa_nb_attr(n, "id", ids);
	(void)send_node(e, n);
	arena_release(&a);
}

static void
on_pair_device(struct wa_eng *e, const struct wa_node *n,
    const struct wa_node *pd)
{
	size_t	 i;

	send_result(e, wa_node_str(n, "id"));		/* 6.1: ack at once */
	e->nrefs = e->ref_idx = 0;
	for (i = 0; i < pd->content.u.list.n && e->nrefs < MAX_REFS; i++) {
		const struct wa_node	*r = &pd->content.u.list.v[i];
		const uint8_t		*p;
		size_t			 len;

		if (!wa_str_eqc(r->tag, "ref") || !wa_node_bytes(r, &p, &len) ||
		    len == 0 || len >= MAX_REF_LEN)
			continue;
		memcpy(e->refs[e->nrefs], p, len);
		e->refs[e->nrefs][len] = '\0';
		e->nrefs++;
	}
	if (e->nrefs == 0) {
		lost(e, WC_EPROTO, NEXT_RETRY,
		    "pair-device carried no usable ref");
		return;
	}
	if (e->lc_pn[0] != '\0') {
		lc_hello(e);	/* a code instead of QR codes (6.7) */
		return;
	}
	show_qr(e);
	timer_start(e, &e->t_qr, on_qr_timer, e->qr_first_ms);
}

static void
send_pair_error(struct wa_eng *e, struct wa_str id, const char *code,
    const char *text)
{
	struct arena	 a;
	struct wa_node	*n, *er;
	char		 ids[IQ_ID_LEN * 2];

	snprintf(ids, sizeof(ids), "%.*s", (int)id.len, id.p != NULL ?
	    id.p : "");
	arena_init(&a, 0);
	n = wa_nb_new(&a, "iq", 3);
	wa_nb_attr_server(n, "to");
	wa_nb_attr(n, "type", "error");
	wa_nb_attr(n, "id", ids);
	er = wa_nb_kid(&a, wa_nb_kids(&a, n, 1), "error", 2);
	wa_nb_attr(er, "code", code);
	wa_nb_attr(er, "text", text);
	(void)send_node(e, n);
	arena_release(&a);
}

static void
on_pair_success(struct wa_eng *e, const struct wa_node *n,
    const struct wa_node *ps)
{
	struct wa_str		 id = wa_node_str(n, "id");
	const struct wa_node	*di = wa_node_child(ps, "device-identity");
	const struct wa_node	*dv = wa_node_child(ps, "device");
	struct buf		 full = BUF_INIT, reply = BUF_INIT;
	struct arena		 a;
	struct wa_node		*r, *sign, *dn;
	char			 jid[WA_ENG_JID_MAX], lid[WA_ENG_JID_MAX];
	char			 kis[16];
	uint8_t			 rnd[WA_CRYPTO_SIG_RANDOM_LEN];
	uint8_t			 acct[WA_ENG_KEY_LEN];
	const uint8_t		*p;
	size_t			 len;
	uint32_t		 ki = 0;
	uint64_t		 pn;
	uint32_t		 dev;
	int			 rc;

	lid[0] = '\0';
	if (!wa_node_bytes(di, &p, &len) || dv == NULL ||
	    !wa_node_jid(dv, "jid", jid, sizeof(jid)) ||
	    parse_own_jid(jid, &pn, &dev) != 0) {
		send_pair_error(e, id, "500", "internal-error");
		emitf(e, WA_ENG_EV_ERROR, WC_EPROTO, "pair-success lacks a "
		    "device identity or a device JID");
		return;
	}
	(void)wa_node_jid(dv, "lid", lid, sizeof(lid));
	if ((rc = e->rng(e->rng_arg, rnd, sizeof(rnd))) == 0)
		rc = wa_pair_verify(e->dev.adv_secret, e->dev.identity_priv,
		    e->dev.identity_pub, p, len, rnd, &full, &reply, acct, &ki);
	wa_crypto_wipe(rnd, sizeof(rnd));
	if (rc != 0 || full.len > WA_ENG_ADV_MAX) {
		bool	 mac = rc == WC_EBADMAC;

		send_pair_error(e, id, rc == WC_EBADMAC || rc == WC_EBADSIG ?
		    "401" : "500", mac ? "hmac-mismatch" : rc == WC_EBADSIG ?
		    "signature-mismatch" : "internal-error");
		emitf(e, WA_ENG_EV_ERROR, rc != 0 ? rc : WC_ETOOBIG,
		    "pairing refused: %s", mac ? "the device identity's HMAC "
		    "does not match our ADV secret" : rc == WC_EBADSIG ?
		    "the account signature does not verify" :
		    "a malformed device identity");
		goto out;
	}
	snprintf(e->dev.jid, sizeof(e->dev.jid), "%s", jid);
	snprintf(e->dev.lid, sizeof(e->dev.lid), "%s", lid);
	memcpy(e->dev.account_sig_key, acct, WA_ENG_KEY_LEN);
	memcpy(e->dev.adv_identity, full.p, full.len);
	e->dev.adv_identity_len = full.len;
	/* Persist before replying: the server links us on this reply. */
	if ((rc = e->st->device_save(e->st->arg, &e->dev)) != 0) {
		e->dev.jid[0] = '\0';
		send_pair_error(e, id, "500", "internal-error");
		emitf(e, WA_ENG_EV_ERROR, rc, "cannot store the pairing: %s",
		    wc_strerror(rc));
		goto out;
	}
	/* 6.5. */
	arena_init(&a, 0);
	r = wa_nb_new(&a, "iq", 3);
	wa_nb_attr_server(r, "to");
	wa_nb_attr(r, "type", "result");
	snprintf(jid, sizeof(jid), "%.*s", (int)id.len, id.p != NULL ? id.p :
	    "");
	wa_nb_attr(r, "id", jid);
	sign = wa_nb_kid(&a, wa_nb_kids(&a, r, 1), "pair-device-sign", 0);
	dn = wa_nb_kid(&a, wa_nb_kids(&a, sign, 1), "device-identity", 1);
	snprintf(kis, sizeof(kis), "%" PRIu32, ki);
	wa_nb_attr(dn, "key-index", kis);
	wa_nb_bytes(dn, reply.p, reply.len);
	(void)send_node(e, r);
	arena_release(&a);
	uv_timer_stop(&e->t_qr);
	qr_file_remove(e);
	log_info("paired as device %" PRIu32, dev);
	emit(e, WA_ENG_EV_PAIRED, 0, e->dev.jid, 0, 0);
out:
	buf_release(&full);
	buf_release(&reply);
}

/* --- pairing by phone-number code (6.7) --- */

/* Copy the digits of pn (an optional leading '+', 5 to 20 digits, the
 * first not 0) to out; false when pn is not such a number. */
static bool
pn_parse(const char *pn, char out[PN_MAX])
{
	size_t	 n = 0;

	if (pn == NULL)
		return false;
	if (*pn == '+')
		pn++;
	for (; *pn != '\0'; pn++) {
		if (*pn < '0' || *pn > '9' || n >= 20)
			return false;
		out[n++] = *pn;
	}
	out[n] = '\0';
	return n >= 5 && out[0] != '0';
}

static void
lc_reset(struct wa_eng *e)
{
	e->lc = LC_NONE;
	e->lc_id[0] = '\0';
	e->lc_ref[0] = '\0';
	wa_crypto_wipe(e->lc_eph_priv, sizeof(e->lc_eph_priv));
	wa_crypto_wipe(e->lc_code, sizeof(e->lc_code));
}

/* A new iq set (xmlns md, id in e->lc_id) holding <link_code_companion_reg
 * jid="PN@s.whatsapp.net" stage=STAGE> with n children, returned in *ch;
 * room for one more attribute on *lcp. */
static struct wa_node *
lc_iq(struct wa_eng *e, struct arena *a, const char *stage,
    struct wa_node **lcp, struct wa_node **ch, size_t n)
{
	struct wa_node	*q, *lc;
	struct wa_attr	*at;

	next_id(e, e->lc_id);
	q = iq(a, e->lc_id, "set", "md");
	lc = wa_nb_kid(a, wa_nb_kids(a, q, 1), "link_code_companion_reg", 3);
	at = &lc->attrs[lc->nattrs++];
	at->key = wa_str_c("jid");
	at->val.kind = WA_VAL_JID;
	at->val.u.jid.user = wa_str_c(e->lc_pn);
	at->val.u.jid.server = wa_str_c("s.whatsapp.net");
	wa_nb_attr(lc, "stage", stage);
	*lcp = lc;
	*ch = wa_nb_kids(a, lc, n);
	return q;
}

/* Steps 1-2: a code, our ephemeral key wrapped with it, companion_hello. */
static void
lc_hello(struct wa_eng *e)
{
	struct arena	 a;
	struct wa_node	*q, *lc, *c;
	uint8_t		 rnd[WA_PAIRCODE_RAND_LEN + WA_PAIRCODE_WRAP_RAND_LEN];
	uint8_t		 pub[WA_ENG_KEY_LEN], wrapped[WA_PAIRCODE_WRAPPED_LEN];
	static const uint8_t nonce = 0;
	int		 rc;

	uv_timer_stop(&e->t_qr);	/* the code replaces the QR codes */
	if (e->nrefs > 0)
		qr_file_remove(e);
	lc_reset(e);
	if ((rc = e->rng(e->rng_arg, rnd, sizeof(rnd))) != 0 ||
	    (rc = e->rng(e->rng_arg, e->lc_eph_priv, WA_ENG_KEY_LEN)) != 0)
		goto fail;
	wa_paircode_text(rnd, e->lc_code);
	wa_crypto_x25519_base(e->lc_eph_priv, pub);
	if ((rc = wa_paircode_wrap(e->lc_code, rnd + WA_PAIRCODE_RAND_LEN,
	    pub, wrapped)) != 0)
		goto fail;
	arena_init(&a, 0);
	q = lc_iq(e, &a, "companion_hello", &lc, &c, 5);
	wa_nb_attr(lc, "should_show_push_notification", "true");
	wa_nb_bytes(wa_nb_kid(&a, &c[0],
	    "link_code_pairing_wrapped_companion_ephemeral_pub", 0), wrapped,
	    sizeof(wrapped));
	wa_nb_bytes(wa_nb_kid(&a, &c[1], "companion_server_auth_key_pub", 0),
	    e->dev.noise_pub, WA_ENG_KEY_LEN);
	/* The server wants "Browser (OS)" with common names (6.7, [WM]);
	 * platform id 1 (Chrome) goes with that display. */
	wa_nb_bytes(wa_nb_kid(&a, &c[2], "companion_platform_id", 0), "1", 1);
	wa_nb_bytes(wa_nb_kid(&a, &c[3], "companion_platform_display", 0),
	    "Chrome (Linux)", 14);
	wa_nb_bytes(wa_nb_kid(&a, &c[4], "link_code_pairing_nonce", 0), &nonce, 1);
	rc = send_node(e, q);
	arena_release(&a);
	if (rc != 0)
		goto fail;
	e->lc = LC_HELLO;
	log_info("link code asked for the number ending %s", e->lc_pn +
	    (strlen(e->lc_pn) > 4 ? strlen(e->lc_pn) - 4 : 0));
	wa_crypto_wipe(rnd, sizeof(rnd));
	return;
fail:
	wa_crypto_wipe(rnd, sizeof(rnd));
	lc_reset(e);
	emitf(e, WA_ENG_EV_ERROR, rc, "cannot ask for a link code: %s",
	    wc_strerror(rc));
}

/* The answer to companion_hello (its ref; the code may be shown now) or
 * to companion_finish. */
static void
on_lc_reply(struct wa_eng *e, const struct wa_node *n)
{
	const struct wa_node	*r;
	const uint8_t		*p;
	size_t			 len;
	char			 shown[WA_PAIRCODE_LEN + 2];

	e->lc_id[0] = '\0';
	if (!wa_node_str_is(n, "type", "result")) {
		struct wa_str	 code = wa_node_str(wa_node_child(n, "error"), "code");

		if (e->lc == LC_HELLO)
			emitf(e, WA_ENG_EV_ERROR, WC_EPROTO, "the server "
			    "refused the link code request (error %.*s)",
			    (int)code.len, code.p != NULL ? code.p : "");
		else
			emitf(e, WA_ENG_EV_ERROR, WC_EPROTO, "the server "
			    "refused the link code (was it typed correctly?) "
			    "(error %.*s)", (int)code.len, code.p != NULL ?
			    code.p : "");
		lc_reset(e);
		return;
	}
	if (e->lc != LC_HELLO)
		return;		/* companion_finish: pair-success follows */
	r = wa_node_child(wa_node_child(n, "link_code_companion_reg"), "link_code_pairing_ref");
	if (!wa_node_bytes(r, &p, &len) || len == 0 || len >= MAX_REF_LEN) {
		emitf(e, WA_ENG_EV_ERROR, WC_EPROTO, "the link code request's "
		    "answer lacks a ref");
		lc_reset(e);
		return;
	}
	memcpy(e->lc_ref, p, len);
	e->lc_ref[len] = '\0';
	e->lc = LC_CODE;
	wa_paircode_display(e->lc_code, shown);
	emit(e, WA_ENG_EV_PAIR_CODE, 0, shown, 0, 0);
	wa_crypto_wipe(shown, sizeof(shown));
}

/* Steps 3-5: the phone has the code; derive the ADV secret, finish. */
static void
on_lc_primary(struct wa_eng *e, const struct wa_node *lc)
{
	const uint8_t	*ref, *wr, *pid;
	size_t		 ref_len, wr_len, pid_len;
	uint8_t		 peph[WA_ENG_KEY_LEN], adv[WA_ENG_KEY_LEN];
	uint8_t		 rnd[WA_PAIRCODE_FINISH_RAND_LEN];
	uint8_t		 bundle[WA_PAIRCODE_BUNDLE_LEN], old[WA_ENG_KEY_LEN];
	struct arena	 a;
	struct wa_node	*q, *l, *c;
	int		 rc;

	if (e->lc != LC_CODE || e->kind != KIND_REG) {
		log_warn("link_code_companion_reg with no code shown: "
		    "ignored");
		return;
	}
	if (!wa_node_bytes(wa_node_child(lc, "link_code_pairing_ref"), &ref, &ref_len) ||
	    ref_len != strlen(e->lc_ref) || memcmp(ref, e->lc_ref,
	    ref_len) != 0 || !wa_node_bytes(wa_node_child(lc,
	    "link_code_pairing_wrapped_primary_ephemeral_pub"), &wr,
	    &wr_len) || wr_len != WA_PAIRCODE_WRAPPED_LEN ||
	    !wa_node_bytes(wa_node_child(lc, "primary_identity_pub"), &pid, &pid_len) ||
	    pid_len != WA_ENG_KEY_LEN) {
		emitf(e, WA_ENG_EV_ERROR, WC_EPROTO, "a malformed link code "
		    "notification, or one for another ref");
		return;
	}
	if ((rc = wa_paircode_unwrap(e->lc_code, wr, peph)) != 0 ||
	    (rc = e->rng(e->rng_arg, rnd, sizeof(rnd))) != 0 ||
	    (rc = wa_paircode_finish(e->lc_eph_priv, peph,
	    e->dev.identity_priv, e->dev.identity_pub, pid, rnd, bundle,
	    adv)) != 0)
		goto out;
	/* The new ADV secret, persisted as a refreshed one is (6.2.1). */
	memcpy(old, e->dev.adv_secret, sizeof(old));
	memcpy(e->dev.adv_secret, adv, sizeof(adv));
	if ((rc = e->st->device_save(e->st->arg, &e->dev)) != 0) {
		memcpy(e->dev.adv_secret, old, sizeof(old));
		goto out;
	}
	arena_init(&a, 0);
	q = lc_iq(e, &a, "companion_finish", &l, &c, 3);
	wa_nb_bytes(wa_nb_kid(&a, &c[0], "link_code_pairing_wrapped_key_bundle", 0),
	    bundle, sizeof(bundle));
	wa_nb_bytes(wa_nb_kid(&a, &c[1], "companion_identity_public", 0),
	    e->dev.identity_pub, WA_ENG_KEY_LEN);
	wa_nb_bytes(wa_nb_kid(&a, &c[2], "link_code_pairing_ref", 0), e->lc_ref,
	    strlen(e->lc_ref));
	rc = send_node(e, q);
	arena_release(&a);
	if (rc == 0) {
		e->lc = LC_FINISH;
		log_info("link code entered on the phone: companion_finish "
		    "sent");
	}
out:
	wa_crypto_wipe(peph, sizeof(peph));
	wa_crypto_wipe(adv, sizeof(adv));
	wa_crypto_wipe(old, sizeof(old));
	wa_crypto_wipe(rnd, sizeof(rnd));
	wa_crypto_wipe(bundle, sizeof(bundle));
	if (rc != 0)
		emitf(e, WA_ENG_EV_ERROR, rc, "cannot finish the link by "
		    "code: %s", wc_strerror(rc));
}

int
wa_eng_pair_code(struct wa_eng *e, const char *pn)
{
	char	 d[PN_MAX];

	if (!pn_parse(pn, d))
		return -EINVAL;
	if (e->dev.jid[0] != '\0')
		return -EISCONN;
	memcpy(e->lc_pn, d, sizeof(d));
	/* Now when this registration connection has its refs (6.7: after
	 * pair-device), else when the next one does. */
	if (e->kind == KIND_REG && e->nrefs > 0 && e->lc == LC_NONE)
		lc_hello(e);
	return 0;
}

/* --- the version look-up after failure 405 (3.3) --- */

static void
on_lookup_done(void *arg, int err, uint32_t rev, const char *why)
{
	struct wa_eng	*e = arg;
	char		 v[32], msg[320];

	e->lookup = NULL;
	if (e->freed)
		return;
	if (err != 0) {
		snprintf(msg, sizeof(msg), "this client version is outdated "
		    "(failure 405) and the current one could not be looked "
		    "up: %s", why);
		e->halted = true;
		emit(e, WA_ENG_EV_STOPPED, err, msg, 0, 0);
		return;
	}
	snprintf(v, sizeof(v), "2.3000.%" PRIu32, rev);
	log_info("WhatsApp Web's current version: %s", v);
	free(e->version);
	e->version = xstrdup(v);
	e->version_retried = true;
	emit(e, WA_ENG_EV_VERSION, 0, v, 0, 0);
	if (!e->freed)
		connect_now(e);
}

static void
start_lookup(struct wa_eng *e)
{
	int	 rc;

	if (e->freed || e->lookup != NULL)
		return;
	e->halted = false;
	if ((rc = wa_engver_lookup(e->loop, e->version_url, e->ca_file, 0,
	    on_lookup_done, e, &e->lookup)) != 0) {
		e->halted = true;
		emitf(e, WA_ENG_EV_STOPPED, rc, "this client version is "
		    "outdated (failure 405) and the current one could not be "
		    "looked up: %s", wc_strerror(rc));
	}
}

/* --- after login (7) --- */

static void
on_success(struct wa_eng *e, const struct wa_node *n)
{
	struct arena	 a;
	struct wa_node	*q;
	char		 lid[WA_ENG_JID_MAX], act[IQ_ID_LEN];
	int		 rc, count;

	e->online = true;
	e->online_since_ms = now_ms(e);
	e->version_retried = false;	/* a later 405 may look up again */
	/* 7.1: persist our LID when the server names it. */
	if (wa_node_jid(n, "lid", lid, sizeof(lid)) &&
	    strcmp(lid, e->dev.lid) != 0) {
		snprintf(e->dev.lid, sizeof(e->dev.lid), "%s", lid);
		if ((rc = e->st->device_save(e->st->arg, &e->dev)) != 0)
			emitf(e, WA_ENG_EV_ERROR, rc, "cannot store our LID: "
			    "%s", wc_strerror(rc));
	}
	emit(e, WA_ENG_EV_CONNECTED, 0, e->dev.jid, 0, 0);
	if (e->freed)
		return;
	schedule_ping(e);
	/* 7.2 (1): the prekey count ... */
	arena_init(&a, 0);
	next_id(e, e->count_id);
	q = iq(&a, e->count_id, "get", "encrypt");
	wa_nb_kid(&a, wa_nb_kids(&a, q, 1), "count", 0);
	(void)send_node(e, q);
	/* ... and the upload: keys stored earlier and never acknowledged go
	 * first; a store with no prekeys at all means the server has none of
	 * ours either ([RS]'s persisted flag), so 812 go up at once. */
	if (e->freed) {
		arena_release(&a);
		return;
	}
	count = e->st->prekey_count(e->st->arg);
	if (count < 0)
		emitf(e, WA_ENG_EV_ERROR, count, "cannot count prekeys: %s",
		    wc_strerror(count));
	else
		upload_prekeys(e, count == 0 ? WA_ENG_PREKEY_FIRST : 0);
	if (e->freed) {
		arena_release(&a);
		return;
	}
	/* 7.2 (2): leave passive mode. */
	arena_reset(&a);
	next_id(e, act);
	q = iq(&a, act, "set", "passive");
	wa_nb_kid(&a, wa_nb_kids(&a, q, 1), "active", 0);
	(void)send_node(e, q);
	arena_release(&a);
	/* Then messaging: our presence, and the outbox. */
	if (e->dm != NULL && !e->freed)
		wa_dm_online(e->dm, e->dev.jid, e->dev.lid, e->dev.push_name,
		    e->dev.registration_id, e->dev.adv_identity,
		    e->dev.adv_identity_len);
	/* And the history the phone sent that is not imported yet. */
	if (e->hs != NULL && !e->freed)
		wa_hsync_online(e->hs, e->dev.jid);
}

/* <notification type="account_sync" pushname>: our own push name
 * (protocol.md 11.7, [RS]), kept with the device. */
static void
on_account_sync(struct wa_eng *e, const struct wa_node *n)
{
	char	 name[sizeof(e->dev.push_name)];
	int	 rc;

	wa_node_str_copy(n, "pushname", name, sizeof(name));
	if (name[0] == '\0' || strcmp(name, e->dev.push_name) == 0)
		return;
	snprintf(e->dev.push_name, sizeof(e->dev.push_name), "%s", name);
	if ((rc = e->st->device_save(e->st->arg, &e->dev)) != 0)
		log_warn("cannot store our push name: %s", wc_strerror(rc));
	if (e->dm != NULL)
		wa_dm_set_push_name(e->dm, name);
}

static void
ack_notification(struct wa_eng *e, const struct wa_node *n)
{
	struct arena		 a;
	struct wa_node		*ack;
	const struct wa_val	*from = wa_node_attr(n, "from");
	char			 id[IQ_ID_LEN * 2], type[64];

	/* 11.7: <ack class="notification" id to type/>. */
	wa_node_str_copy(n, "id", id, sizeof(id));
	wa_node_str_copy(n, "type", type, sizeof(type));
	arena_init(&a, 0);
	ack = wa_nb_new(&a, "ack", 4);
	wa_nb_attr(ack, "class", "notification");
	wa_nb_attr(ack, "id", id);
	if (from != NULL) {
		ack->attrs[ack->nattrs].key = wa_str_c("to");
		ack->attrs[ack->nattrs++].val = *from;
	} else
		wa_nb_attr_server(ack, "to");
	if (type[0] != '\0')
		wa_nb_attr(ack, "type", type);
	(void)send_node(e, ack);
	arena_release(&a);
}

/*
 * companion_reg_refresh (6.2.1): the server retires the ADV secret our QR
 * shows.  A new secret, stored as the old one was, and the current ref
 * shown again with it (the ref does not advance; its timer runs on).  The
 * caller acks the notification.
 */
static void
on_reg_refresh(struct wa_eng *e, const struct wa_node *n)
{
	int	 rc;

	if (wa_node_child(n, "companion_reg_refresh") == NULL &&
	    wa_node_child(n, "pair-device-rotate-qr") == NULL) {
		log_warn("companion_reg_refresh without a known child: "
		    "ignored");
		return;
	}
	if (e->kind != KIND_REG || e->dev.jid[0] != '\0') {
		log_info("companion_reg_refresh while paired: ignored");
		return;
	}
	if (e->lc == LC_FINISH) {
		/* 6.2.1, [RS]: the code link awaiting pair-success keeps the
		 * secret it derived; the refresh is dropped. */
		log_info("companion_reg_refresh while a code link awaits "
		    "pair-success: the ADV secret is kept");
		return;
	}
	if ((rc = e->rng(e->rng_arg, e->dev.adv_secret, WA_ENG_KEY_LEN)) != 0 ||
	    (rc = e->st->device_save(e->st->arg, &e->dev)) != 0) {
		emitf(e, WA_ENG_EV_ERROR, rc, "cannot renew the ADV secret: %s",
		    wc_strerror(rc));
		return;
	}
	log_info("companion_reg_refresh: new ADV secret");
	emit(e, WA_ENG_EV_QR_REFRESH, 0, "", 0, 0);
	if (e->nrefs > 0 && !e->freed && e->lc == LC_NONE &&
	    e->lc_pn[0] == '\0')
		show_qr(e);
}

/* stream:error (1.5). */
static void
on_stream_error(struct wa_eng *e, const struct wa_node *n)
{
	struct wa_str		 code = wa_node_str(n, "code");
	const struct wa_node	*cf = wa_node_child(n, "conflict");
	struct wa_str		 ct;
	char			 why[160];

	if (wa_str_eqc(code, "515")) {
		lost(e, 0, NEXT_NOW, "the server asked for a restart (515)");
		return;
	}
	if (cf != NULL && wa_node_str_is(cf, "type", "replaced")) {
		lost(e, 0, NEXT_STOP, "another connection replaced this one");
		return;
	}
	if ((cf != NULL && wa_node_str_is(cf, "type", "device_removed")) ||
	    wa_str_eqc(code, "401")) {
		lost(e, WC_ELOGGEDOUT, NEXT_LOGOUT,
		    "this device was logged out from the phone");
		return;
	}
	ct = cf != NULL ? wa_node_str(cf, "type") : code;
	if (cf != NULL)
		snprintf(why, sizeof(why), _("stream error %.*s, conflict "
		    "%.*s"), (int)code.len, code.p != NULL ? code.p : "",
		    (int)ct.len, ct.p != NULL ? ct.p : "");
	else
		snprintf(why, sizeof(why), _("stream error %.*s"),
		    (int)code.len, code.p != NULL ? code.p : "");
	lost(e, WC_EPROTO, NEXT_RETRY, why);
}

/* failure instead of success (1.5). */
static void
on_failure(struct wa_eng *e, const struct wa_node *n)
{
	struct wa_str	 r = wa_node_str(n, "reason");
	char		 tmp[8], why[160];
	unsigned long	 reason = 0;
	const char	*words;
	enum next	 nx = NEXT_STOP;

	if (r.len > 0 && r.len < sizeof(tmp)) {
		memcpy(tmp, r.p, r.len);
		tmp[r.len] = '\0';
		reason = strtoul(tmp, NULL, 10);
	}
	switch (reason) {
	case 401:
		words = _("logged out from another device");
		nx = NEXT_LOGOUT;
		break;
	case 403:
		words = _("the main device is gone or the account is locked");
		nx = NEXT_LOGOUT;
		break;
	case 406:
		words = _("logged out (unknown reason) or banned");
		nx = NEXT_LOGOUT;
		break;
	case 400:
		words = _("the server refused the login");
		break;
	case 402:
		words = _("the account is temporarily banned");
		break;
	case 405:
		if (!e->version_pinned && !e->version_retried) {
			/* 3.3: look the current version up, log in once
			 * more with it. */
			lost(e, WC_EPROTO, NEXT_LOOKUP, "this client version "
			    "is outdated (failure 405); looking up the "
			    "current one");
			return;
		}
		snprintf(why, sizeof(why), e->version_pinned ?
		    _("this client version %s, pinned by a setting, is "
		    "outdated (failure 405)") : _("this client version %s, "
		    "just looked up, is outdated (failure 405)"),
		    e->version != NULL ? e->version : WA_CONN_DEFAULT_VERSION);
		lost(e, WC_EPROTO, NEXT_STOP, why);
		return;
	case 409:
		words = _("the server refused the user agent");
		break;
	case 415:
		words = _("not found");
		break;
	case 500:
	case 503:
		words = _("server error");
		nx = NEXT_RETRY;
		break;
	default:
		words = _("login failed");
		nx = NEXT_RETRY;
		break;
	}
	snprintf(why, sizeof(why), _("%s (failure %lu)"), words, reason);
	lost(e, nx == NEXT_LOGOUT ? WC_ELOGGEDOUT : WC_EPROTO, nx, why);
}

static void
on_iq(struct wa_eng *e, const struct wa_node *n)
{
	struct wa_str		 id = wa_node_str(n, "id");
	const struct wa_node	*c;

	if (wa_node_str_is(n, "type", "get") && (wa_node_str_is(n, "xmlns",
	    "urn:xmpp:ping") || wa_node_child(n, "ping") != NULL)) {
		send_result(e, id);	/* 1.4: the server's ping */
		return;
	}
	if (wa_node_str_is(n, "type", "set")) {
		if (e->kind == KIND_REG &&
		    (c = wa_node_child(n, "pair-device")) != NULL &&
		    c->content.kind == WA_VAL_LIST)
			on_pair_device(e, n, c);
		else if (e->kind == KIND_REG &&
		    (c = wa_node_child(n, "pair-success")) != NULL)
			on_pair_success(e, n, c);
		return;
	}
	if (id.len == 0)
		return;
	if (e->lc_id[0] != '\0' && wa_str_eqc(id, e->lc_id)) {
		on_lc_reply(e, n);
		return;
	}
	if (e->ping_id[0] != '\0' && wa_str_eqc(id, e->ping_id)) {
		e->ping_out = false;
		e->ping_id[0] = '\0';
		schedule_ping(e);
	} else if (e->count_id[0] != '\0' && wa_str_eqc(id, e->count_id)) {
		e->count_id[0] = '\0';
		if (wa_node_str_is(n, "type", "result") &&
		    (c = wa_node_child(n, "count")) != NULL)
			on_server_count(e, c);
	} else if (e->upload_id[0] != '\0' && wa_str_eqc(id, e->upload_id))
		on_upload_reply(e, n);
	else if (e->hs != NULL && e->online && wa_hsync_stanza(e->hs, n))
		;	/* media_conn */
	else if (e->dm != NULL && e->online)
		(void)wa_dm_stanza(e->dm, n);
}

/* --- wa_conn callbacks --- */

static void
ev_open(void *arg)
{
	struct wa_eng	*e = arg;

	log_info("connected (%s)", e->kind == KIND_REG ? "registration" :
	    "login");
}

static void
ev_frame(void *arg, const uint8_t *p, size_t len)
{
	struct wa_eng	*e = arg;
	struct arena	 a;
	struct wa_node	*n;
	size_t		 off = 0;
	int		 rc;

	arena_init(&a, 0);
	if ((rc = wa_bin_unpack(p, len, &a, &n, &off)) != 0) {
		log_warn("undecodable stanza: %s at byte %zu", wc_strerror(rc),
		    off);
		goto out;
	}
	if (wa_str_eqc(n->tag, "iq"))
		on_iq(e, n);
	else if (wa_str_eqc(n->tag, "success")) {
		/* [RS] ignores a success on the registration connection. */
		if (e->kind == KIND_LOGIN && !e->online)
			on_success(e, n);
	} else if (wa_str_eqc(n->tag, "failure"))
		on_failure(e, n);
	else if (wa_str_eqc(n->tag, "stream:error"))
		on_stream_error(e, n);
	else if (wa_str_eqc(n->tag, "xmlstreamend"))
		lost(e, WC_ECLOSED, NEXT_RETRY, "the server ended the stream");
	else if (wa_str_eqc(n->tag, "notification")) {
		const struct wa_node	*c;

		ack_notification(e, n);
		if (wa_node_str_is(n, "type", "companion_reg_refresh"))
			on_reg_refresh(e, n);
		else if (wa_node_str_is(n, "type", "link_code_companion_reg") &&
		    (c = wa_node_child(n, "link_code_companion_reg")) != NULL)
			on_lc_primary(e, c);
		else if (e->online && wa_node_str_is(n, "type", "encrypt") &&
		    (c = wa_node_child(n, "count")) != NULL)
			on_server_count(e, c);	/* 7.4 */
		else if (e->online && wa_node_str_is(n, "type", "account_sync"))
			on_account_sync(e, n);
		else if (e->online && e->dm != NULL)
			(void)wa_dm_stanza(e->dm, n);	/* devices */
	} else if (e->online && e->hs != NULL && wa_hsync_stanza(e->hs, n))
		;	/* the ack of a hist_sync receipt */
	else if (e->online && e->dm != NULL && wa_dm_stanza(e->dm, n))
		;	/* message, receipt, ack, chatstate, presence */
	else
		log_debug("ignored <%.*s>", (int)n->tag.len, n->tag.p);
out:
	arena_release(&a);
}

static void
ev_close(void *arg, int err, const char *reason)
{
	struct wa_eng	*e = arg;
	char		 why[256];

	/* [WM]: the close after pairing is expected; log in at once. */
	if (e->kind == KIND_REG && e->dev.jid[0] != '\0') {
		lost(e, err, NEXT_NOW, "paired; logging in");
		return;
	}
	if (reason == NULL || reason[0] == '\0')
		snprintf(why, sizeof(why), "%s", wc_strerror(err));
	else
		snprintf(why, sizeof(why), "%s: %s", wc_strerror(err),
		    reason);
	lost(e, err, NEXT_RETRY, why);
}

static void
connect_now(struct wa_eng *e)
{
	struct buf		 pl = BUF_INIT;
	struct wa_conn_reg	 r;
	uint64_t		 pn;
	uint32_t		 dev;
	char			 why[160];
	int			 rc;

	if (e->halted)
		return;
	if (e->dev.jid[0] != '\0') {
		if ((rc = parse_own_jid(e->dev.jid, &pn, &dev)) == 0)
			rc = wa_conn_payload_login(e->version, pn, dev,
			    e->dev.push_name[0] != '\0' ? e->dev.push_name :
			    NULL, &pl);
		e->kind = KIND_LOGIN;
	} else {
		memset(&r, 0, sizeof(r));
		r.reg_id = e->dev.registration_id;
		memcpy(r.ident_pub, e->dev.identity_pub, WA_ENG_KEY_LEN);
		r.spk_id = e->dev.spk_id;
		memcpy(r.spk_pub, e->dev.spk_pub, WA_ENG_KEY_LEN);
		memcpy(r.spk_sig, e->dev.spk_sig, WA_ENG_SIG_LEN);
		r.os = e->os;
		r.full_sync = e->full_history;
		rc = wa_conn_payload_reg(e->version, &r, NULL, &pl);
		e->kind = KIND_REG;
	}
	if (rc == 0)
		rc = wa_conn_open(e->c, e->dev.noise_priv, pl.p, pl.len);
	buf_release(&pl);
	e->attempt++;
	if (rc != 0) {
		snprintf(why, sizeof(why), _("cannot start a connection: %s"),
		    wc_strerror(rc));
		lost(e, rc, NEXT_RETRY, why);
		return;
	}
	emit(e, WA_ENG_EV_CONNECTING, 0, e->kind == KIND_LOGIN ? "login" :
	    "registration", e->attempt, 0);
}

static void
on_retry_timer(uv_timer_t *t)
{
	connect_now(t->data);
}

/* --- the public API --- */

/* --- the messaging module's view of the engine --- */

static int
dm_send(void *arg, const struct wa_node *n)
{
	return send_node(arg, n);
}

static void
dm_iq_id(void *arg, char out[32])
{
	next_id(arg, out);
}

static int64_t
dm_now(void *arg)
{
	return now_ms(arg);
}

static int
dm_rng(void *arg, uint8_t *p, size_t len)
{
	struct wa_eng	*e = arg;

	return e->rng(e->rng_arg, p, len);
}

static void
dm_history(void *arg)
{
	struct wa_eng	*e = arg;

	if (e->hs != NULL)
		wa_hsync_kick(e->hs);
}

static int
dm_start(struct wa_eng *e, const struct wa_eng_cfg *cfg)
{
	int	 rc;

	e->dm_host.send = dm_send;
	e->dm_host.iq_id = dm_iq_id;
	e->dm_host.now_ms = dm_now;
	e->dm_host.rng = dm_rng;
	e->dm_host.history = dm_history;
	e->dm_host.arg = e;
	if ((rc = wa_dm_new(&e->dm_host, cfg->dm_store, e->sig, &cfg->dm,
	    cfg->on_dm_event, cfg->dm_ev_arg, &e->dm)) != 0)
		return rc;
	if (cfg->hsync_store == NULL || cfg->on_hsync_event == NULL)
		return 0;
	e->hs_host.send = dm_send;
	e->hs_host.iq_id = dm_iq_id;
	e->hs_host.loop = e->loop;
	e->hs_host.ca_file = e->ca_file;
	e->hs_host.arg = e;
	return wa_hsync_new(&e->hs_host, cfg->hsync_store,
	    cfg->on_hsync_event, cfg->hsync_ev_arg, &e->hs);
}

struct wa_dm *
wa_eng_dm(struct wa_eng *e)
{
	return e->dm;
}

int
wa_eng_new(uv_loop_t *loop, const struct wa_eng_cfg *cfg, struct wa_eng **out)
{
	struct wa_eng		*e;
	struct wa_conn_cfg	 cc;
	int			 rc;

	char			 pn[PN_MAX];

	if (loop == NULL || cfg == NULL || cfg->rng == NULL ||
	    cfg->now_ms == NULL || cfg->store == NULL ||
	    cfg->on_event == NULL || (cfg->pair_pn != NULL &&
	    !pn_parse(cfg->pair_pn, pn)))
		return -EINVAL;
	e = xcalloc(1, sizeof(*e));
	memset(&cc, 0, sizeof(cc));
	cc.url = cfg->url;
	cc.ca_file = cfg->ca_file;
	cc.root_pub = cfg->root_pub;
	cc.rng = cfg->rng;
	cc.rng_arg = cfg->rng_arg;
	cc.now_ms = cfg->now_ms;
	cc.clock_arg = cfg->clock_arg;
	cc.ev.on_open = ev_open;
	cc.ev.on_frame = ev_frame;
	cc.ev.on_close = ev_close;
	cc.ev.arg = e;
	if ((rc = wa_conn_new(loop, &cc, &e->c)) != 0) {
		free(e);
		return rc;
	}
	e->loop = loop;
	e->st = cfg->store;
	e->rng = cfg->rng;
	e->rng_arg = cfg->rng_arg;
	e->now = cfg->now_ms;
	e->clock_arg = cfg->clock_arg;
	e->on_event = cfg->on_event;
	e->ev_arg = cfg->ev_arg;
	e->version = cfg->version != NULL ? xstrdup(cfg->version) : NULL;
	e->version_pinned = cfg->version != NULL;
	e->version_url = cfg->version_url != NULL ?
	    xstrdup(cfg->version_url) : NULL;
	e->ca_file = cfg->ca_file != NULL ? xstrdup(cfg->ca_file) : NULL;
	if (cfg->pair_pn != NULL)
		memcpy(e->lc_pn, pn, sizeof(pn));
	e->os = xstrdup(cfg->os != NULL ? cfg->os : "wachat");
	e->full_history = cfg->full_history;
	e->qr_file = cfg->qr_file != NULL ? xstrdup(cfg->qr_file) : NULL;
	e->qr_first_ms = cfg->qr_first_ms ? cfg->qr_first_ms :
	    WA_ENG_QR_FIRST_MS;
	e->qr_next_ms = cfg->qr_next_ms ? cfg->qr_next_ms : WA_ENG_QR_NEXT_MS;
	e->ping_ms = cfg->ping_ms;
	e->ping_dl_ms = cfg->ping_deadline_ms ? cfg->ping_deadline_ms :
	    WA_ENG_PING_DEADLINE_MS;
	e->retry_cap_ms = cfg->retry_cap_ms ? cfg->retry_cap_ms :
	    WA_ENG_RETRY_CAP_MS;
	uv_timer_init(loop, &e->t_retry);
	uv_timer_init(loop, &e->t_qr);
	uv_timer_init(loop, &e->t_ping);
	e->t_retry.data = e->t_qr.data = e->t_ping.data = e;
	e->open_timers = N_TIMERS;
	if (cfg->signal_store != NULL && cfg->dm_store != NULL &&
	    cfg->on_dm_event != NULL &&
	    ((rc = wa_signal_new(cfg->signal_store, cfg->now_ms,
	    cfg->clock_arg, &e->sig)) != 0 ||
	    (rc = dm_start(e, cfg)) != 0)) {
		wa_signal_free(e->sig);
		e->sig = NULL;
		wa_eng_free(e);
		return rc;
	}
	*out = e;
	return 0;
}

int
wa_eng_start(struct wa_eng *e)
{
	uint8_t	 r[4];
	int	 rc;

	if (e->started)
		return -EALREADY;
	if ((rc = e->rng(e->rng_arg, r, sizeof(r))) != 0)
		return rc;
	snprintf(e->idp, sizeof(e->idp), "%02x%02x%02x%02x", r[0], r[1], r[2],
	    r[3]);
	rc = e->st->device_load(e->st->arg, &e->dev);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		/* Registration material, made once (3.2). */
		if ((rc = make_device(e)) != 0)
			return rc;
		if ((rc = e->st->device_save(e->st->arg, &e->dev)) != 0) {
			wa_crypto_wipe(&e->dev, sizeof(e->dev));
			return rc;
		}
		log_info("new registration material (registration id %" PRIu32
		    ")", e->dev.registration_id);
	}
	e->started = true;
	connect_now(e);
	return 0;
}

bool
wa_eng_is_online(const struct wa_eng *e)
{
	return e->online;
}

static void
on_timer_closed(uv_handle_t *h)
{
	struct wa_eng	*e = h->data;

	if (--e->open_timers > 0)
		return;
	wa_crypto_wipe(&e->dev, sizeof(e->dev));
	wa_crypto_wipe(e->lc_eph_priv, sizeof(e->lc_eph_priv));
	wa_crypto_wipe(e->lc_code, sizeof(e->lc_code));
	free(e->upload_ids);
	free(e->version);
	free(e->version_url);
	free(e->ca_file);
	free(e->os);
	free(e->qr_file);
	free(e);
}

void
wa_eng_free(struct wa_eng *e)
{
	if (e == NULL || e->freed)
		return;
	e->freed = true;
	e->halted = true;
	stop_timers(e);
	wa_engver_cancel(e->lookup);
	e->lookup = NULL;
	if (e->nrefs > 0)
		qr_file_remove(e);	/* its QR dies with the connection */
	wa_conn_free(e->c);
	e->c = NULL;
	wa_hsync_free(e->hs);
	e->hs = NULL;
	wa_dm_free(e->dm);
	e->dm = NULL;
	wa_signal_free(e->sig);
	e->sig = NULL;
	uv_close((uv_handle_t *)&e->t_retry, on_timer_closed);
	uv_close((uv_handle_t *)&e->t_qr, on_timer_closed);
	uv_close((uv_handle_t *)&e->t_ping, on_timer_closed);
}
