/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-tok.c -- privacy tokens in the message engine (proto/dm-int.h;
 * protocol.md 9.4, 9.6, 11.7, 15.6): the tokens contacts give us
 * (privacy_token notifications, the answers to our issuing) kept through
 * the store's tok_* ops under the contact's LID when known; <tctoken>, or
 * <cstoken> from the nctSalt, on 1:1 messages and presence
 * subscriptions; our own token issued after a 1:1 send once per 7-day
 * bucket; and a 463 refusal answered by issuing it and sending the
 * message once more.  Sources: Baileys 7.0.0-rc14 messages-send.js
 * (relayMessage: attach, expiry, issuance after the send),
 * messages-recv.js (handlePrivacyTokenNotification, handleBadAck 463),
 * tc-token-utils.js; whatsmeow tctoken.go, cstoken.go, send.go sendDM.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define LOG_TAG "dm"
#include "base/arena.h"
#include "base/err.h"
#include "base/jid.h"
#include "base/log.h"
#include "proto/dm-int.h"
#include "proto/node.h"
#include "proto/privtok.h"

static bool
tok_ops(const struct wa_dm *dm)
{
	return dm->st->tok_get != NULL && dm->st->tok_put != NULL &&
	    dm->st->tok_sent != NULL;
}

static int64_t
now_s(struct wa_dm *dm)
{
	return dm->host.now_ms(dm->host.arg) / 1000;
}

/* The key the tokens of chat's contact are kept under: its LID user JID
 * when chat is one or the store maps it to one, else its user JID (as WA
 * Web and Baileys key them, resolveTcTokenJid).  false when chat is not
 * a user JID. */
static bool
tok_key(struct wa_dm *dm, const char *chat, char key[WA_DM_JID_MAX])
{
	char	 alt[WA_DM_JID_MAX];

	if (!jid_user_of(chat, key, WA_DM_JID_MAX) ||
	    (!jid_is_pn(key) && !jid_is_lid(key)))
		return false;
	if (jid_is_pn(key) && dm_peer_alt(dm, key, alt, sizeof(alt)) == 1 &&
	    jid_is_lid(alt))
		snprintf(key, WA_DM_JID_MAX, "%s", alt);
	return true;
}

/* What the store holds for key, or (a token kept under the contact's PN
 * before its LID was known) for its other address: 1 and *out, or 0. */
static int
tok_load(struct wa_dm *dm, const char *key, struct wa_dm_tok *out)
{
	char	 alt[WA_DM_JID_MAX];
	int	 rc;

	memset(out, 0, sizeof(*out));
	if (!tok_ops(dm))
		return 0;
	if ((rc = dm->st->tok_get(dm->st->arg, key, out)) == 1 &&
	    out->len > 0)
		return 1;
	if (dm_peer_alt(dm, key, alt, sizeof(alt)) == 1) {
		struct wa_dm_tok o2;

		memset(&o2, 0, sizeof(o2));
		if (dm->st->tok_get(dm->st->arg, alt, &o2) == 1 &&
		    o2.len > 0) {
			if (o2.sender_t < out->sender_t)
				o2.sender_t = out->sender_t;
			*out = o2;
			return 1;
		}
	}
	return rc == 1 ? 1 : 0;
}

int
dm_tok_valid(struct wa_dm *dm, const char *chat, struct wa_dm_tok *out)
{
	char	 key[WA_DM_JID_MAX];

	memset(out, 0, sizeof(*out));
	if (!tok_key(dm, chat, key) || tok_load(dm, key, out) != 1 ||
	    out->len == 0)
		return 0;
	if (wa_privtok_expired(out->t, now_s(dm)))
		return 0;	/* as none: Baileys drops it */
	return 1;
}

void
dm_tok_attach(struct wa_dm *dm, const char *chat, struct arena *a,
    struct wa_node *n)
{
	struct wa_dm_tok tok;
	uint8_t		 salt[WA_PRIVTOK_SALT_MAX], *p;
	char		 key[WA_DM_JID_MAX];
	size_t		 slen = 0;

	if (dm_tok_valid(dm, chat, &tok) == 1) {
		p = arena_alloc(a, tok.len);
		memcpy(p, tok.token, tok.len);
		wa_nb_bytes(wa_nb_kid(a, wa_nb_append(a, n), "tctoken", 0), p,
		    tok.len);
		return;
	}
	/* no token: the cstoken over the contact's LID (whatsmeow) */
	if (dm->st->salt_get == NULL || !tok_key(dm, chat, key) ||
	    !jid_is_lid(key) || dm->st->salt_get(dm->st->arg, salt,
	    &slen) != 1 || slen == 0 || slen > sizeof(salt))
		return;
	p = arena_alloc(a, WA_PRIVTOK_CSTOKEN_LEN);
	if (wa_privtok_cstoken(salt, slen, key, p) != 0)
		return;
	wa_nb_bytes(wa_nb_kid(a, wa_nb_append(a, n), "cstoken", 0), p,
	    WA_PRIVTOK_CSTOKEN_LEN);
}

/* Send the iq issuing our token to the contact of key, stamped t, with
 * id iq: 0 or an error.  It goes to the contact's PN when known (Baileys
 * resolveIssuanceJid, AB prop lid_trusted_token_issue_to_lid off). */
