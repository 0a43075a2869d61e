/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/phone-poll.c -- polls from a simulated phone
 * (protocol-features.md 3.1, 3.10), sent as phone_send_msg() sends a
 * text, stanza type "poll":
 *   POST /admin/mock-phone/send-poll {from_pn, to, name, options: [..],
 *     selectable (0 any, default 1), secret (64 hex digits), [id: the
 *     message id, 22 characters, so a test can vote before it]}: a
 *     pollCreationMessage (V3, 64, for one choice, else 49, as Baileys
 *     sends) with messageContextInfo.messageSecret = secret;
 *   POST /admin/mock-phone/send-vote {from_pn, to, poll_id, creator (the
 *     poll's creator, a user JID), secret (its hex), options: [names
 *     chosen], [voter (the user JID the key is made for; default
 *     from_pn@s.whatsapp.net)]}: a pollUpdateMessage with the vote
 *     encrypted by proto/poll.h.
 * The test names the secret, so the sim keeps nothing.  Loop thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/buf.h"
#include "base/hex.h"
#include "base/rich.h"
#include "pbw.h"
#include "phone.h"
#include "proto/msg.h"
#include "proto/poll.h"
#include "keys.h"
#include "sim.h"

static void
pb_str(struct buf *out, uint32_t field, const char *s)
{
	if (s != NULL)
		sim_pb_ld(out, field, s, strlen(s));
}

