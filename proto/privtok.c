/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/privtok.c -- privacy tokens: bucket arithmetic, cstoken, the
 * <tokens> of a notification or iq result, the issuing iq
 * (proto/privtok.h; protocol.md 15.6).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/jid.h"
#include "proto/crypto.h"
#include "proto/node.h"
#include "proto/privtok.h"

/* floor(t / bucket) for any sign of t. */
static int64_t
bucket_of(int64_t t)
{
	int64_t	 b = t / WA_PRIVTOK_BUCKET_S;

	if (t < 0 && b * WA_PRIVTOK_BUCKET_S != t)
		b--;
	return b;
}

bool
wa_privtok_expired(int64_t t, int64_t now_s)
{
	int64_t	 cutoff;

	if (t <= 0)
		return true;
	cutoff = (bucket_of(now_s) - (WA_PRIVTOK_BUCKETS - 1)) *
	    WA_PRIVTOK_BUCKET_S;
	return t < cutoff;
}

bool
wa_privtok_should_issue(int64_t sender_t, int64_t now_s)
{
	if (sender_t <= 0)
		return true;
	return bucket_of(now_s) > bucket_of(sender_t);
}

int
wa_privtok_cstoken(const uint8_t *salt, size_t salt_len, const char *peer,
    uint8_t out[WA_PRIVTOK_CSTOKEN_LEN])
{
	char	 user[96];
	char	*at;

	if (salt == NULL || salt_len == 0 || peer == NULL ||
	    !jid_is_lid(peer) || !jid_user_of(peer, user, sizeof(user)))
		return -EINVAL;
	/* jid_user_of() keeps the server: "<user>@lid" */
	if ((at = strchr(user, '@')) == NULL || at == user)
		return -EINVAL;
	wa_crypto_hmac_sha256(salt, salt_len, user, strlen(user), out);
	return 0;
}

size_t
wa_privtok_parse(const struct wa_node *parent, struct wa_privtok_in *out,
    size_t max)
{
	const struct wa_node	*toks = wa_node_child(parent, "tokens");
	const struct wa_node	*k;
	struct wa_privtok_in	*o;
	size_t			 i, n = 0;
	int64_t			 t;

	for (i = 0; i < wa_node_nkids(toks) && n < max; i++) {
		k = wa_node_kid(toks, i);
		o = &out[n];
		if (!wa_str_eqc(k->tag, "token") ||
		    !wa_node_str_is(k, "type", "trusted_contact") ||
		    !wa_node_bytes(k, &o->token, &o->len) || o->len == 0 ||
		    o->len > WA_PRIVTOK_MAX ||
		    wa_node_num(k, "t", &t) != 1 || t <= 0)
			continue;
		o->t = t;
		if (!wa_node_jid(k, "jid", o->jid, sizeof(o->jid)))
			o->jid[0] = '\0';
		n++;
	}
	return n;
}

int
wa_privtok_issue_iq(const char *id, const char *jid, int64_t t,
    struct arena *a, struct wa_node **out)
{
	struct wa_node	*iq, *toks, *tok;

	if (id == NULL || jid == NULL || a == NULL || out == NULL)
		return -EINVAL;
	iq = wa_nb_new(a, "iq", 4);
	wa_nb_attr(iq, "id", id);
	wa_nb_attr(iq, "xmlns", "privacy");
	wa_nb_attr(iq, "type", "set");
	wa_nb_attr_server(iq, "to");
	toks = wa_nb_kid(a, wa_nb_kids(a, iq, 1), "tokens", 0);
	tok = wa_nb_kid(a, wa_nb_kids(a, toks, 1), "token", 3);
	if (wa_nb_attr_jid(tok, "jid", jid) != 0)
		return -EINVAL;
	wa_nb_attr_num(a, tok, "t", t);
	wa_nb_attr(tok, "type", "trusted_contact");
	*out = iq;
	return 0;
}
