/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/msg-poll.c -- polls (proto/poll.h; protocol-features.md 3.1): the
 * vote crypto, and a received pollCreationMessage (49, 60, 64, 111) as a
 * rich record (base/rich.h "poll"), a pollUpdateMessage (50) as
 * WA_MSG_POLL_VOTE.  Pure; any thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/rich.h"
#include "base/xmalloc.h"
#include "proto/crypto.h"
#include "proto/msg-int.h"
#include "proto/pb.h"
#include "proto/poll.h"

#define JID_ID_MAX	256	/* bytes of a poll id or JID used */
static const char use_case[] = "Poll Vote";

void
wa_poll_option_hash(const char *name, uint8_t out[WA_POLL_HASH_LEN])
{
	wa_crypto_sha256(name, strlen(name), out);
}

/* The info or AAD: a ‖ sep ‖ b ‖ c, into out (room for 3 * 256 + 16). */
static size_t
join(char *out, const char *a, const char *b, const char *c, bool sep)
{
	size_t	 n = 0, l;

	l = strlen(a);
	memcpy(out + n, a, l);
	n += l;
	if (sep)
		out[n++] = '\0';
	l = strlen(b);
	memcpy(out + n, b, l);
	n += l;
	if (c != NULL) {
		l = strlen(c);
		memcpy(out + n, c, l);
		n += l;
	}
	return n;
}

static bool
ok_str(const char *s)
{
	return s != NULL && s[0] != '\0' && strlen(s) <= JID_ID_MAX;
}

int
wa_poll_vote_key(const uint8_t *secret, size_t len, const char *poll_id,
    const char *creator, const char *voter, uint8_t key[32])
{
	char	 info[4 * JID_ID_MAX + 16];
	size_t	 n;

	if (secret == NULL || len == 0 || len > WA_POLL_SECRET_MAX ||
	    poll_id == NULL || creator == NULL || voter == NULL)
		return -EINVAL;
	if (!ok_str(poll_id) || !ok_str(creator) || !ok_str(voter))
		return WC_ETOOBIG;
	n = join(info, poll_id, creator, voter, false);
	memcpy(info + n, use_case, sizeof(use_case) - 1);
	n += sizeof(use_case) - 1;
	return wa_crypto_hkdf(NULL, 0, secret, len, (const uint8_t *)info, n,
	    key, 32);
}

int
wa_poll_vote_encrypt(const uint8_t *secret, size_t len, const char *poll_id,
    const char *creator, const char *voter, const uint8_t iv[WA_POLL_IV_LEN],
    const uint8_t (*hashes)[WA_POLL_HASH_LEN], size_t n, struct buf *out)
{
	Wae2e__Message__PollVoteMessage	 v =
	    WAE2E__MESSAGE__POLL_VOTE_MESSAGE__INIT;
	ProtobufCBinaryData		 sel[WA_POLL_READ_MAX];
	uint8_t				 key[32], *p, *c;
	char				 aad[3 * JID_ID_MAX + 16];
	size_t				 i, pl, al;
	int				 rc;

	if (n > WA_POLL_READ_MAX || (n > 0 && hashes == NULL) || iv == NULL ||
	    out == NULL)
		return -EINVAL;
	if ((rc = wa_poll_vote_key(secret, len, poll_id, creator, voter,
	    key)) != 0)
		return rc;
	for (i = 0; i < n; i++) {
		sel[i].data = (uint8_t *)hashes[i];
		sel[i].len = WA_POLL_HASH_LEN;
	}
	v.n_selectedoptions = n;
	v.selectedoptions = sel;
	pl = protobuf_c_message_get_packed_size(&v.base);
	p = xmalloc(pl + 1);
	protobuf_c_message_pack(&v.base, p);
	c = xmalloc(pl + WA_CRYPTO_GCM_TAG_LEN);
	al = join(aad, poll_id, voter, NULL, true);
	rc = wa_crypto_gcm_seal_once(key, iv, (const uint8_t *)aad, al, p, pl,
	    c);
	if (rc == 0)
		buf_append(out, c, pl + WA_CRYPTO_GCM_TAG_LEN);
	wa_crypto_wipe(key, sizeof(key));
	free(p);
	free(c);
	return rc;
}

