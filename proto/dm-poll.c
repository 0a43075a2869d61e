/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-poll.c -- polls in (proto/dm-int.h; protocol-features.md
 * 3.1): a poll's messageSecret kept when it arrives, each vote decrypted
 * with it (proto/poll.h) and tallied in the poll's rich record
 * (base/rich.h), a vote whose poll is not stored yet kept and applied
 * when the poll comes.  Engine thread, inside the message's transaction.
 *
 * A waiting vote is kept as one blob of our own making: from_me (1
 * byte), the push name, then each addressing of the voter, each
 * NUL-terminated, an empty string after the last; the 12-byte IV; the
 * encPayload.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/jid.h"
#include "base/log.h"
#include "base/rich.h"
#include "base/xmalloc.h"
#include "proto/crypto.h"
#include "proto/dm-int.h"
#include "proto/poll.h"

#define CANDS		4	/* addressings of one JID tried */
#define PENDING_MAX	256	/* waiting votes applied to one poll */

/* A vote, received now or taken from the waiting ones. */
struct vote {
	bool		 from_me;
	const char	*name;		/* push name; "" none */
	const char	*cand[CANDS];	/* the voter's user JIDs */
	size_t		 ncand;
	const uint8_t	*iv;		/* WA_POLL_IV_LEN bytes */
	const uint8_t	*enc;
	size_t		 enc_len;
};

/* Add the user JID of s (any form; NULL: nothing) to the list, once. */
static void
cand_add(const char **list, size_t *n, char (*store)[WA_DM_JID_MAX],
    const char *s)
{
	size_t	 i;

	if (s == NULL || s[0] == '\0' || *n == CANDS ||
	    !jid_user_of(s, store[*n], WA_DM_JID_MAX))
		return;
	for (i = 0; i < *n; i++)
		if (strcmp(list[i], store[*n]) == 0)
			return;
	list[*n] = store[*n];
	(*n)++;
}

/* The creator's addressings: ours, or the creator's and its other JID. */
static size_t
creators(struct wa_dm *dm, const char *creator, const char **list,
    char (*store)[WA_DM_JID_MAX])
{
	char	 alt[WA_DM_JID_MAX];
	size_t	 n = 0;

	if (creator[0] == '\0') {
		cand_add(list, &n, store, dm->own_pn);
		cand_add(list, &n, store, dm->own_lid);
		return n;
	}
	cand_add(list, &n, store, creator);
	if (dm->st->lid_alt != NULL && dm->st->lid_alt(dm->st->arg, creator,
	    alt, sizeof(alt)) == 1)
		cand_add(list, &n, store, alt);
	return n;
}

/* The options of rec that hashes[0..nh) name, as numbers from 1, into
 * picks: their count. */
static size_t
picks_of(const char *rec, const uint8_t (*hashes)[WA_POLL_HASH_LEN],
    size_t nh, unsigned *picks)
{
	struct rich	 r;
	uint8_t		 h[WA_POLL_HASH_LEN];
	size_t		 k, i, n = 0, nopt;

	if (rich_parse(rec, strlen(rec), &r) != 0)
		return 0;
	nopt = rich_poll_noptions(&r);
	for (k = 1; k <= nopt && n < WA_POLL_READ_MAX; k++) {
		wa_poll_option_hash(rich_poll_option(&r, k), h);
		for (i = 0; i < nh; i++)
			if (memcmp(h, hashes[i], WA_POLL_HASH_LEN) == 0) {
				picks[n++] = (unsigned)k;
				break;
			}
	}
	rich_release(&r);
	return n;
}

/* Decrypt v for poll id (creator, secret) into picks: 0 with *n set,
 * or the last decryption error. */