static int
issue(struct wa_dm *dm, const char *key, int64_t t, const char *iq)
{
	struct arena	 a;
	struct wa_node	*n;
	char		 to[WA_DM_JID_MAX];
	int		 rc;

	snprintf(to, sizeof(to), "%s", key);
	if (jid_is_lid(key) && dm_peer_alt(dm, key, to, sizeof(to)) != 1)
		snprintf(to, sizeof(to), "%s", key);
	arena_init(&a, 512);
	if ((rc = wa_privtok_issue_iq(iq, to, t, &a, &n)) == 0)
		rc = dm_send(dm, n);
	arena_release(&a);
	return rc;
}

void
dm_tok_after_send(struct wa_dm *dm, const char *chat)
{
	struct wa_dm_tok tok;
	struct tok_iq	*slot = NULL;
	char		 key[WA_DM_JID_MAX];
	int64_t		 t = now_s(dm);
	size_t		 i;

	if (!tok_ops(dm) || !dm->online || dm_is_own(dm, chat) ||
	    !tok_key(dm, chat, key))
		return;
	(void)tok_load(dm, key, &tok);
	if (!wa_privtok_should_issue(tok.sender_t, t))
		return;		/* once per 7-day bucket */
	for (i = 0; i < DM_TOK_IQS; i++) {
		if (dm->tok[i].iq[0] != '\0' &&
		    strcmp(dm->tok[i].key, key) == 0)
			return;	/* one in flight already */
		if (dm->tok[i].iq[0] == '\0' && slot == NULL)
			slot = &dm->tok[i];
	}
	if (slot == NULL)
		return;		/* the next send issues it */
	dm->host.iq_id(dm->host.arg, slot->iq);
	snprintf(slot->key, sizeof(slot->key), "%s", key);
	slot->t = t;
	if (issue(dm, key, t, slot->iq) != 0)
		slot->iq[0] = '\0';
	else
		log_info("privacy token issued to a contact");
}

int
dm_tok_recover(struct wa_dm *dm)
{
	struct job	*j = &dm->job;
	char		 key[WA_DM_JID_MAX];

	if (!tok_ops(dm) || !tok_key(dm, j->o.chat, key))
		return -ENOTSUP;
	dm->host.iq_id(dm->host.arg, j->iq);
	j->phase = P_TOKEN;	/* dm_job_on_iq() takes the answer */
	log_info("message %s refused for want of a privacy token (463): "
	    "issuing ours, then sending it once more", j->o.id);
	return issue(dm, key, now_s(dm), j->iq);
}

/* Keep the tokens of an iq result or a notification n under key (the
 * contact's; the <token jid> of a notification names us, Baileys):
 * the count stored, or the store's error. */
static int
keep_tokens(struct wa_dm *dm, const struct wa_node *n, const char *key)
{
	struct wa_privtok_in in[WA_PRIVTOK_IN_MAX];
	size_t		 k, i;
	int		 rc, stored = 0;

	k = wa_privtok_parse(n, in, WA_PRIVTOK_IN_MAX);
	for (i = 0; i < k; i++) {
		rc = dm->st->tok_put(dm->st->arg, key, in[i].token, in[i].len,
		    in[i].t);
		if (rc < 0)
			return rc;
		stored += rc;
	}
	return stored;
}

/* The answer n to an issuing for key stamped t: its tokens kept, and
 * our issuing noted (a refused one is not: the next send tries again). */
static void
issued(struct wa_dm *dm, const struct wa_node *n, const char *key,
    int64_t t)
{
	int	 rc;

	if (!wa_node_str_is(n, "type", "result")) {
		log_warn("the server refused our privacy token");
		return;
	}
	if ((rc = keep_tokens(dm, n, key)) < 0 ||
	    (rc = dm->st->tok_sent(dm->st->arg, key, t)) < 0)
		log_warn("privacy token not stored: %s", wc_strerror(rc));
}

void
dm_tok_recovered(struct wa_dm *dm, const struct wa_node *n)
{
	char	 key[WA_DM_JID_MAX];

	if (tok_ops(dm) && tok_key(dm, dm->job.o.chat, key))
		issued(dm, n, key, now_s(dm));
}

int
dm_tok_on_iq(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_str	 id = wa_node_str(n, "id");
	size_t		 i;

	for (i = 0; i < DM_TOK_IQS; i++) {
		if (dm->tok[i].iq[0] == '\0' || !wa_str_eqc(id, dm->tok[i].iq))
			continue;
		issued(dm, n, dm->tok[i].key, dm->tok[i].t);
		memset(&dm->tok[i], 0, sizeof(dm->tok[i]));
		return 1;
	}
	return 0;
}

int
dm_tok_notification(struct wa_dm *dm, const struct wa_node *n)
{
	char	 from[WA_DM_JID_MAX], key[WA_DM_JID_MAX];
	int	 rc;

	if (!tok_ops(dm))
		return 0;
	/* the contact: sender_lid when given, else from */
	if ((!wa_node_jid(n, "sender_lid", from, sizeof(from)) &&
	    !wa_node_jid(n, "from", from, sizeof(from))) ||
	    dm_is_own(dm, from) || !tok_key(dm, from, key)) {
		log_info("privacy_token notification without a contact: "
		    "ignored");
		return 0;
	}
	if ((rc = keep_tokens(dm, n, key)) < 0) {
		(void)dm_store_failed(dm, rc);
		return rc;
	}
	log_info("privacy_token notification: %d token(s) kept", rc);
	return 0;
}

void
dm_tok_offline(struct wa_dm *dm)
{
	memset(dm->tok, 0, sizeof(dm->tok));
}
