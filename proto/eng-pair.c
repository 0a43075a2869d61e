/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/eng-pair.c -- linking wachat as a companion device
 * (proto/eng-int.h): the QR codes and their rotation (6.1-6.2), the ADV
 * secret renewed by companion_reg_refresh (6.2.1), pair-success verified,
 * stored and answered (6.3-6.5), and pairing by phone-number code (6.7,
 * crypto in proto/paircode.c), whose two PBKDF2s (131072 rounds each,
 * tens of ms) run on the loop: nothing else runs on an unpaired
 * registration connection.  The QR timer runs on the engine's loop.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>
#include <uv.h>

#define LOG_TAG "eng"

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/log.h"
#include "proto/crypto.h"
#include "proto/eng-int.h"
#include "proto/node.h"
#include "proto/pair.h"
#include "proto/paircode.h"

static void	lc_hello(struct wa_eng *e);

/* --- QR codes (6.2) --- */

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
		eng_emitf(e, WA_ENG_EV_ERROR, n, "a QR ref too long to show");
		return;
	}
	eng_qr_file_write(e, qr);
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
		if (e->lc == LC_FINISH) {
			/* the phone has the code: pair-success is due
			 * within the wait (eng_wait) */
			return;
		}
		/* 6.2: the refs ran out with nobody linking.  As [WM]
		 * (qrchan.go: QRChannelTimeout, then Disconnect) and [BL]
		 * ("QR refs attempts ended", timedOut): no new
		 * registration of our own, the user starts again. */
		e->idle_reason = 0;
		if (e->lc_pn[0] != '\0')
			eng_lost(e, -ETIMEDOUT, NEXT_IDLE, "the link code "
			    "expired: it was not entered on the phone in time");
		else
			eng_lost(e, -ETIMEDOUT, NEXT_IDLE, "the QR code "
			    "expired: nobody scanned it");
		return;
	}
	/* with a link code the refs' times still run: the code lives as
	 * long as they do ([BL]) */
	if (e->lc_pn[0] == '\0')
		show_qr(e);
	eng_timer_start(e, &e->t_qr, on_qr_timer, e->qr_next_ms);
}

/* --- pair-device, pair-success (6.1, 6.3-6.5) --- */

void
eng_on_pair_device(struct wa_eng *e, const struct wa_node *n,
    const struct wa_node *pd)
{
	size_t	 i;

	eng_send_result(e, wa_node_str(n, "id"));	/* 6.1: ack at once */
	eng_wait_done(e);	/* the refs' timers take over (6.2) */
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
		eng_lost(e, WC_EPROTO, NEXT_RETRY,
		    "pair-device carried no usable ref");
		return;
	}
	eng_timer_start(e, &e->t_qr, on_qr_timer, e->qr_first_ms);
	if (e->lc_pn[0] != '\0') {
		lc_hello(e);	/* a code instead of QR codes (6.7) */
		return;
	}
	show_qr(e);
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
	(void)eng_send(e, n);
	arena_release(&a);
}