static int
decrypt(struct wa_dm *dm, const char *id, const char *creator,
    const uint8_t *secret, size_t slen, const char *rec,
    const struct vote *v, unsigned *picks, size_t *n)
{
	uint8_t		 hashes[WA_POLL_READ_MAX][WA_POLL_HASH_LEN];
	char		 cs[CANDS][WA_DM_JID_MAX];
	const char	*cl[CANDS];
	size_t		 nc = creators(dm, creator, cl, cs), i, j, nh;
	int		 rc = WC_EBADMAC;

	for (i = 0; i < nc; i++)
		for (j = 0; j < v->ncand; j++) {
			rc = wa_poll_vote_decrypt(secret, slen, id, cl[i],
			    v->cand[j], v->iv, WA_POLL_IV_LEN, v->enc,
			    v->enc_len, hashes, WA_POLL_READ_MAX, &nh);
			if (rc == 0) {
				*n = picks_of(rec, (const uint8_t (*)[
				    WA_POLL_HASH_LEN])hashes, nh, picks);
				wa_crypto_wipe(hashes, sizeof(hashes));
				return 0;
			}
			if (rc != WC_EBADMAC)
				return rc;
		}
	return rc;
}

/* v applied to *rec (the poll id of chat, read with its secret): 1 with
 * *rec replaced, 0 when v does not decrypt (logged). */
static int
apply_one(struct wa_dm *dm, const char *id, const char *creator,
    const uint8_t *secret, size_t slen, const char *voter,
    const struct vote *v, char **rec)
{
	unsigned	 picks[WA_POLL_READ_MAX];
	size_t		 n = 0;
	char		*nrec;
	int		 rc;

	if ((rc = decrypt(dm, id, creator, secret, slen, *rec, v, picks,
	    &n)) != 0) {
		log_warn("poll %s: a vote that does not decrypt (%s), dropped",
		    id, wc_strerror(rc));
		return 0;
	}
	if ((nrec = rich_poll_vote(*rec, voter, v->name, picks, n)) == NULL)
		return 0;
	free(*rec);
	*rec = nrec;
	log_info("poll %s: a vote for %zu options", id, n);
	return 1;
}

/* The blob of a waiting vote v into out. */
static void
pack(const struct vote *v, struct buf *out)
{
	size_t	 i;

	buf_push(out, v->from_me ? 1 : 0);
	buf_append(out, v->name, strlen(v->name) + 1);
	for (i = 0; i < v->ncand; i++)
		buf_append(out, v->cand[i], strlen(v->cand[i]) + 1);
	buf_push(out, '\0');
	buf_append(out, v->iv, WA_POLL_IV_LEN);
	buf_append(out, v->enc, v->enc_len);
}

/* The next NUL-terminated string of p[*at..len), or NULL. */
static const char *
next_str(const uint8_t *p, size_t len, size_t *at)
{
	const uint8_t	*z;
	const char	*s;

	if (*at >= len || (z = memchr(p + *at, '\0', len - *at)) == NULL)
		return NULL;
	s = (const char *)p + *at;
	*at = (size_t)(z - p) + 1;
	return s;
}

/* Read the blob p[0..len) into *v (pointing into p): false if bad. */
static bool
unpack(const uint8_t *p, size_t len, struct vote *v)
{
	const char	*s;
	size_t		 at = 1;

	memset(v, 0, sizeof(*v));
	if (len < 1)
		return false;
	v->from_me = p[0] != 0;
	if ((v->name = next_str(p, len, &at)) == NULL)
		return false;
	while ((s = next_str(p, len, &at)) != NULL && s[0] != '\0')
		if (v->ncand < CANDS)
			v->cand[v->ncand++] = s;
	if (s == NULL || len - at < WA_POLL_IV_LEN + 16)
		return false;
	v->iv = p + at;
	v->enc = p + at + WA_POLL_IV_LEN;
	v->enc_len = len - at - WA_POLL_IV_LEN;
	return v->enc_len <= WA_POLL_ENC_MAX;
}

static bool
has_ops(const struct wa_dm *dm)
{
	return dm->st->poll_put != NULL && dm->st->poll_get != NULL &&
	    dm->st->poll_set != NULL && dm->st->poll_pend_put != NULL &&
	    dm->st->poll_pend_take != NULL;
}

/* The waiting votes of poll id applied to *rec: how many changed it,
 * or the store's error. */