int
wa_poll_vote_decrypt(const uint8_t *secret, size_t len, const char *poll_id,
    const char *creator, const char *voter, const uint8_t *iv, size_t iv_len,
    const uint8_t *enc, size_t enc_len, uint8_t (*hashes)[WA_POLL_HASH_LEN],
    size_t max, size_t *n)
{
	ProtobufCMessage			*pm;
	const Wae2e__Message__PollVoteMessage	*v;
	uint8_t					 key[32], *p;
	char					 aad[3 * JID_ID_MAX + 16];
	size_t					 i, al;
	int					 rc;

	*n = 0;
	if (iv == NULL || iv_len != WA_POLL_IV_LEN || enc == NULL ||
	    enc_len > WA_POLL_ENC_MAX)
		return WC_EPROTO;
	if (enc_len < WA_CRYPTO_GCM_TAG_LEN)
		return WC_ETRUNC;
	if ((rc = wa_poll_vote_key(secret, len, poll_id, creator, voter,
	    key)) != 0)
		return rc;
	p = xmalloc(enc_len);
	al = join(aad, poll_id, voter, NULL, true);
	rc = wa_crypto_gcm_open_once(key, iv, (const uint8_t *)aad, al, enc,
	    enc_len, p);
	wa_crypto_wipe(key, sizeof(key));
	if (rc == 0 && (rc = wa_pb_unpack(
	    &wae2e__message__poll_vote_message__descriptor, p,
	    enc_len - WA_CRYPTO_GCM_TAG_LEN, &pm)) == 0) {
		v = (const Wae2e__Message__PollVoteMessage *)pm;
		for (i = 0; i < v->n_selectedoptions && *n < max; i++)
			if (v->selectedoptions[i].len == WA_POLL_HASH_LEN)
				memcpy(hashes[(*n)++],
				    v->selectedoptions[i].data,
				    WA_POLL_HASH_LEN);
		protobuf_c_message_free_unpacked(pm, NULL);
	}
	free(p);
	return rc;
}

/* --- received --- */

/* The poll of m, whichever field holds it, or NULL. */
static const Wae2e__Message__PollCreationMessage *
creation_of(const Wae2e__Message *m)
{
	if (m->pollcreationmessage != NULL)
		return m->pollcreationmessage;
	if (m->pollcreationmessagev3 != NULL)
		return m->pollcreationmessagev3;
	if (m->pollcreationmessagev2 != NULL)
		return m->pollcreationmessagev2;
	return m->pollcreationmessagev5;
}

static void
creation(const Wae2e__Message__PollCreationMessage *pc,
    struct wa_msg_content *c)
{
	struct buf	 b = BUF_INIT;
	char		 v[16];
	size_t		 i, n = 0;

	rich_begin(&b, RICH_POLL);
	rich_add_str(&b, "q", pc->name != NULL ? pc->name : "");
	snprintf(v, sizeof(v), "%u", pc->has_selectableoptionscount ?
	    (unsigned)pc->selectableoptionscount : 0u);
	rich_add_str(&b, "sel", v);
	for (i = 0; i < pc->n_options && n < WA_POLL_READ_MAX; i++)
		if (pc->options[i] != NULL && pc->options[i]->optionname !=
		    NULL) {
			rich_add_str(&b, "opt", pc->options[i]->optionname);
			n++;
		}
	buf_push(&b, '\0');
	c->kind = WA_MSG_RICH;
	c->rich_type = (int)RICH_POLL;
	c->text = (char *)b.p;
}

static uint8_t *
dup_bytes(const ProtobufCBinaryData *d, size_t *len)
{
	uint8_t	*p = xmalloc(d->len > 0 ? d->len : 1);

	memcpy(p, d->data, d->len);
	*len = d->len;
	return p;
}

static void
vote(const Wae2e__Message__PollUpdateMessage *u, struct wa_msg_content *c)
{
	const Wae2e__MessageKey	*k = u->pollcreationmessagekey;

	c->kind = WA_MSG_POLL_VOTE;
	if (k != NULL) {
		c->target.remote_jid = k->remotejid != NULL ?
		    xstrdup(k->remotejid) : NULL;
		c->target.from_me = k->has_fromme && k->fromme;
		c->target.id = k->id != NULL ? xstrdup(k->id) : NULL;
		c->target.participant = k->participant != NULL ?
		    xstrdup(k->participant) : NULL;
	}
	if (u->vote != NULL && u->vote->has_encpayload &&
	    u->vote->encpayload.len <= WA_POLL_ENC_MAX)
		c->poll_enc = dup_bytes(&u->vote->encpayload,
		    &c->poll_enc_len);
	if (u->vote != NULL && u->vote->has_enciv &&
	    u->vote->enciv.len == WA_POLL_IV_LEN)
		c->poll_iv = dup_bytes(&u->vote->enciv, &c->poll_iv_len);
	c->ts_ms = u->has_sendertimestampms ? u->sendertimestampms : 0;
}

