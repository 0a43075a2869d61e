/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/eng-login.c -- what the engine does once logged in
 * (proto/eng-int.h): on <success> our LID kept (7.1), the keepalive
 * armed, the prekey count asked and the upload made (7.2-7.4: stored
 * before sent, the unacknowledged ones first, topped up below
 * WA_ENG_PREKEY_MIN), passive mode left, unified_session sent, then
 * messaging and history sync online; and our own push name from account_sync (11.7).
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "eng"

#include "base/arena.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/crypto.h"
#include "proto/eng-int.h"
#include "proto/node.h"

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
 * transaction.  Returns 0 or an error (*store set when it was the
 * store's: then none of them may go up). */
static int
gen_prekeys(struct wa_eng *e, struct wa_prekey *k, size_t n, bool *store)
{
	uint32_t	 id;
	size_t		 i;
	int		 rc;

	*store = true;
	if ((rc = e->st->prekey_next_id(e->st->arg, &id)) != 0)
		return rc;
	*store = false;
	for (i = 0; i < n; i++) {
		if (id == 0 || id > WA_ENG_PREKEY_ID_MAX)
			id = 1;	/* wrap (7.3, [RS]) */
		k[i].id = id++;
		if ((rc = e->rng(e->rng_arg, k[i].priv, WA_ENG_KEY_LEN)) != 0)
			return rc;
		wa_crypto_x25519_base(k[i].priv, k[i].pub);
	}
	/* Durable before they leave (style.md 3.1: persist before send). */
	if ((rc = e->st->prekey_put(e->st->arg, k, n)) != 0) {
		*store = true;
		return rc;
	}
	eng_emit(e, WA_ENG_EV_PREKEYS_STORED, 0, "", (uint32_t)n, k[0].id);
	return e->freed ? -ESHUTDOWN : 0;
}

int
eng_retry_keys(struct wa_eng *e, struct wa_dm_keys *out)
{
	struct wa_prekey	 k;
	bool			 store;
	int			 rc;

	memset(out, 0, sizeof(*out));
	/* A store failure here is the receipt's caller's to report: it goes
	 * without <keys>. */
	if ((rc = gen_prekeys(e, &k, 1, &store)) == 0)
		rc = e->st->prekey_mark_uploaded(e->st->arg, k.id, k.id);
	if (rc == 0) {
		memcpy(out->identity, e->dev.identity_pub, WA_ENG_KEY_LEN);
		out->spk_id = e->dev.spk_id;
		memcpy(out->spk_pub, e->dev.spk_pub, WA_ENG_KEY_LEN);
		memcpy(out->spk_sig, e->dev.spk_sig, WA_ENG_SIG_LEN);
		out->prekey_id = k.id;
		memcpy(out->prekey_pub, k.pub, WA_ENG_KEY_LEN);
	}
	explicit_bzero(&k, sizeof(k));
	return rc;
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
	eng_next_id(e, e->upload_id);
	n_iq = eng_iq(&a, e->upload_id, "set", "encrypt");
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
	rc = eng_send(e, n_iq);
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
	eng_emit(e, WA_ENG_EV_PREKEYS_SENT, 0, "", (uint32_t)n, k[0].id);
	return 0;
}

/* The steps of an upload, for what upload_failed() says. */
enum { UP_READ, UP_STORE, UP_SEND };

/* EV_ERROR for a failed upload (the store-failed kind of eng_store_kind()
 * when it was the store's): which step, in words; the reason is the
 * event's err, said once by who shows it. */
static void
upload_failed(struct wa_eng *e, int step, int rc, bool store)
{
	enum wa_eng_ev_kind kind = store ? eng_store_kind(rc) :
	    WA_ENG_EV_ERROR;

	if (step == UP_READ)
		eng_emitf(e, kind, rc, "cannot upload prekeys: "
		    "cannot read those not yet uploaded from the database");
	else if (step == UP_STORE)
		eng_emitf(e, kind, rc, "cannot upload prekeys: "
		    "cannot store new ones in the database");
	else
		eng_emitf(e, kind, rc, "cannot upload prekeys: "
		    "cannot send them to the server");
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
	bool			 store = true;
	int			 rc, n, step;

	if (e->upload_id[0] != '\0')
		return;		/* one upload at a time */
	k = xcalloc(WA_ENG_PREKEY_FIRST, sizeof(*k));
	n = e->st->prekey_pending(e->st->arg, k, WA_ENG_PREKEY_FIRST);
	step = UP_READ;
	if ((rc = n < 0 ? n : 0) != 0)
		goto fail;
	store = false;
	if (n == 0 && gen > 0) {
		if (gen > WA_ENG_PREKEY_FIRST)
			gen = WA_ENG_PREKEY_FIRST;
		step = UP_STORE;
		if ((rc = gen_prekeys(e, k, gen, &store)) != 0)
			goto fail;
		n = (int)gen;
	} else if (n > 0)
		log_info("uploading %d stored prekeys from id %" PRIu32
		    " (not acknowledged before)", n, k[0].id);
	step = UP_SEND;
	rc = n > 0 ? send_upload(e, k, (size_t)n) : 0;
	if (rc != 0)
		goto fail;
	wa_crypto_wipe(k, WA_ENG_PREKEY_FIRST * sizeof(*k));
	free(k);
	return;
fail:
	wa_crypto_wipe(k, WA_ENG_PREKEY_FIRST * sizeof(*k));
	free(k);
	log_warn("prekey upload, step %d: %s", step, wc_strerror(rc));
	/* a key the store could not keep never goes up (the server would
	 * hand it out, and its message could not be read) */
	upload_failed(e, step, rc, store);
}

void
eng_on_upload_reply(struct wa_eng *e, const struct wa_node *n)
{
	int	 rc;

	e->upload_id[0] = '\0';
	if (!wa_node_str_is(n, "type", "result")) {
		const struct wa_node	*er = wa_node_child(n, "error");
		struct wa_str		 code = wa_node_str(er, "code");

		eng_emitf(e, WA_ENG_EV_ERROR, WC_EPROTO,
		    "the server refused the "
		    "prekey upload (error %.*s)", (int)code.len,
		    code.p != NULL ? code.p : "");
		return;
	}
	e->uploaded = true;
	if ((rc = mark_uploaded(e)) != 0) {
		/* the same keys go up again at the next login */
		eng_emitf(e, eng_store_kind(rc), rc,
		    "cannot mark prekeys uploaded in the database");
		return;
	}
	eng_emit(e, WA_ENG_EV_PREKEYS_UPLOADED, 0, "", (uint32_t)e->upload_n,
	    e->upload_n > 0 ? e->upload_ids[0] : 0);
}

/* The server's count of our prekeys, from a count reply or an encrypt
 * notification (7.3, 7.4): top up below WA_ENG_PREKEY_MIN. */
void
eng_on_server_count(struct wa_eng *e, const struct wa_node *count)
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
	eng_emit(e, WA_ENG_EV_PREKEY_COUNT, 0, "", n > UINT32_MAX ? UINT32_MAX :
	    (uint32_t)n, 0);
	if (e->freed)
		return;
	if (n >= WA_ENG_PREKEY_MIN || e->upload_id[0] != '\0')
		return;
	/* 812 when the server has none, else a batch of 50 (7.3). */
	upload_prekeys(e, n == 0 && !e->uploaded ? WA_ENG_PREKEY_FIRST :
	    WA_ENG_PREKEY_TOPUP);
}