static int
take_waiting(struct wa_dm *dm, const char *chat, const char *id,
    const char *creator, const uint8_t *secret, size_t slen, char **rec)
{
	char		 voter[WA_DM_JID_MAX];
	uint8_t		*data;
	size_t		 len, i;
	struct vote	 v;
	int		 rc = 0, changed = 0;

	for (i = 0; i < PENDING_MAX; i++) {
		if ((rc = dm->st->poll_pend_take(dm->st->arg, chat, id, voter,
		    &data, &len)) <= 0)
			break;
		if (unpack(data, len, &v))
			changed += apply_one(dm, id, creator, secret, slen,
			    voter, &v, rec);
		else
			log_warn("poll %s: a damaged waiting vote, dropped", id);
		free(data);
	}
	return rc < 0 ? rc : changed;
}

int
dm_poll_created(struct wa_dm *dm, const struct wa_msg_in *m,
    const char *chat, const char *sender, bool from_me,
    const struct wa_msg_content *c, char **rec)
{
	const char	*creator = from_me ? "" : sender;
	int		 rc;

	*rec = NULL;
	if (!has_ops(dm))
		return 0;
	if (c->message_secret == NULL || c->message_secret_len >
	    WA_POLL_SECRET_MAX) {
		log_warn("poll %s: no message secret: its votes cannot be "
		    "read", m->id);
		return 0;
	}
	if ((rc = dm->st->poll_put(dm->st->arg, chat, m->id, creator,
	    c->message_secret, c->message_secret_len)) < 0)
		return rc;
	*rec = xstrdup(c->text);
	if ((rc = take_waiting(dm, chat, m->id, creator, c->message_secret,
	    c->message_secret_len, rec)) > 0)
		rc = dm->st->poll_set(dm->st->arg, chat, m->id, *rec);
	if (rc <= 0) {
		free(*rec);
		*rec = NULL;
	}
	return rc < 0 ? rc : rc > 0;
}

/* The vote c of message m as a struct vote (its JIDs in cs). */
static bool
vote_of(struct wa_dm *dm, const struct wa_msg_in *m, const char *sender,
    bool from_me, const struct wa_msg_content *c, struct vote *v,
    char (*cs)[WA_DM_JID_MAX])
{
	memset(v, 0, sizeof(*v));
	if (c->target.id == NULL || c->poll_enc == NULL || c->poll_iv ==
	    NULL || c->poll_iv_len != WA_POLL_IV_LEN)
		return false;
	v->from_me = from_me;
	v->name = !from_me && m->notify != NULL ? m->notify : "";
	if (from_me) {
		cand_add(v->cand, &v->ncand, cs, dm->own_pn);
		cand_add(v->cand, &v->ncand, cs, dm->own_lid);
	} else {
		cand_add(v->cand, &v->ncand, cs, sender);
		cand_add(v->cand, &v->ncand, cs, m->participant != NULL ?
		    m->participant : m->from);
		cand_add(v->cand, &v->ncand, cs, m->participant != NULL ?
		    m->participant_lid : m->sender_lid);
		cand_add(v->cand, &v->ncand, cs, m->participant != NULL ?
		    m->participant_pn : m->sender_pn);
	}
	v->iv = c->poll_iv;
	v->enc = c->poll_enc;
	v->enc_len = c->poll_enc_len;
	return v->ncand > 0;
}

/* Keep v of voter for poll id of chat, not stored yet: 0 or the
 * store's error. */
static int
keep(struct wa_dm *dm, const char *chat, const char *id, const char *voter,
    const struct vote *v, int64_t ts_ms)
{
	struct buf	 b = BUF_INIT;
	int		 rc;

	pack(v, &b);
	rc = dm->st->poll_pend_put(dm->st->arg, chat, id, voter, b.p, b.len,
	    ts_ms);
	buf_release(&b);
	if (rc == 0)
		log_info("poll %s: a vote before its poll, kept", id);
	return rc < 0 ? rc : 0;
}