void
eng_on_pair_success(struct wa_eng *e, const struct wa_node *n,
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
	eng_take_server_time(e, n);	/* for unified_session (7.2) */
	if (!wa_node_bytes(di, &p, &len) || dv == NULL ||
	    !wa_node_jid(dv, "jid", jid, sizeof(jid)) ||
	    eng_parse_own_jid(jid, &pn, &dev) != 0) {
		send_pair_error(e, id, "500", "internal-error");
		eng_emitf(e, WA_ENG_EV_ERROR, WC_EPROTO, "pair-success lacks a "
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
		eng_emitf(e, WA_ENG_EV_ERROR, rc != 0 ? rc : WC_ETOOBIG,
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
	/* Not accepted until a login succeeds (the reply may be lost). */
	e->dev.unconfirmed = true;
	/* Persist before replying: the server links us on this reply. */
	if ((rc = e->st->device_save(e->st->arg, &e->dev)) != 0) {
		e->dev.jid[0] = '\0';
		send_pair_error(e, id, "500", "internal-error");
		/* not linked: the phone is told, the QR comes back */
		eng_emitf(e, eng_store_kind(rc), rc,
		    "cannot store the pairing");
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
	/* 7.2: unified_session once paired ([BL] socket.ts, [WM] pair.go
	 * send it just after this reply; before it, it is not lost to the
	 * server's close that follows the reply). */
	eng_send_unified_session(e);
	(void)eng_send(e, r);
	arena_release(&a);
	/* 6.6: the server's 515 (or its close) follows. */
	eng_wait(e, "the server's restart after pair-device-sign");
	uv_timer_stop(&e->t_qr);
	eng_qr_file_remove(e);
	log_info("paired as device %" PRIu32, dev);
	eng_emit(e, WA_ENG_EV_PAIRED, 0, e->dev.jid, 0, 0);
out:
	buf_release(&full);
	buf_release(&reply);
}

/* --- pairing by phone-number code (6.7) --- */

bool
eng_pn_parse(const char *pn, char out[PN_MAX])
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

/* A new iq set (xmlns md, id in e->lc_id) holding <link_code_companion_reg
 * jid="PN@s.whatsapp.net" stage=STAGE> with n children, returned in *ch;
 * room for one more attribute on *lcp. */
static struct wa_node *
lc_iq(struct wa_eng *e, struct arena *a, const char *stage,
    struct wa_node **lcp, struct wa_node **ch, size_t n)
{
	struct wa_node	*q, *lc;
	struct wa_attr	*at;

	eng_next_id(e, e->lc_id);
	q = eng_iq(a, e->lc_id, "set", "md");
	lc = wa_nb_kid(a, wa_nb_kids(a, q, 1), "link_code_companion_reg", 3);
	at = &lc->attrs[lc->nattrs++];
	at->key = wa_str_c("jid");
	at->val.kind = WA_VAL_JID;
	at->val.u.jid.user = wa_str_c(e->lc_pn);
	at->val.u.jid.server = wa_str_c(JID_SERVER_PN);
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

	/* the code replaces the QR codes (their times run on: on_qr_timer) */
	if (e->nrefs > 0)
		eng_qr_file_remove(e);
	eng_lc_reset(e);
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
	rc = eng_send(e, q);
	arena_release(&a);
	if (rc != 0)
		goto fail;
	e->lc = LC_HELLO;
	eng_wait(e, "the answer to the link code request");
	log_info("link code asked for the number ending %s", e->lc_pn +
	    (strlen(e->lc_pn) > 4 ? strlen(e->lc_pn) - 4 : 0));
	wa_crypto_wipe(rnd, sizeof(rnd));
	return;
fail:
	wa_crypto_wipe(rnd, sizeof(rnd));
	eng_lc_reset(e);
	eng_emitf(e, WA_ENG_EV_ERROR, rc, "cannot ask for a link code");
}

/* The answer to companion_hello (its ref; the code may be shown now) or
 * to companion_finish. */
void
eng_on_lc_reply(struct wa_eng *e, const struct wa_node *n)
{
	const struct wa_node	*r;
	const uint8_t		*p;
	size_t			 len;
	char			 shown[WA_PAIRCODE_LEN + 2];

	e->lc_id[0] = '\0';
	if (!wa_node_str_is(n, "type", "result")) {
		struct wa_str	 code = wa_node_str(wa_node_child(n, "error"), "code");

		eng_wait_done(e);
		if (e->lc == LC_HELLO)
			eng_emitf(e, WA_ENG_EV_ERROR, WC_EPROTO, "the server "
			    "refused the link code request (error %.*s)",
			    (int)code.len, code.p != NULL ? code.p : "");
		else
			eng_emitf(e, WA_ENG_EV_ERROR, WC_EPROTO, "the server "
			    "refused the link code (was it typed correctly?) "
			    "(error %.*s)", (int)code.len, code.p != NULL ?
			    code.p : "");
		eng_lc_reset(e);
		return;
	}
	if (e->lc != LC_HELLO)
		return;		/* companion_finish: pair-success follows */
	eng_wait_done(e);	/* the phone's user types the code */
	r = wa_node_child(wa_node_child(n, "link_code_companion_reg"), "link_code_pairing_ref");
	if (!wa_node_bytes(r, &p, &len) || len == 0 || len >= MAX_REF_LEN) {
		eng_emitf(e, WA_ENG_EV_ERROR, WC_EPROTO,
		    "the link code request's "
		    "answer lacks a ref");
		eng_lc_reset(e);
		return;
	}
	memcpy(e->lc_ref, p, len);
	e->lc_ref[len] = '\0';
	e->lc = LC_CODE;
	wa_paircode_display(e->lc_code, shown);
	eng_emit(e, WA_ENG_EV_PAIR_CODE, 0, shown, 0, 0);
	wa_crypto_wipe(shown, sizeof(shown));
}

/* Steps 3-5: the phone has the code; derive the ADV secret, finish. */
void
eng_on_lc_primary(struct wa_eng *e, const struct wa_node *lc)
{
	const uint8_t	*ref, *wr, *pid;
	size_t		 ref_len, wr_len, pid_len;
	uint8_t		 peph[WA_ENG_KEY_LEN], adv[WA_ENG_KEY_LEN];
	uint8_t		 rnd[WA_PAIRCODE_FINISH_RAND_LEN];
	uint8_t		 bundle[WA_PAIRCODE_BUNDLE_LEN], old[WA_ENG_KEY_LEN];
	struct arena	 a;
	struct wa_node	*q, *l, *c;
	bool		 stored = true;	/* no store call failed */
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
		eng_emitf(e, WA_ENG_EV_ERROR, WC_EPROTO,
		    "a malformed link code "
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
		stored = false;
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
	rc = eng_send(e, q);
	arena_release(&a);
	if (rc == 0) {
		e->lc = LC_FINISH;
		eng_wait(e, "pair-success after the link code");
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
		eng_emitf(e, stored ? WA_ENG_EV_ERROR : eng_store_kind(rc), rc,
		    "cannot finish the link by code");
}

int
wa_eng_pair_code(struct wa_eng *e, const char *pn)
{
	char	 d[PN_MAX];

	if (!eng_pn_parse(pn, d))
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

/* --- companion_reg_refresh (6.2.1) --- */

/*
 * companion_reg_refresh (6.2.1): the server retires the ADV secret our QR
 * shows.  A new secret, stored as the old one was, and the current ref
 * shown again with it (the ref does not advance; its timer runs on).  The
 * caller acks the notification.
 */
void
eng_on_reg_refresh(struct wa_eng *e, const struct wa_node *n)
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
		eng_emitf(e, eng_store_kind(rc), rc,
		    "cannot renew the ADV secret");
		return;
	}
	log_info("companion_reg_refresh: new ADV secret");
	eng_emit(e, WA_ENG_EV_QR_REFRESH, 0, "", 0, 0);
	if (e->nrefs > 0 && !e->freed && e->lc == LC_NONE &&
	    e->lc_pn[0] == '\0')
		show_qr(e);
}