/* The 32 bytes of in's "secret" (64 hex digits) into s: false if bad. */
static bool
secret_of(struct json_object *in, uint8_t s[WA_POLL_SECRET_LEN])
{
	const char	*h = sim_json_str(in, "secret");
	size_t		 i;
	int		 hi, lo;

	if (h == NULL || strlen(h) != 2 * WA_POLL_SECRET_LEN)
		return false;
	for (i = 0; i < WA_POLL_SECRET_LEN; i++) {
		if ((hi = hex_digit(h[2 * i])) < 0 ||
		    (lo = hex_digit(h[2 * i + 1])) < 0)
			return false;
		s[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

/* in's "options": an array of strings, or NULL. */
static struct json_object *
options_of(struct json_object *in, size_t *n)
{
	struct json_object	*arr;

	if (!json_object_object_get_ex(in, "options", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return NULL;
	*n = json_object_array_length(arr);
	return *n <= WA_POLL_READ_MAX ? arr : NULL;
}

/* The Message of a poll: PollCreationMessage{name 2, options 3
 * {optionName 1}, selectableOptionsCount 4} and messageContextInfo
 * (35) {messageSecret 3}. */
static int
poll_message(struct json_object *in, struct buf *m)
{
	const uint8_t		*s;
	struct json_object	*arr;
	struct buf		 pc = BUF_INIT, o = BUF_INIT, ctx = BUF_INIT;
	uint8_t			 secret[WA_POLL_SECRET_LEN];
	int64_t			 sel = 1;
	size_t			 i, n;

	if ((arr = options_of(in, &n)) == NULL || n < 2 ||
	    !secret_of(in, secret) || sim_json_str(in, "name") == NULL)
		return -EINVAL;
	(void)sim_json_num(in, "selectable", &sel);
	pb_str(&pc, 2, sim_json_str(in, "name"));
	for (i = 0; i < n; i++) {
		o.len = 0;
		pb_str(&o, 1, json_object_get_string(
		    json_object_array_get_idx(arr, i)));
		sim_pb_ld(&pc, 3, o.p, o.len);
	}
	sim_pb_uint(&pc, 4, (uint64_t)(sel < 0 ? 0 : sel));
	sim_pb_ld(m, sel == 1 ? 64 : 49, pc.p, pc.len);
	s = secret;
	sim_pb_ld(&ctx, 3, s, sizeof(secret));
	sim_pb_ld(m, 35, ctx.p, ctx.len);
	buf_release(&pc);
	buf_release(&o);
	buf_release(&ctx);
	return 0;
}

/* The Message of a vote of from for in's options. */
static int
vote_message(struct json_object *in, const char *from, struct buf *m)
{
	const char		*id = sim_json_str(in, "poll_id");
	const char		*creator = sim_json_str(in, "creator");
	const char		*voter = sim_json_str(in, "voter");
	struct json_object	*arr;
	uint8_t			 secret[WA_POLL_SECRET_LEN], iv[WA_POLL_IV_LEN];
	uint8_t			 h[WA_POLL_READ_MAX][WA_POLL_HASH_LEN];
	char			 me[SIM_PN_MAX + 32];
	struct buf		 enc = BUF_INIT, u = BUF_INIT, k = BUF_INIT;
	struct buf		 v = BUF_INIT;
	size_t			 i, n;
	int			 rc;

	if (id == NULL || creator == NULL || (arr = options_of(in, &n)) ==
	    NULL || !secret_of(in, secret))
		return -EINVAL;
	snprintf(me, sizeof(me), "%s@s.whatsapp.net", from);
	for (i = 0; i < n; i++)
		wa_poll_option_hash(json_object_get_string(
		    json_object_array_get_idx(arr, i)), h[i]);
	sim_random(iv, sizeof(iv));
	if ((rc = wa_poll_vote_encrypt(secret, sizeof(secret), id, creator,
	    voter != NULL ? voter : me, iv, (const uint8_t (*)[
	    WA_POLL_HASH_LEN])h, n, &enc)) != 0)
		return -EINVAL;
	pb_str(&k, 1, sim_json_str(in, "to"));
	sim_pb_uint(&k, 2, strcmp(creator, me) == 0);
	pb_str(&k, 3, id);
	sim_pb_ld(&u, 1, k.p, k.len);
	sim_pb_ld(&v, 1, enc.p, enc.len);
	sim_pb_ld(&v, 2, iv, sizeof(iv));
	sim_pb_ld(&u, 2, v.p, v.len);
	sim_pb_ld(m, 50, u.p, u.len);
	buf_release(&enc);
	buf_release(&u);
	buf_release(&k);
	buf_release(&v);
	return 0;
}

static int
send_poll(struct sim *s, struct json_object *in, bool vote, struct buf *out)
{
	const char		*from = sim_json_str(in, "from_pn");
	const char		*to = sim_json_str(in, "to"), *id;
	struct sim_account	*a;
	struct buf		 m = BUF_INIT;
	int			 rc;

	if (from == NULL || to == NULL)
		return sim_json_error(out, 400, "give from_pn and to");
	if ((a = sim_account_by_pn(s, from)) == NULL || a->phone == NULL)
		return sim_json_error(out, 404, "no such account");
	if (!vote && (id = sim_json_str(in, "id")) != NULL &&
	    strlen(id) == WA_MSG_ID_LEN)
		memcpy(s->next_msg_id, id, WA_MSG_ID_LEN + 1);
	if ((vote ? vote_message(in, from, &m) : poll_message(in, &m)) != 0) {
		buf_release(&m);
		return sim_json_error(out, 400, vote ? "give poll_id, creator, "
		    "secret (64 hex) and options" : "give name, options (2 or "
		    "more), secret (64 hex)");
	}
	rc = sim_phone_send_answer(a->phone, to, &m, "poll", NULL, out);
	buf_release(&m);
	return rc;
}

int
sim_phone_poll_admin(struct sim *s, const char *path, struct json_object *in,
    bool post, struct buf *out)
{
	bool	 vote = strcmp(path, "mock-phone/send-vote") == 0;

	if (!vote && strcmp(path, "mock-phone/send-poll") != 0)
		return 0;
	if (!post)
		return sim_json_error(out, 405, "POST");
	return send_poll(s, in, vote, out);
}

/* Append p[0..n) in lowercase hex to b. */
static void
put_hex(struct buf *b, const uint8_t *p, size_t n)
{
	static const char	 hx[] = "0123456789abcdef";
	size_t			 i;

	for (i = 0; i < n; i++) {
		buf_push(b, (uint8_t)hx[p[i] >> 4]);
		buf_push(b, (uint8_t)hx[p[i] & 15]);
	}
}

char *
sim_phone_vote_hex(const struct wa_msg_content *c)
{
	struct buf	 b = BUF_INIT;

	if (c->kind != WA_MSG_POLL_VOTE || c->poll_enc == NULL ||
	    c->poll_iv == NULL)
		return NULL;
	put_hex(&b, c->poll_enc, c->poll_enc_len);
	buf_push(&b, ':');
	put_hex(&b, c->poll_iv, c->poll_iv_len);
	buf_push(&b, '\0');
	return (char *)b.p;
}

char *
sim_phone_poll_secret_hex(const struct wa_msg_content *c)
{
	struct buf	 b = BUF_INIT;

	if (c->kind != WA_MSG_RICH || c->rich_type != (int)RICH_POLL ||
	    c->message_secret == NULL)
		return NULL;
	put_hex(&b, c->message_secret, c->message_secret_len);
	buf_push(&b, '\0');
	return (char *)b.p;
}