/* The answer to our count query (7.2, 7.3). */
void
eng_on_count_answer(struct wa_eng *e, const struct wa_node *n)
{
	const struct wa_node	*c;

	e->count_id[0] = '\0';
	if (wa_node_str_is(n, "type", "result") &&
	    (c = wa_node_child(n, "count")) != NULL)
		eng_on_server_count(e, c);
}

/* --- after login (7) --- */

void
eng_on_success(struct wa_eng *e, const struct wa_node *n)
{
	struct arena	 a;
	struct wa_node	*q;
	char		 lid[WA_ENG_JID_MAX], act[IQ_ID_LEN];
	int		 rc, count;

	eng_wait_done(e);	/* the keepalive takes over (1.4) */
	e->online = true;
	e->online_since_ms = eng_now_ms(e);
	e->version_retried = false;	/* a later 405 may look up again */
	/* 7.1: the server's clock, for unified_session (7.2). */
	eng_take_server_time(e, n);
	/* 7.1: persist our LID when the server names it. */
	if ((wa_node_jid(n, "lid", lid, sizeof(lid)) &&
	    strcmp(lid, e->dev.lid) != 0) || e->dev.unconfirmed) {
		if (wa_node_jid(n, "lid", lid, sizeof(lid)))
			snprintf(e->dev.lid, sizeof(e->dev.lid), "%s", lid);
		/* The server took the link: it is ours now. */
		e->dev.unconfirmed = false;
		if ((rc = e->st->device_save(e->st->arg, &e->dev)) != 0)
			eng_emitf(e, eng_store_kind(rc), rc,
			    "cannot store the device after the login");
	}
	eng_emit(e, WA_ENG_EV_CONNECTED, 0, e->dev.jid, 0, 0);
	if (e->freed)
		return;
	eng_schedule_ping(e);
	/* 7.2 (1): the prekey count ... */
	arena_init(&a, 0);
	eng_next_id(e, e->count_id);
	q = eng_iq(&a, e->count_id, "get", "encrypt");
	wa_nb_kid(&a, wa_nb_kids(&a, q, 1), "count", 0);
	(void)eng_send(e, q);
	/* ... and the upload: keys stored earlier and never acknowledged go
	 * first; a store with no prekeys at all means the server has none of
	 * ours either ([RS]'s persisted flag), so 812 go up at once. */
	if (e->freed) {
		arena_release(&a);
		return;
	}
	count = e->st->prekey_count(e->st->arg);
	if (count < 0)
		eng_emitf(e, eng_store_kind(count), count,
		    "cannot count the prekeys in the database");
	else
		upload_prekeys(e, count == 0 ? WA_ENG_PREKEY_FIRST : 0);
	if (e->freed) {
		arena_release(&a);
		return;
	}
	/* 7.2 (2): leave passive mode. */
	arena_reset(&a);
	eng_next_id(e, act);
	q = eng_iq(&a, act, "set", "passive");
	wa_nb_kid(&a, wa_nb_kids(&a, q, 1), "active", 0);
	(void)eng_send(e, q);
	arena_release(&a);
	/* 7.2: unified_session, as all three references send it. */
	if (!e->freed)
		eng_send_unified_session(e);
	/* Then messaging: our presence, and the outbox. */
	if (e->dm != NULL && !e->freed)
		wa_dm_online(e->dm, e->dev.jid, e->dev.lid, e->dev.push_name,
		    e->dev.registration_id, e->dev.adv_identity,
		    e->dev.adv_identity_len);
	/* And the history the phone sent that is not imported yet. */
	if (e->hs != NULL && !e->freed)
		wa_hsync_online(e->hs, e->dev.jid);
	/* And the app state (protocol-features.md 2.4). */
	if (e->as != NULL && !e->freed)
		wa_appsync_online(e->as);
	/* And the downloads waiting for the media hosts. */
	if (e->mg != NULL && !e->freed)
		wa_mget_online(e->mg, e->dev.jid);
	/* And the blocklist (protocol.md 15.5). */
	if (e->pr != NULL && !e->freed)
		wa_prof_online(e->pr);
}

/* <notification type="account_sync" pushname>: our own push name
 * (protocol.md 11.7, [RS]), kept with the device. */
void
eng_on_account_sync(struct wa_eng *e, const struct wa_node *n)
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
	eng_emit(e, WA_ENG_EV_PUSH_NAME, 0, "", 0, 0);
}
