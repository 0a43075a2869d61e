/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/sim/keys.c -- randomness and libsignal key material for the sim. */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include <openssl/rand.h>

#include <signal/signal_protocol.h>
#include <signal/curve.h>
#include <signal/key_helper.h>
#include <signal/session_pre_key.h>

#include "keys.h"
#include "base/xmalloc.h"

void
sim_random(void *p, size_t len)
{
	if (len > 0 && RAND_bytes(p, (int)len) != 1)
		abort();
}

int
sim_rng(void *arg, uint8_t *p, size_t len)
{
	(void)arg;
	sim_random(p, len);
	return 0;
}

/* Copy a serialized libsignal public key (05 ‖ 32) as 32 raw bytes. */
static int
pub_raw(const ec_public_key *k, uint8_t out[SIM_KEY_LEN])
{
	signal_buffer	*b = NULL;
	int		 rc;

	if ((rc = ec_public_key_serialize(&b, k)) != 0)
		return rc;
	if (signal_buffer_len(b) != SIM_KEY_LEN + 1) {
		signal_buffer_free(b);
		return SG_ERR_UNKNOWN;
	}
	memcpy(out, signal_buffer_data(b) + 1, SIM_KEY_LEN);
	signal_buffer_free(b);
	return 0;
}

static int
priv_raw(const ec_private_key *k, uint8_t out[SIM_KEY_LEN])
{
	signal_buffer	*b = NULL;
	int		 rc;

	if ((rc = ec_private_key_serialize(&b, k)) != 0)
		return rc;
	if (signal_buffer_len(b) != SIM_KEY_LEN) {
		signal_buffer_bzero_free(b);
		return SG_ERR_UNKNOWN;
	}
	memcpy(out, signal_buffer_data(b), SIM_KEY_LEN);
	signal_buffer_bzero_free(b);
	return 0;
}

int
sim_signal_keys_make(struct signal_context *sc, size_t nprekeys,
    struct sim_signal_keys *out)
{
	ratchet_identity_key_pair			*ident = NULL;
	session_signed_pre_key				*spk = NULL;
	signal_protocol_key_helper_pre_key_list_node	*head = NULL, *n;
	struct sim_signal_keys				 k;
	size_t						 i = 0;
	int						 rc;

	memset(&k, 0, sizeof(k));
	if ((rc = signal_protocol_key_helper_generate_identity_key_pair(&ident,
	    sc)) != 0)
		goto out;
	if ((rc = signal_protocol_key_helper_generate_registration_id(
	    &k.reg_id, 0, sc)) != 0)
		goto out;
	if ((rc = pub_raw(ratchet_identity_key_pair_get_public(ident),
	    k.ident_pub)) != 0 ||
	    (rc = priv_raw(ratchet_identity_key_pair_get_private(ident),
	    k.ident_priv)) != 0)
		goto out;
	k.spk_id = 1;
	if ((rc = signal_protocol_key_helper_generate_signed_pre_key(&spk,
	    ident, k.spk_id, 0, sc)) != 0)
		goto out;
	if ((rc = pub_raw(ec_key_pair_get_public(
	    session_signed_pre_key_get_key_pair(spk)), k.spk_pub)) != 0 ||
	    (rc = priv_raw(ec_key_pair_get_private(
	    session_signed_pre_key_get_key_pair(spk)), k.spk_priv)) != 0)
		goto out;
	if (session_signed_pre_key_get_signature_len(spk) != sizeof(k.spk_sig)) {
		rc = SG_ERR_UNKNOWN;
		goto out;
	}
	memcpy(k.spk_sig, session_signed_pre_key_get_signature(spk),
	    sizeof(k.spk_sig));
	if (nprekeys > 0) {
		if ((rc = signal_protocol_key_helper_generate_pre_keys(&head, 1,
		    (unsigned)nprekeys, sc)) != 0)
			goto out;
		k.prekeys = xcalloc(nprekeys, sizeof(*k.prekeys));
		for (n = head; n != NULL && i < nprekeys; n =
		    signal_protocol_key_helper_key_list_next(n), i++) {
			session_pre_key	*pk =
			    signal_protocol_key_helper_key_list_element(n);
			ec_key_pair	*kp = session_pre_key_get_key_pair(pk);

			k.prekeys[i].id = session_pre_key_get_id(pk);
			if ((rc = pub_raw(ec_key_pair_get_public(kp),
			    k.prekeys[i].pub)) != 0 ||
			    (rc = priv_raw(ec_key_pair_get_private(kp),
			    k.prekeys[i].priv)) != 0)
				goto out;
		}
		k.nprekeys = i;
	}
	*out = k;
	memset(&k, 0, sizeof(k));
out:
	sim_signal_keys_release(&k);
	if (head != NULL)
		signal_protocol_key_helper_key_list_free(head);
	SIGNAL_UNREF(spk);
	SIGNAL_UNREF(ident);
	return rc;
}

void
sim_signal_keys_release(struct sim_signal_keys *k)
{
	if (k->prekeys != NULL) {
		explicit_bzero(k->prekeys, k->nprekeys * sizeof(*k->prekeys));
		free(k->prekeys);
	}
	explicit_bzero(k, sizeof(*k));
}

void
sim_hex(const uint8_t *p, size_t len, char *out)
{
	sodium_bin2hex(out, 2 * len + 1, p, len);
}

int
sim_unhex(const char *s, uint8_t *out, size_t len)
{
	size_t	 got = 0;

	if (strlen(s) != 2 * len || sodium_hex2bin(out, len, s, 2 * len,
	    NULL, &got, NULL) != 0 || got != len)
		return -1;
	return 0;
}