int
dm_poll_vote(struct wa_dm *dm, const struct wa_msg_in *m, const char *chat,
    const char *sender, bool from_me, const struct wa_msg_content *c,
    char **rec)
{
	char		 cs[CANDS][WA_DM_JID_MAX], creator[WA_DM_JID_MAX];
	uint8_t		 secret[WA_POLL_SECRET_MAX];
	size_t		 slen = sizeof(secret);
	const char	*voter = from_me ? "" : sender;
	struct vote	 v;
	int		 rc;

	*rec = NULL;
	if (!has_ops(dm))
		return 0;
	if (!vote_of(dm, m, sender, from_me, c, &v, cs)) {
		log_warn("message %s: a malformed poll vote, dropped", m->id);
		return 0;
	}
	if ((rc = dm->st->poll_get(dm->st->arg, chat, c->target.id, creator,
	    secret, &slen, rec)) < 0)
		return rc;
	if (rc == 0)
		return keep(dm, chat, c->target.id, voter, &v,
		    c->ts_ms > 0 ? c->ts_ms : m->t * 1000);
	rc = apply_one(dm, c->target.id, creator, secret, slen, voter, &v,
	    rec);
	wa_crypto_wipe(secret, sizeof(secret));
	if (rc == 1 && (rc = dm->st->poll_set(dm->st->arg, chat,
	    c->target.id, *rec)) < 0) {
		free(*rec);
		*rec = NULL;
		return rc;
	}
	if (rc != 1) {
		free(*rec);
		*rec = NULL;
	}
	return rc == 1;
}

/* --- our vote, our poll --- */

/* End the transaction of our vote or poll: commit (rc 0) or roll back.
 * Returns rc, or the commit's error. */
static int
tx_end(struct wa_dm *dm, int rc)
{
	int	 rc2;

	if (rc == 0)
		return dm->st->tx_commit(dm->st->arg);
	if ((rc2 = dm->st->tx_rollback(dm->st->arg)) != 0)
		log_error("rollback: %s", wc_strerror(rc2));
	return rc;
}

/* Whether picks[0..n) are numbers of options of the record r, each once,
 * one at most when r allows one. */
static bool
picks_ok(const struct rich *r, const unsigned *picks, size_t n)
{
	const char	*sel = rich_get(r, "sel", NULL);
	size_t		 nopt = rich_poll_noptions(r), i, j;

	if (r->type != RICH_POLL || (n > 1 && sel != NULL &&
	    strcmp(sel, "1") == 0))
		return false;
	for (i = 0; i < n; i++) {
		if (picks[i] < 1 || picks[i] > nopt)
			return false;
		for (j = 0; j < i; j++)
			if (picks[j] == picks[i])
				return false;
	}
	return true;
}

/* The encrypted vote for picks of the poll (id, creator, secret, rec)
 * as a Message into p; our voter JID into voter. */
static int
vote_payload(struct wa_dm *dm, const char *chat, const char *id,
    const char *creator, const uint8_t *secret, size_t slen,
    const struct rich *r, const unsigned *picks, size_t n, struct buf *p)
{
	uint8_t			 h[WA_POLL_READ_MAX][WA_POLL_HASH_LEN];
	uint8_t			 iv[WA_POLL_IV_LEN];
	const char		*cj = creator[0] != '\0' ? creator : dm->own_pn;
	const char		*voter;
	struct wa_msg_key	 k;
	struct buf		 enc = BUF_INIT;
	size_t			 i;
	int			 rc;

	/* whatsmeow: our LID, unless the poll's creator is a PN */
	voter = jid_is_lid(cj) && dm->own_lid[0] != '\0' ? dm->own_lid :
	    dm->own_pn;
	for (i = 0; i < n; i++)
		wa_poll_option_hash(rich_poll_option(r, picks[i]), h[i]);
	if ((rc = dm->host.rng(dm->host.arg, iv, sizeof(iv))) < 0)
		return rc;
	if ((rc = wa_poll_vote_encrypt(secret, slen, id, cj, voter, iv,
	    (const uint8_t (*)[WA_POLL_HASH_LEN])h, n, &enc)) != 0)
		return rc;
	memset(&k, 0, sizeof(k));
	k.remote_jid = chat;
	k.from_me = creator[0] == '\0';
	k.id = id;
	k.participant = jid_is_group(chat) && creator[0] != '\0' ? creator :
	    NULL;
	rc = wa_msg_build_poll_vote(&k, enc.p, enc.len, iv,
	    dm->host.now_ms(dm->host.arg), p);
	buf_release(&enc);
	return rc;
}

