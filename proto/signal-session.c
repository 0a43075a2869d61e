/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/signal-session.c -- 1:1 sessions of the Signal layer
 * (proto/wa-signal.h, protocol.md 8.1, 9.4, 11.2): an outgoing session
 * built from a prekey bundle, encrypt (pkmsg until answered, then msg) and
 * decrypt, each in the store's transaction and the per-call arena scope
 * (proto/signal-int.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#include <sodium.h>

#include <protocol.h>
#include <session_builder.h>
#include <session_cipher.h>
#include <session_pre_key.h>
#include <session_record.h>
#include <session_state.h>
#include <signal_protocol.h>

#define LOG_TAG "signal"
#include "base/buf.h"
#include "base/err.h"
#include "base/log.h"
#include "base/scope-alloc.h"
#include "proto/signal-int.h"
#include "proto/wa-signal.h"

/* ---- sessions --------------------------------------------------------- */

int
wa_signal_has_session(struct wa_signal *s, const struct wa_signal_addr *a)
{
	if (!sig_addr_ok(a))
		return -EINVAL;
	return s->ops->session_contains(s->ops->arg, a);
}

/* Deserialize the record rec[0..len): 1 (a state that can send, its
 * registration id in *regid), 0 (no such state), or -1 (corrupt). */
static int
record_state(struct wa_signal *s, const uint8_t *rec, size_t len,
    uint32_t *regid)
{
	session_record	*r = NULL;
	session_state	*st;
	int		 rc;

	(void)scope_alloc_enter();
	if (session_record_deserialize(&r, rec, len, s->ctx) != 0 || r == NULL)
		rc = -1;
	else if ((st = session_record_get_state(r)) == NULL ||
	    !session_state_has_sender_chain(st))
		rc = 0;
	else {
		*regid = session_state_get_remote_registration_id(st);
		rc = 1;
	}
	SIGNAL_UNREF(r);
	sig_scope_leave();
	return rc;
}

int
wa_signal_session_check(struct wa_signal *s, const struct wa_signal_addr *a,
    uint32_t *regid, bool *quarantined)
{
	struct buf	 b = BUF_INIT;
	uint32_t	 id = 0;
	int		 rc;

	if (quarantined != NULL)
		*quarantined = false;
	if (!sig_addr_ok(a))
		return -EINVAL;
	if ((rc = s->ops->session_load(s->ops->arg, a, &b)) == 1)
		rc = record_state(s, b.p, b.len, &id);
	else if (rc == WC_EBADRECORD)
		rc = -1;	/* read, but empty or too big: as corrupt */
	if (b.p != NULL)
		sodium_memzero(b.p, b.len);
	buf_release(&b);
	if (rc == 1 && regid != NULL)
		*regid = id;
	if (rc != -1)
		return rc;	/* 1, 0, or the store's error: never "none" */
	/* The record does not deserialize: corrupt.  Dropped, so that a
	 * fresh bundle builds the session again (reliability.md 9). */
	log_warn("the session record of %s device %u does not deserialize: "
	    "quarantined (dropped), to be rebuilt from a fresh bundle",
	    a->name, a->device);
	if ((rc = sig_tx_begin(s)) != 0)
		return rc;
	rc = s->ops->session_delete(s->ops->arg, a);
	if ((rc = sig_tx_end(s, rc < 0 ? rc : 0)) != 0)
		return rc;
	if (quarantined != NULL)
		*quarantined = true;
	return 0;
}

int
wa_signal_session_drop(struct wa_signal *s, const struct wa_signal_addr *a)
{
	int	 rc, rc2;

	if (!sig_addr_ok(a))
		return -EINVAL;
	if ((rc = sig_tx_begin(s)) != 0)
		return rc;
	rc = s->ops->session_delete(s->ops->arg, a);
	rc2 = sig_tx_end(s, rc < 0 ? rc : 0);
	return rc2 != 0 ? rc2 : rc;
}

int
wa_signal_forget_user(struct wa_signal *s, const char *name,
    int64_t *changed_ms)
{
	int64_t	 ch = 0;
	int	 ns, ni = 0, rc;

	if (changed_ms != NULL)
		*changed_ms = 0;
	if (name == NULL || name[0] == '\0' ||
	    strnlen(name, WA_SIGNAL_NAME_MAX + 1) > WA_SIGNAL_NAME_MAX)
		return -EINVAL;
	if (s->ops->identity_delete_all == NULL ||
	    s->ops->session_delete_all == NULL)
		return -ENOTSUP;
	if ((rc = sig_tx_begin(s)) != 0)
		return rc;
	if ((ns = s->ops->session_delete_all(s->ops->arg, name)) >= 0)
		ni = s->ops->identity_delete_all(s->ops->arg, name, &ch);
	rc = ns < 0 ? ns : ni < 0 ? ni : 0;
	if ((rc = sig_tx_end(s, rc)) != 0)
		return rc;
	if (changed_ms != NULL)
		*changed_ms = ch;
	return ns + ni;
}

int
wa_signal_remote_identity(struct wa_signal *s, const struct wa_signal_addr *a,
    uint8_t key[WA_SIGNAL_KEY_LEN])
{
	if (!sig_addr_ok(a))
		return -EINVAL;
	return s->ops->identity_load(s->ops->arg, a, key);
}

int
wa_signal_process_bundle(struct wa_signal *s, const struct wa_signal_addr *a,
    const struct wa_signal_bundle *b, bool *identity_changed)
{
	signal_protocol_address	 sa;
	ec_public_key		*ik = NULL, *spk = NULL, *opk = NULL;
	session_pre_key_bundle	*bundle = NULL;
	session_builder		*builder = NULL;
	int			 rc;

	if (!sig_addr_ok(a))
		return -EINVAL;
	if (b->spk_id > WA_SIGNAL_PREKEY_ID_MAX ||
	    (b->has_prekey && (b->prekey_id == 0 ||
	    b->prekey_id > WA_SIGNAL_PREKEY_ID_MAX)))
		return WC_EBADKEY;
	sig_to_sg(a, &sa);
	(void)scope_alloc_enter();
	if ((rc = sig_decode_pub(s, b->identity, &ik)) != 0 ||
	    (rc = sig_decode_pub(s, b->spk_pub, &spk)) != 0 ||
	    (b->has_prekey &&
	    (rc = sig_decode_pub(s, b->prekey_pub, &opk)) != 0))
		goto out;
	if ((rc = session_pre_key_bundle_create(&bundle, b->registration_id,
	    (int)a->device, b->has_prekey ? b->prekey_id : 0, opk, b->spk_id,
	    spk, b->spk_sig, sizeof(b->spk_sig), ik)) != 0 ||
	    (rc = session_builder_create(&builder, s->store, &sa,
	    s->ctx)) != 0)
		goto out;
	if ((rc = sig_tx_begin(s)) != 0)
		goto out;
	rc = sig_tx_end(s, sig_err(session_builder_process_pre_key_bundle(
	    builder, bundle)));
	if (rc == 0 && identity_changed != NULL)
		*identity_changed = s->identity_changed;
out:
	session_builder_free(builder);
	SIGNAL_UNREF(bundle);
	SIGNAL_UNREF(ik);
	SIGNAL_UNREF(spk);
	SIGNAL_UNREF(opk);
	sig_scope_leave();
	if (rc != 0)
		log_warn("prekey bundle of device %u refused: %s", a->device,
		    wc_strerror(sig_err(rc)));
	return sig_err(rc);
}

int
wa_signal_encrypt(struct wa_signal *s, const struct wa_signal_addr *a,
    const uint8_t *p, size_t len, enum wa_signal_type *type, struct buf *out)
{
	signal_protocol_address	 sa;
	session_cipher		*cipher = NULL;
	ciphertext_message	*msg = NULL;
	signal_buffer		*ser = NULL;
	int			 rc, t = 0;

	if (!sig_addr_ok(a) || (p == NULL && len > 0))
		return -EINVAL;
	if (len > WA_SIGNAL_MAX_LEN)
		return WC_ETOOBIG;
	sig_to_sg(a, &sa);
	if ((rc = sig_tx_begin(s)) != 0)
		return rc;
	rc = s->ops->session_contains(s->ops->arg, a);
	(void)scope_alloc_enter();
	if (rc == 0)
		rc = WC_ENOSESSION;
	else if (rc == 1 && (rc = session_cipher_create(&cipher, s->store, &sa,
	    s->ctx)) == 0)
		rc = session_cipher_encrypt(cipher, p, len, &msg);
	if (rc == 0) {
		t = ciphertext_message_get_type(msg);
		ser = ciphertext_message_get_serialized(msg);
		if ((t != CIPHERTEXT_PREKEY_TYPE &&
		    t != CIPHERTEXT_SIGNAL_TYPE) || ser == NULL)
			rc = WC_ECRYPTO;
	}
	if ((rc = sig_tx_end(s, sig_err(rc))) == 0) {
		sig_out_append(out, ser);
		*type = t == CIPHERTEXT_PREKEY_TYPE ? WA_SIGNAL_PKMSG :
		    WA_SIGNAL_MSG;
	}
	SIGNAL_UNREF(msg);
	session_cipher_free(cipher);
	sig_scope_leave();
	return rc;
}

static int
decrypt_msg(struct wa_signal *s, session_cipher *cipher,
    enum wa_signal_type type, const uint8_t *c, size_t len,
    signal_buffer **plain)
{
	pre_key_signal_message	*pk = NULL;
	signal_message		*m = NULL;
	int			 rc;

	switch (type) {
	case WA_SIGNAL_PKMSG:
		if ((rc = pre_key_signal_message_deserialize(&pk, c, len,
		    s->ctx)) == 0)
			rc = session_cipher_decrypt_pre_key_signal_message(
			    cipher, pk, NULL, plain);
		SIGNAL_UNREF(pk);
		return rc;
	case WA_SIGNAL_MSG:
		if ((rc = signal_message_deserialize(&m, c, len,
		    s->ctx)) == 0)
			rc = session_cipher_decrypt_signal_message(cipher, m,
			    NULL, plain);
		SIGNAL_UNREF(m);
		return rc;
	}
	return -EINVAL;
}

int
wa_signal_decrypt(struct wa_signal *s, const struct wa_signal_addr *a,
    enum wa_signal_type type, const uint8_t *c, size_t len, struct buf *out,
    bool *identity_changed)
{
	signal_protocol_address	 sa;
	session_cipher		*cipher = NULL;
	signal_buffer		*plain = NULL;
	int			 rc;

	if (!sig_addr_ok(a) || c == NULL ||
	    (type != WA_SIGNAL_PKMSG && type != WA_SIGNAL_MSG))
		return -EINVAL;
	if (len > WA_SIGNAL_MAX_LEN)
		return WC_ETOOBIG;
	if (len == 0)
		return WC_EBADMSG;
	sig_to_sg(a, &sa);
	(void)scope_alloc_enter();
	if ((rc = session_cipher_create(&cipher, s->store, &sa,
	    s->ctx)) != 0) {
		rc = sig_err(rc);
		goto out;
	}
	if ((rc = sig_tx_begin(s)) != 0)
		goto out;
	rc = decrypt_msg(s, cipher, type, c, len, &plain);
	/* libsignal's SG_ERR_UNKNOWN while decrypting means a field it
	 * needed was missing: the message's fault. */
	rc = sig_tx_end(s, rc == SG_ERR_UNKNOWN ? WC_EBADMSG :
	    sig_err(rc));
	if (rc == 0) {
		sig_out_append(out, plain);
		if (identity_changed != NULL)
			*identity_changed = s->identity_changed;
	}
out:
	if (plain != NULL)
		signal_buffer_bzero_free(plain);
	session_cipher_free(cipher);
	sig_scope_leave();
	if (rc != 0 && rc != WC_EDUPMSG)
		log_warn("%s from device %u not decrypted: %s",
		    type == WA_SIGNAL_PKMSG ? "pkmsg" : "msg", a->device,
		    wc_strerror(rc));
	return rc;
}