bool
wa_msg_poll_of(const Wae2e__Message *m, struct wa_msg_content *c)
{
	const Wae2e__Message__PollCreationMessage *pc = creation_of(m);

	if (pc != NULL) {
		creation(pc, c);
		return true;
	}
	if (m->pollupdatemessage != NULL) {
		vote(m->pollupdatemessage, c);
		return true;
	}
	return false;
}

/* --- sent --- */

/* Append the packed m to out. */
static void
pack_to(const ProtobufCMessage *m, struct buf *out)
{
	size_t	 len = protobuf_c_message_get_packed_size(m);

	buf_reserve(out, len);
	out->len += protobuf_c_message_pack(m, out->p + out->len);
}

int
wa_msg_build_poll_vote(const struct wa_msg_key *poll, const uint8_t *enc,
    size_t enc_len, const uint8_t iv[WA_POLL_IV_LEN], int64_t ts_ms,
    struct buf *out)
{
	Wae2e__Message			 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__PollUpdateMessage u =
	    WAE2E__MESSAGE__POLL_UPDATE_MESSAGE__INIT;
	Wae2e__Message__PollEncValue	 v =
	    WAE2E__MESSAGE__POLL_ENC_VALUE__INIT;
	Wae2e__MessageKey		 k = WAE2E__MESSAGE_KEY__INIT;

	if (poll == NULL || poll->id == NULL || enc == NULL || iv == NULL ||
	    out == NULL || enc_len > WA_POLL_ENC_MAX)
		return -EINVAL;
	k.remotejid = (char *)(uintptr_t)poll->remote_jid;
	k.has_fromme = 1;
	k.fromme = poll->from_me;
	k.id = (char *)(uintptr_t)poll->id;
	k.participant = (char *)(uintptr_t)poll->participant;
	v.has_encpayload = 1;
	v.encpayload.data = (uint8_t *)(uintptr_t)enc;
	v.encpayload.len = enc_len;
	v.has_enciv = 1;
	v.enciv.data = (uint8_t *)(uintptr_t)iv;
	v.enciv.len = WA_POLL_IV_LEN;
	u.pollcreationmessagekey = &k;
	u.vote = &v;
	u.has_sendertimestampms = 1;
	u.sendertimestampms = ts_ms;
	m.pollupdatemessage = &u;
	pack_to(&m.base, out);
	return 0;
}

int
wa_msg_build_poll(const char *question, const char *const *options, size_t n,
    bool multi, const uint8_t secret[WA_POLL_SECRET_LEN], struct buf *out,
    char **rec)
{
	Wae2e__Message				 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__PollCreationMessage	 pc =
	    WAE2E__MESSAGE__POLL_CREATION_MESSAGE__INIT;
	Wae2e__Message__PollCreationMessage__Option o[WA_POLL_OPTIONS_MAX];
	Wae2e__Message__PollCreationMessage__Option *op[WA_POLL_OPTIONS_MAX];
	Wae2e__MessageContextInfo		 ctx =
	    WAE2E__MESSAGE_CONTEXT_INFO__INIT;
	struct wa_msg_content			 c;
	size_t					 i, j;

	if (question == NULL || question[0] == '\0' || strlen(question) >
	    WA_POLL_TEXT_MAX || options == NULL || n < 2 ||
	    n > WA_POLL_OPTIONS_MAX || secret == NULL || out == NULL ||
	    rec == NULL)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (options[i] == NULL || options[i][0] == '\0' ||
		    strlen(options[i]) > WA_POLL_TEXT_MAX)
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (strcmp(options[i], options[j]) == 0)
				return -EINVAL;	/* one hash, two options */
		wae2e__message__poll_creation_message__option__init(&o[i]);
		o[i].optionname = (char *)(uintptr_t)options[i];
		op[i] = &o[i];
	}
	pc.name = (char *)(uintptr_t)question;
	pc.n_options = n;
	pc.options = op;
	pc.has_selectableoptionscount = 1;
	pc.selectableoptionscount = multi ? 0 : 1;
	/* Baileys: V3 (64) for one answer, pollCreationMessage (49) else */
	if (multi)
		m.pollcreationmessage = &pc;
	else
		m.pollcreationmessagev3 = &pc;
	ctx.has_messagesecret = 1;
	ctx.messagesecret.data = (uint8_t *)(uintptr_t)secret;
	ctx.messagesecret.len = WA_POLL_SECRET_LEN;
	m.messagecontextinfo = &ctx;
	pack_to(&m.base, out);
	memset(&c, 0, sizeof(c));
	creation(&pc, &c);
	*rec = c.text;
	return 0;
}
