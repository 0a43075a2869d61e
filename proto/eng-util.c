/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/eng-util.c -- the connection engine's small shared pieces
 * (proto/eng-int.h): events to the user, stanzas to the server (the
 * encoder, the iq skeleton, the plain result), iq ids, the injected clock
 * and RNG, our own JID as the login wants it, the one-shot timer start,
 * and the QR file (a setting the demo uses).
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

#include <uv.h>

#define LOG_TAG "eng"

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/log.h"
#include "proto/bin.h"
#include "proto/conn.h"
#include "proto/crypto.h"
#include "proto/eng-int.h"
#include "proto/mediaconn.h"
#include "proto/node.h"

/* Start timer t unless the engine is being freed (a callback may have
 * called wa_eng_free()). */
void
eng_timer_start(struct wa_eng *e, uv_timer_t *t, uv_timer_cb cb, uint64_t ms)
{
	if (!e->freed)
		uv_timer_start(t, cb, ms, 0);
}

/* --- events, the clock, the RNG, iq ids --- */

void
eng_emit(struct wa_eng *e, enum wa_eng_ev_kind kind, int err, const char *text,
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
	ev.name = e->dev.push_name;
	e->on_event(e->ev_arg, &ev);
}

void
eng_emitf(struct wa_eng *e, enum wa_eng_ev_kind kind, int err, const char *fmt,
    ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), gettext(fmt), ap);
	va_end(ap);
	eng_emit(e, kind, err, e->text, 0, 0);
}

enum wa_eng_ev_kind
eng_store_kind(int rc)
{
	return rc == -ENOSPC || rc == -EIO ? WA_ENG_EV_STORE_FAILED :
	    WA_ENG_EV_ERROR;
}

int64_t
eng_now_ms(struct wa_eng *e)
{
	return e->now(e->clock_arg);
}

/* A uniform random value in [0, n); 0 when the RNG fails. */
uint32_t
eng_rand_below(struct wa_eng *e, uint32_t n)
{
	uint32_t	 r = 0;

	if (n == 0 || e->rng(e->rng_arg, (uint8_t *)&r, sizeof(r)) != 0)
		return 0;
	return r % n;
}

void
eng_next_id(struct wa_eng *e, char out[IQ_ID_LEN])
{
	snprintf(out, IQ_ID_LEN, "%s.%" PRIu32, e->idp, ++e->idn);
}

/* --- sending --- */

int
eng_send(struct wa_eng *e, const struct wa_node *n)
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
struct wa_node *
eng_iq(struct arena *a, const char *id, const char *type, const char *xmlns)
{
	struct wa_node	*n = wa_nb_new(a, "iq", 5);

	wa_nb_attr(n, "id", id);
	if (xmlns != NULL)
		wa_nb_attr(n, "xmlns", xmlns);
	wa_nb_attr(n, "type", type);
	wa_nb_attr_server(n, "to");
	return n;
}

/* "PN[:DEV]@server" into the login's username and device (6.6): the
 * user all digits and not 0, no agent. */
int
eng_parse_own_jid(const char *jid, uint64_t *pn, uint32_t *device)
{
	struct jid	 j;
	uint64_t	 u = 0;
	size_t		 i;

	if (jid_parse(jid, &j) != 0 || j.user_len == 0 || j.agent != 0)
		return -EINVAL;
	for (i = 0; i < j.user_len; i++) {
		unsigned	 d = (unsigned)(j.user[i] - '0');

		if (j.user[i] < '0' || j.user[i] > '9' ||
		    u > (UINT64_MAX - d) / 10)
			return -EINVAL;
		u = u * 10 + d;
	}
	if (u == 0)
		return -EINVAL;
	*device = j.device;
	*pn = u;
	return 0;
}

/* --- the QR file --- */

void
eng_qr_file_write(struct wa_eng *e, const char *text)
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
		eng_emitf(e, WA_ENG_EV_ERROR, rc, "cannot write the QR file %s",
		    e->qr_file);
	}
}

void
eng_qr_file_remove(struct wa_eng *e)
{
	if (e->qr_file != NULL)
		(void)unlink(e->qr_file);
}

void
eng_send_result(struct wa_eng *e, struct wa_str id)
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
	(void)eng_send(e, n);
	arena_release(&a);
}

/* --- registration material (3.2) --- */

int
eng_make_device(struct wa_eng *e)
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

/* --- media_conn for uploads (protocol-features.md 1.1) --- */

/* Answer every waiter with err and mc; the list is emptied first, so a
 * waiter may ask again from its callback. */
static void
mc_answer(struct wa_eng *e, int err, const struct wa_mediaconn *mc)
{
	struct {
		wa_eng_mc_fn	 fn;
		void		*arg;
	}		 w[WA_ENG_MC_WAITERS];
	size_t		 i, n = e->mc_nwait;

	memcpy(w, e->mc_wait, n * sizeof(w[0]));
	e->mc_nwait = 0;
	for (i = 0; i < n && !e->freed; i++)
		w[i].fn(w[i].arg, err, mc);
}

int
wa_eng_media_conn(struct wa_eng *e, bool refresh, wa_eng_mc_fn fn, void *arg)
{
	struct arena	 a;
	int		 rc;

	if (e == NULL || fn == NULL)
		return -EINVAL;
	if (!e->online)
		return -ENOTCONN;
	if (!refresh && e->mc_id[0] == '\0' && e->mc.auth[0] != '\0' &&
	    wa_mediaconn_fresh(&e->mc, (uint64_t)eng_now_ms(e))) {
		fn(arg, 0, &e->mc);
		return 0;
	}
	if (e->mc_nwait >= WA_ENG_MC_WAITERS)
		return -EBUSY;
	if (e->mc_id[0] == '\0') {
		eng_next_id(e, e->mc_id);
		arena_init(&a, 256);
		rc = eng_send(e, wa_mediaconn_iq(&a, e->mc_id));
		arena_release(&a);
		if (rc != 0) {
			e->mc_id[0] = '\0';
			return rc;
		}
	}
	e->mc_wait[e->mc_nwait].fn = fn;
	e->mc_wait[e->mc_nwait].arg = arg;
	e->mc_nwait++;
	return 0;
}

void
wa_eng_media_conn_cancel(struct wa_eng *e, wa_eng_mc_fn fn, void *arg)
{
	size_t	 i = 0;

	if (e == NULL)
		return;
	while (i < e->mc_nwait) {
		if (e->mc_wait[i].fn == fn && e->mc_wait[i].arg == arg) {
			memmove(&e->mc_wait[i], &e->mc_wait[i + 1],
			    (e->mc_nwait - i - 1) * sizeof(e->mc_wait[0]));
			e->mc_nwait--;
		} else
			i++;
	}
}

void
eng_on_mc_answer(struct wa_eng *e, const struct wa_node *n)
{
	e->mc_id[0] = '\0';
	if (wa_mediaconn_take(&e->mc, n, (uint64_t)eng_now_ms(e)) == 0)
		log_warn("media_conn named no host: trying %s", e->mc.hosts[0]);
	mc_answer(e, 0, &e->mc);
}

void
eng_mc_lost(struct wa_eng *e)
{
	e->mc_id[0] = '\0';
	mc_answer(e, -ENOTCONN, NULL);
}
