/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/signal-group.c -- group sender keys of the Signal layer
 * (proto/wa-signal.h, protocol.md 10.2-10.4, 11.2, 11.3): our SKDM, a
 * peer's SKDM processed, skmsg encrypt and decrypt (telling "no sender
 * key" from a broken skmsg), and our key dropped; each in the store's
 * transaction and the per-call arena scope (proto/signal-int.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#include <sodium.h>

#include <group_cipher.h>
#include <group_session_builder.h>
#include <protocol.h>
#include <sender_key_record.h>
#include <signal_protocol.h>

#define LOG_TAG "signal"
#include "base/buf.h"
#include "base/err.h"
#include "base/log.h"
#include "base/scope-alloc.h"
#include "proto/signal-int.h"
#include "proto/wa-signal.h"

/* ---- groups: sender keys (10.2-10.4, 11.2) ---------------------------- */

/*
 * Check the arguments common to the group calls and fill in libsignal's
 * sender key name n, which points into group and a (both must outlive
 * every use of n).
 */
static int
group_name(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *a, signal_protocol_sender_key_name *n)
{
	size_t	 len;

	if (group == NULL || a == NULL || !sig_addr_ok(a))
		return -EINVAL;
	len = strnlen(group, WA_SIGNAL_NAME_MAX + 1);
	if (len == 0 || len > WA_SIGNAL_NAME_MAX)
		return -EINVAL;
	if (s->ops->sender_key_load == NULL || s->ops->sender_key_store == NULL)
		return -ENOTSUP;
	n->group_id = group;
	n->group_id_len = len;
	sig_to_sg(a, &n->sender);
	return 0;
}

/* libsignal's "no session" is, for a sender key, "no sender key". */
static int
group_err(int rc)
{
	if (rc == SG_ERR_NO_SESSION || rc == SG_ERR_INVALID_KEY_ID)
		return WC_ENOSENDERKEY;
	/* SG_ERR_UNKNOWN while decoding means a field was missing. */
	if (rc == SG_ERR_UNKNOWN)
		return WC_EBADMSG;
	return sig_err(rc);
}

int
wa_signal_group_skdm(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *own_addr, struct buf *skdm_out)
{
	signal_protocol_sender_key_name	  n;
	group_session_builder		 *builder = NULL;
	sender_key_distribution_message	 *skdm = NULL;
	signal_buffer			 *ser = NULL;
	int				  rc;

	if ((rc = group_name(s, group, own_addr, &n)) != 0)
		return rc;
	(void)scope_alloc_enter();
	if ((rc = group_session_builder_create(&builder, s->store,
	    s->ctx)) != 0) {
		rc = sig_err(rc);
		goto out;
	}
	if ((rc = sig_tx_begin(s)) != 0)
		goto out;
	rc = group_session_builder_create_session(builder, &skdm, &n);
	if (rc == 0 && (ser = ciphertext_message_get_serialized(
	    (ciphertext_message *)skdm)) == NULL)
		rc = WC_ECRYPTO;
	if ((rc = sig_tx_end(s, group_err(rc))) == 0)
		sig_out_append(skdm_out, ser);
out:
	SIGNAL_UNREF(skdm);
	group_session_builder_free(builder);
	sig_scope_leave();
	if (rc != 0)
		log_warn("no SKDM for a group: %s", wc_strerror(rc));
	return rc;
}

int
wa_signal_group_process_skdm(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *sender_addr, const uint8_t *skdm, size_t len)
{
	signal_protocol_sender_key_name	  n;
	group_session_builder		 *builder = NULL;
	sender_key_distribution_message	 *m = NULL;
	int				  rc;

	if ((rc = group_name(s, group, sender_addr, &n)) != 0)
		return rc;
	if (skdm == NULL)
		return -EINVAL;
	if (len > WA_SIGNAL_MAX_LEN)
		return WC_ETOOBIG;
	if (len == 0)
		return WC_EBADMSG;
	(void)scope_alloc_enter();
	if ((rc = sender_key_distribution_message_deserialize(&m, skdm, len,
	    s->ctx)) != 0) {
		/* A missing field, a bad version or protobuf: the input's
		 * fault; an invalid signing key stays WC_EBADKEY. */
		rc = rc == SG_ERR_INVALID_KEY ? WC_EBADKEY :
		    rc == SG_ERR_NOMEM ? -ENOMEM : WC_EBADMSG;
		goto out;
	}
	if ((rc = group_session_builder_create(&builder, s->store,
	    s->ctx)) != 0) {
		rc = sig_err(rc);
		goto out;
	}
	if ((rc = sig_tx_begin(s)) != 0)
		goto out;
	rc = sig_tx_end(s, group_err(group_session_builder_process_session(
	    builder, &n, m)));
out:
	group_session_builder_free(builder);
	SIGNAL_UNREF(m);
	sig_scope_leave();
	if (rc != 0)
		log_warn("SKDM from device %u refused: %s", sender_addr->device,
		    wc_strerror(rc));
	return rc;
}

int
wa_signal_group_encrypt(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *own_addr, const uint8_t *p, size_t len,
    struct buf *out)
{
	signal_protocol_sender_key_name	  n;
	group_cipher			 *cipher = NULL;
	ciphertext_message		 *msg = NULL;
	signal_buffer			 *ser = NULL;
	int				  rc;

	if ((rc = group_name(s, group, own_addr, &n)) != 0)
		return rc;
	if (p == NULL && len > 0)
		return -EINVAL;
	if (len > WA_SIGNAL_MAX_LEN)
		return WC_ETOOBIG;
	(void)scope_alloc_enter();
	if ((rc = group_cipher_create(&cipher, s->store, &n, s->ctx)) != 0) {
		rc = sig_err(rc);
		goto out;
	}
	if ((rc = sig_tx_begin(s)) != 0)
		goto out;
	rc = group_cipher_encrypt(cipher, p, len, &msg);
	if (rc == 0 && ((ser = ciphertext_message_get_serialized(msg)) ==
	    NULL || ciphertext_message_get_type(msg) !=
	    CIPHERTEXT_SENDERKEY_TYPE))
		rc = WC_ECRYPTO;
	if ((rc = sig_tx_end(s, group_err(rc))) == 0)
		sig_out_append(out, ser);
out:
	SIGNAL_UNREF(msg);
	group_cipher_free(cipher);
	sig_scope_leave();
	if (rc != 0)
		log_warn("skmsg not encrypted: %s", wc_strerror(rc));
	return rc;
}

/*
 * After group_cipher_decrypt() failed with rc: whether the sender's record
 * has a key with key_id at all.  libsignal reports an unknown key id as an
 * invalid message; the caller must tell "no sender key" (ask for the SKDM
 * again) from a forged or broken skmsg.  Returns rc mapped, or
 * WC_ENOSENDERKEY.
 */
static int
group_decrypt_err(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *a, uint32_t key_id, int rc)
{
	sender_key_record	*rec = NULL;
	sender_key_state	*state = NULL;
	bool			 ar;
	int			 lr;

	if (rc != SG_ERR_INVALID_MESSAGE && rc != SG_ERR_NO_SESSION &&
	    rc != SG_ERR_INVALID_KEY_ID)
		return group_err(rc);
	s->tmp.len = 0;
	ar = scope_alloc_pause();	/* the store; s->tmp lives on */
	lr = s->ops->sender_key_load(s->ops->arg, group, a, &s->tmp);
	scope_alloc_resume(ar);
	if (lr == 0 || lr == WC_EBADRECORD)
		rc = WC_ENOSENDERKEY;	/* damaged: the SKDM again */
	else if (lr < 0)
		rc = lr;
	else if (sender_key_record_deserialize(&rec, s->tmp.p, s->tmp.len,
	    s->ctx) != 0)
		rc = WC_ENOSENDERKEY;	/* damaged (the load said so) */
	else if (sender_key_record_get_sender_key_state_by_id(rec, &state,
	    key_id) != 0)
		rc = WC_ENOSENDERKEY;
	else
		rc = group_err(rc);
	if (s->tmp.p != NULL)
		sodium_memzero(s->tmp.p, s->tmp.len);
	s->tmp.len = 0;
	SIGNAL_UNREF(rec);
	return rc;
}

int
wa_signal_group_decrypt(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *sender_addr, const uint8_t *c, size_t len,
    struct buf *out)
{
	signal_protocol_sender_key_name	  n;
	group_cipher			 *cipher = NULL;
	sender_key_message		 *m = NULL;
	signal_buffer			 *plain = NULL;
	int				  rc;

	if ((rc = group_name(s, group, sender_addr, &n)) != 0)
		return rc;
	if (c == NULL)
		return -EINVAL;
	if (len > WA_SIGNAL_MAX_LEN)
		return WC_ETOOBIG;
	if (len == 0)
		return WC_EBADMSG;
	(void)scope_alloc_enter();
	if ((rc = sender_key_message_deserialize(&m, c, len, s->ctx)) != 0) {
		rc = rc == SG_ERR_NOMEM ? -ENOMEM : WC_EBADMSG;
		goto out;
	}
	if ((rc = group_cipher_create(&cipher, s->store, &n, s->ctx)) != 0) {
		rc = sig_err(rc);
		goto out;
	}
	if ((rc = sig_tx_begin(s)) != 0)
		goto out;
	rc = group_cipher_decrypt(cipher, m, NULL, &plain);
	if (rc != 0)
		rc = group_decrypt_err(s, group, sender_addr,
		    sender_key_message_get_key_id(m), rc);
	if ((rc = sig_tx_end(s, rc)) == 0)
		sig_out_append(out, plain);
out:
	if (plain != NULL)
		signal_buffer_bzero_free(plain);
	SIGNAL_UNREF(m);
	group_cipher_free(cipher);
	sig_scope_leave();
	if (rc != 0 && rc != WC_EDUPMSG)
		log_warn("skmsg from device %u not decrypted: %s",
		    sender_addr->device, wc_strerror(rc));
	return rc;
}

int
wa_signal_group_check(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *a, bool *quarantined)
{
	signal_protocol_sender_key_name	 n;
	sender_key_record		*rec = NULL;
	struct buf			 b = BUF_INIT;
	int				 rc;

	if (quarantined != NULL)
		*quarantined = false;
	if ((rc = group_name(s, group, a, &n)) != 0)
		return rc;
	rc = s->ops->sender_key_load(s->ops->arg, group, a, &b);
	if (rc == 1) {
		(void)scope_alloc_enter();
		if (sender_key_record_deserialize(&rec, b.p, b.len,
		    s->ctx) != 0)
			rc = WC_EBADRECORD;
		SIGNAL_UNREF(rec);
		sig_scope_leave();
	}
	if (b.p != NULL)
		sodium_memzero(b.p, b.len);
	buf_release(&b);
	if (rc != WC_EBADRECORD)
		return rc;	/* 1, 0, or the store's error */
	log_warn("a sender-key record of device %u is damaged: quarantined "
	    "(dropped), a new one is made", a->device);
	if (s->ops->sender_key_delete == NULL)
		return -ENOTSUP;
	if ((rc = sig_tx_begin(s)) != 0)
		return rc;
	rc = s->ops->sender_key_delete(s->ops->arg, group, a);
	if ((rc = sig_tx_end(s, rc < 0 ? rc : 0)) != 0)
		return rc;
	if (quarantined != NULL)
		*quarantined = true;
	return 0;
}

int
wa_signal_group_forget(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *own_addr)
{
	signal_protocol_sender_key_name	 n;
	int				 rc;

	if ((rc = group_name(s, group, own_addr, &n)) != 0)
		return rc;
	if (s->ops->sender_key_delete == NULL)
		return -ENOTSUP;
	return s->ops->sender_key_delete(s->ops->arg, group, own_addr);
}