/* In the open transaction: the vote queued and the record *rec tallied
 * and stored. */
static int
vote_put(struct wa_dm *dm, const char *chat, const char *id,
    const unsigned *picks, size_t n, char **rec)
{
	char		 creator[WA_DM_JID_MAX], *nrec;
	uint8_t		 secret[WA_POLL_SECRET_MAX];
	size_t		 slen = sizeof(secret);
	struct rich	 r;
	struct buf	 p = BUF_INIT;
	int		 rc;

	if ((rc = dm->st->poll_get(dm->st->arg, chat, id, creator, secret,
	    &slen, rec)) <= 0)
		return rc < 0 ? rc : -ENOENT;
	if (rich_parse(*rec, strlen(*rec), &r) != 0)
		rc = -ENOENT;
	else if (!picks_ok(&r, picks, n))
		rc = -EINVAL;
	else
		rc = vote_payload(dm, chat, id, creator, secret, slen, &r,
		    picks, n, &p);
	rich_release(&r);
	wa_crypto_wipe(secret, sizeof(secret));
	if (rc == 0 && (nrec = rich_poll_vote(*rec, "", NULL, picks, n)) !=
	    NULL) {
		free(*rec);
		*rec = nrec;
		if ((rc = dm->st->poll_set(dm->st->arg, chat, id, *rec)) >= 0)
			rc = dm_job_put(dm, chat, &p, "", "poll", NULL);
	}
	buf_release(&p);
	return rc < 0 ? rc : 0;
}

int
wa_dm_send_poll_vote(struct wa_dm *dm, const char *chat, const char *poll_id,
    const unsigned *picks, size_t n)
{
	struct wa_dm_ev	 ev;
	char		*rec = NULL;
	int		 rc;

	if (chat == NULL || poll_id == NULL || (n > 0 && picks == NULL) ||
	    n > WA_POLL_READ_MAX)
		return -EINVAL;
	if (!has_ops(dm))
		return -ENOENT;
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0)
		return rc;
	if ((rc = tx_end(dm, vote_put(dm, chat, poll_id, picks, n,
	    &rec))) == 0) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_DM_EV_CHANGED;
		ev.chat = chat;
		ev.id = poll_id;
		ev.text = rec;
		ev.rich = true;
		ev.from_me = true;
		dm_emit(dm, &ev);
		dm_kick(dm);
		log_info("poll %s: our vote for %zu options queued", poll_id, n);
	}
	free(rec);
	return rc;
}

/* --- our poll --- */

int
wa_dm_send_poll(struct wa_dm *dm, const char *chat, const char *question,
    const char *const *options, size_t n, bool multi,
    char id_out[WA_DM_ID_MAX])
{
	uint8_t		 secret[WA_POLL_SECRET_LEN];
	char		 id[WA_DM_ID_MAX], *rec = NULL;
	struct buf	 p = BUF_INIT;
	int		 rc;

	if (chat == NULL)
		return -EINVAL;
	if (!has_ops(dm))
		return -ENOENT;
	if ((rc = dm->host.rng(dm->host.arg, secret, sizeof(secret))) < 0)
		return rc;
	if ((rc = wa_msg_build_poll(question, options, n, multi, secret, &p,
	    &rec)) != 0)
		goto out;
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0)
		goto out;
	rc = dm_job_queue(dm, chat, &p, rec, NULL, NULL, NULL, "poll", NULL,
	    id, false);
	if (rc == 0)
		rc = dm->st->poll_put(dm->st->arg, chat, id, "", secret,
		    sizeof(secret));
	if ((rc = tx_end(dm, rc)) == 0) {
		dm_emit_queued(dm, chat, id, rec, NULL, true,
		    dm->host.now_ms(dm->host.arg));
		if (id_out != NULL)
			snprintf(id_out, WA_DM_ID_MAX, "%s", id);
		log_info("poll %s: ours, %zu options, queued", id, n);
	}
out:
	wa_crypto_wipe(secret, sizeof(secret));
	buf_release(&p);
	free(rec);
	return rc;
}
