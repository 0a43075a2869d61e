/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-dm-job.c -- the outbox core of the message engine
 * (proto/dm-job.c with its two fan-outs) against fakes, without the sim:
 * an in-memory store (tests/fakes/fake-store.c), a transport that records
 * the nodes sent (fake-transport.c) and a clock that stands still
 * (fake-clock.c).  The peers are real Signal parties over fake stores of
 * their own, so what the wire carries is checked by decrypting it.
 *
 * The walk of one message: the usync device query for the contact and
 * us, the prekey query for the devices without a session, the <message>
 * with a copy per device (ours wrapped in deviceSentMessage) sent only
 * after the sessions were committed, SENT on the server's ack.  Then: a
 * failed send keeps the message QUEUED and the next connection sends it;
 * a refused one is FAILED until wa_dm_retry(); a new module over the
 * same store after a crash resumes from it; a failed commit sends
 * nothing; a group message asks the group first, sends the SKDM pairwise
 * and one skmsg, and records the holders once acked.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "proto/crypto.h"
#include "proto/dm.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "proto/wa-signal.h"
#include "tests/fakes/fake-clock.h"
#include "tests/fakes/fake-store.h"
#include "tests/fakes/fake-transport.h"

#define T0_MS		1700000000000LL
#define ME		"15550000001@s.whatsapp.net"
#define ME_DEV		"15550000001:3@s.whatsapp.net"	/* this device */
#define CONTACT		"15550000002@s.whatsapp.net"
#define GROUP		"120363000000000001@g.us"
#define MAX_EVS		64

/* A Signal party over a fake store of its own: the contact's phone, or
 * our own phone (device 0 of ME). */
struct party {
	const char		*jid;	/* its device JID */
	struct fake_store	*st;
	struct wa_signal_store_ops ops;
	struct wa_signal	*sig;
	struct wa_signal_addr	 addr;	/* how others address it */
};

/* What the module told the UI. */
struct ev {
	enum wa_dm_ev_kind	 kind;
	char			 chat[WA_DM_JID_MAX];
	char			 id[WA_DM_ID_MAX];
	char			 text[128];
	int			 state;
	int			 err;
	bool			 notice;
	enum wa_dm_note		 note;
	uint32_t		 note_device;
	char			 sender[WA_DM_JID_MAX];
};

/* What the wire and the store were when a <message> left. */
struct at_send {
	unsigned	 messages;
	int		 tx_depth;	/* open transactions */
	bool		 session;	/* the contact's session was stored */
	struct buf	 rec;		/* the contact's session record */
};

struct ctx {
	struct fake_clock	 clock;
	struct fake_transport	 wire;
	struct wa_dm_host	 host;
	struct fake_store	*st;		/* ours */
	struct wa_dm_store_ops	 dm_ops;
	struct wa_signal_store_ops sig_ops;
	struct wa_signal	*sig;
	struct wa_dm		*dm;
	struct party		 contact, phone;
	struct ev		 evs[MAX_EVS];
	size_t			 nevs;
	struct at_send		 at;
	struct arena		 a;		/* nodes fed to the module */
};

static const uint8_t adv[] = { 0x0a, 0x03, 'a', 'd', 'v' };

/* --- set-up --- */

static void
party_init(struct party *p, const char *jid, struct fake_clock *clock)
{
	p->jid = jid;
	p->st = fake_store_new();
	fake_store_signal_ops(p->st, &p->ops);
	assert_int_equal(wa_signal_new(&p->ops, fake_clock_now, clock,
	    &p->sig), 0);
	assert_int_equal(wa_signal_addr_from_jid(jid, strlen(jid), &p->addr),
	    0);
}

static void
party_free(struct party *p)
{
	wa_signal_free(p->sig);
	fake_store_free(p->st);
}

static void
on_event(void *arg, const struct wa_dm_ev *e)
{
	struct ctx	*c = arg;
	struct ev	*v;

	assert_true(c->nevs < MAX_EVS);
	v = &c->evs[c->nevs++];
	memset(v, 0, sizeof(*v));
	v->kind = e->kind;
	snprintf(v->chat, sizeof(v->chat), "%s", e->chat != NULL ? e->chat :
	    "");
	snprintf(v->id, sizeof(v->id), "%s", e->id != NULL ? e->id : "");
	snprintf(v->text, sizeof(v->text), "%s", e->text != NULL ? e->text :
	    "");
	v->state = e->state;
	v->err = e->err;
	v->notice = e->notice;
	v->note = e->notice_kind;
	v->note_device = e->notice_device;
	snprintf(v->sender, sizeof(v->sender), "%s", e->sender != NULL ?
	    e->sender : "");
}

/* Each <message> that leaves: were the sessions committed first? */
static void
on_send(void *arg, const struct wa_node *n)
{
	struct ctx	*c = arg;

	if (!wa_str_eqc(n->tag, "message"))
		return;
	c->at.messages++;
	c->at.tx_depth = fake_store_tx_depth(c->st);
	c->at.session = fake_store_has_session(c->st, &c->contact.addr);
	c->at.rec.len = 0;
	(void)fake_store_session(c->st, &c->contact.addr, &c->at.rec);
}

/* A new module over c's store, the signal context and the wire. */
static void
dm_up(struct ctx *c)
{
	struct wa_dm_cfg	 cfg = { true, true, true };

	assert_int_equal(wa_signal_new(&c->sig_ops, fake_clock_now, &c->clock,
	    &c->sig), 0);
	assert_int_equal(wa_dm_new(&c->host, &c->dm_ops, c->sig, &cfg,
	    on_event, c, &c->dm), 0);
}

static void
dm_down(struct ctx *c)
{
	wa_dm_free(c->dm);
	wa_signal_free(c->sig);
	c->dm = NULL;
	c->sig = NULL;
}

static void
online(struct ctx *c)
{
	wa_dm_online(c->dm, ME_DEV, "", "Me", 1234, adv, sizeof(adv));
}

static int
setup(void **state)
{
	struct ctx	*c = calloc(1, sizeof(*c));

	assert_non_null(c);
	assert_int_equal(wa_crypto_init(), 0);
	fake_clock_init(&c->clock, T0_MS);
	fake_transport_init(&c->wire, &c->clock);
	fake_transport_host(&c->wire, &c->host);
	c->wire.on_send = on_send;
	c->wire.on_send_arg = c;
	c->st = fake_store_new();
	fake_store_dm_ops(c->st, &c->dm_ops);
	fake_store_signal_ops(c->st, &c->sig_ops);
	party_init(&c->contact, CONTACT, &c->clock);
	party_init(&c->phone, ME, &c->clock);
	arena_init(&c->a, 4096);
	dm_up(c);
	*state = c;
	return 0;
}

static int
teardown(void **state)
{
	struct ctx	*c = *state;

	dm_down(c);
	party_free(&c->contact);
	party_free(&c->phone);
	fake_store_free(c->st);
	fake_transport_release(&c->wire);
	arena_release(&c->a);
	buf_release(&c->at.rec);
	free(c);
	return 0;
}

/* --- reading the wire --- */

/* The index of the first iq with xmlns at or after from; fails when
 * there is none. */
static int
iq_of(struct ctx *c, size_t from, const char *xmlns)
{
	int	 i = fake_transport_find(&c->wire, from, "iq", "xmlns", xmlns);

	assert_true(i >= 0);
	return i;
}

/* Whether the list node l names jid in a child <user jid>. */
static bool
lists_user(const struct wa_node *l, const char *jid)
{
	char	 v[WA_DM_JID_MAX];
	size_t	 i;

	for (i = 0; i < wa_node_nkids(l); i++)
		if (wa_str_eqc(wa_node_kid(l, i)->tag, "user") &&
		    fake_node_attr(wa_node_kid(l, i), "jid", v, sizeof(v)) &&
		    strcmp(v, jid) == 0)
			return true;
	return false;
}

/* The <enc> of the copy for device in <participants> of message m, or
 * NULL. */
static const struct wa_node *
copy_for(const struct wa_node *m, const char *device)
{
	const struct wa_node	*ps = wa_node_child(m, "participants"), *to;
	char			 v[WA_DM_JID_MAX];
	size_t			 i;

	for (i = 0; i < wa_node_nkids(ps); i++) {
		to = wa_node_kid(ps, i);
		if (fake_node_attr(to, "jid", v, sizeof(v)) &&
		    strcmp(v, device) == 0)
			return wa_node_child(to, "enc");
	}
	return NULL;
}

/* Party p decrypts enc (from sender, our device) and parses it into *out
 * (released by the caller). */
static void
party_read(struct party *p, const struct wa_node *enc,
    struct wa_msg_content *out)
{
	struct wa_signal_addr	 me;
	struct buf		 plain = BUF_INIT;
	const uint8_t		*ct;
	size_t			 len, ulen;

	assert_non_null(enc);
	assert_true(wa_node_bytes(enc, &ct, &len));
	assert_int_equal(wa_signal_addr_from_jid(ME_DEV, strlen(ME_DEV), &me),
	    0);
	assert_int_equal(wa_signal_decrypt(p->sig, &me,
	    wa_node_str_is(enc, "type", "pkmsg") ? WA_SIGNAL_PKMSG :
	    WA_SIGNAL_MSG, ct, len, &plain, NULL), 0);
	assert_int_equal(wa_msg_unpad(plain.p, plain.len, &ulen), 0);
	assert_int_equal(wa_msg_parse(plain.p, ulen, out), 0);
	buf_release(&plain);
}

/* --- answering as the server --- */

/* <iq type="result" id=ID from="s.whatsapp.net"> with room for kids. */
static struct wa_node *
result_of(struct ctx *c, const struct wa_node *q, size_t kids,
    struct wa_node **k)
{
	struct wa_node	*r = wa_nb_new(&c->a, "iq", 3);
	char		 id[32];

	assert_true(fake_node_attr(q, "id", id, sizeof(id)));
	wa_nb_attr(r, "id", wa_node_strdup(&c->a, id, strlen(id)));
	wa_nb_attr(r, "type", "result");
	wa_nb_attr_server(r, "from");
	*k = wa_nb_kids(&c->a, r, kids);
	return r;
}

/* One <user jid><devices><device-list><device id [key-index]/>...
 * of a usync answer. */
static void
usync_user(struct ctx *c, struct wa_node *u, const char *jid,
    const unsigned *ids, size_t n)
{
	struct wa_node	*k, *dl, *d;
	size_t		 i;

	wa_nb_kid(&c->a, u, "user", 1);
	assert_int_equal(wa_nb_attr_jid(u, "jid", jid), 0);
	k = wa_nb_kids(&c->a, u, 1);
	wa_nb_kid(&c->a, &k[0], "devices", 0);
	dl = wa_nb_kids(&c->a, &k[0], 1);
	wa_nb_kid(&c->a, &dl[0], "device-list", 0);
	d = wa_nb_kids(&c->a, &dl[0], n);
	for (i = 0; i < n; i++) {
		wa_nb_kid(&c->a, &d[i], "device", 2);
		wa_nb_attr_num(&c->a, &d[i], "id", ids[i]);
		if (ids[i] > 0)
			wa_nb_attr(&d[i], "key-index", "1");
	}
}

/* Answer the usync query at index qi: the contact has devices cids[0..nc)
 * (nc 0: not on WhatsApp), we have 0 (the phone) and 3 (this one). */
static void
answer_usync(struct ctx *c, int qi, const unsigned *cids, size_t nc)
{
	static const unsigned	 mine[] = { 0, 3 };
	struct wa_node		*k, *us, *l, *u, *r;

	r = result_of(c, fake_transport_node(&c->wire, (size_t)qi), 1, &k);
	wa_nb_kid(&c->a, &k[0], "usync", 0);
	us = wa_nb_kids(&c->a, &k[0], 1);
	wa_nb_kid(&c->a, &us[0], "list", 0);
	l = &us[0];
	u = wa_nb_kids(&c->a, l, 2);
	usync_user(c, &u[0], CONTACT, cids, nc);
	usync_user(c, &u[1], ME, mine, 2);
	assert_int_equal(wa_dm_stanza(c->dm, r), 1);
}

/* A child tag of n holding p[0..len). */
static void
bytes_kid(struct ctx *c, struct wa_node *k, const char *tag, const void *p,
    size_t len)
{
	uint8_t	*v = arena_alloc(&c->a, len);

	memcpy(v, p, len);
	wa_nb_kid(&c->a, k, tag, 0);
	wa_nb_bytes(k, v, len);
}

static void
be(uint8_t *out, uint32_t v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		out[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* <user jid><registration/><type/><identity/><skey>...</skey><key>...
 * </key></user>: p's bundle with one-time prekey pk (8.1). */
static void
bundle_user_pk(struct ctx *c, struct wa_node *u, const struct party *p,
    uint32_t pk)
{
	struct wa_signal_bundle	 b;
	struct wa_node		*k, *sk, *ok;
	uint8_t			 reg[4], id3[3], t = 5;

	fake_store_bundle(p->st, pk, &b);
	wa_nb_kid(&c->a, u, "user", 1);
	assert_int_equal(wa_nb_attr_jid(u, "jid", p->jid), 0);
	k = wa_nb_kids(&c->a, u, 5);
	be(reg, b.registration_id, 4);
	bytes_kid(c, &k[0], "registration", reg, 4);
	bytes_kid(c, &k[1], "type", &t, 1);
	bytes_kid(c, &k[2], "identity", b.identity, 32);
	wa_nb_kid(&c->a, &k[3], "skey", 0);
	sk = wa_nb_kids(&c->a, &k[3], 3);
	be(id3, b.spk_id, 3);
	bytes_kid(c, &sk[0], "id", id3, 3);
	bytes_kid(c, &sk[1], "value", b.spk_pub, 32);
	bytes_kid(c, &sk[2], "signature", b.spk_sig, 64);
	wa_nb_kid(&c->a, &k[4], "key", 0);
	ok = wa_nb_kids(&c->a, &k[4], 2);
	be(id3, b.prekey_id, 3);
	bytes_kid(c, &ok[0], "id", id3, 3);
	bytes_kid(c, &ok[1], "value", b.prekey_pub, 32);
}

static void
bundle_user(struct ctx *c, struct wa_node *u, const struct party *p)
{
	bundle_user_pk(c, u, p, 1);
}

/* Answer the prekey query at index qi with both parties' bundles. */
static void
answer_keys(struct ctx *c, int qi)
{
	struct wa_node	*k, *u, *r;

	r = result_of(c, fake_transport_node(&c->wire, (size_t)qi), 1, &k);
	wa_nb_kid(&c->a, &k[0], "list", 0);
	u = wa_nb_kids(&c->a, &k[0], 2);
	bundle_user(c, &u[0], &c->contact);
	bundle_user(c, &u[1], &c->phone);
	assert_int_equal(wa_dm_stanza(c->dm, r), 1);
}

/* The server's <ack class="message" id [error]> for our message id. */
static int
ack(struct ctx *c, const char *id, const char *error)
{
	struct wa_node	*n = wa_nb_new(&c->a, "ack", 5);

	wa_nb_attr(n, "class", "message");
	wa_nb_attr(n, "id", wa_node_strdup(&c->a, id, strlen(id)));
	assert_int_equal(wa_nb_attr_jid(n, "from", CONTACT), 0);
	wa_nb_attr(n, "t", "1700000001");
	wa_nb_attr(n, "error", error);
	return wa_dm_stanza(c->dm, n);
}

/* The last event of kind, or NULL. */
static const struct ev *
last_ev(const struct ctx *c, enum wa_dm_ev_kind kind)
{
	size_t	 i;

	for (i = c->nevs; i > 0; i--)
		if (c->evs[i - 1].kind == kind)
			return &c->evs[i - 1];
	return NULL;
}

/*
 * Queue "hello" to the contact while online and walk it to the
 * <message>: devices, then keys.  Returns the message's index on the
 * wire; its id in id.
 */
static int
walk_to_message(struct ctx *c, char id[WA_DM_ID_MAX])
{
	static const unsigned	 cids[] = { 0 };
	size_t			 from = fake_transport_count(&c->wire);

	assert_int_equal(wa_dm_send_text(c->dm, CONTACT, "hello", NULL, NULL,
	    NULL, id), 0);
	answer_usync(c, iq_of(c, from, "usync"), cids, 1);
	answer_keys(c, iq_of(c, from, "encrypt"));
	return fake_transport_find(&c->wire, from, "message", "id", id);
}

/* --- the tests --- */

static void
test_dm_job_send__goes_from_devices_and_keys_to_the_ack(void **state)
{
	struct ctx		*c = *state;
	struct wa_msg_content	 got;
	const struct wa_node	*q, *m;
	const struct ev		*e;
	char			 id[WA_DM_ID_MAX], v[WA_DM_JID_MAX];
	size_t			 from;
	int			 qi, mi;

	online(c);
	from = fake_transport_count(&c->wire);
	assert_int_equal(wa_dm_send_text(c->dm, CONTACT, "hello", NULL, NULL,
	    NULL, id), 0);
	assert_int_equal(fake_store_state(c->st, CONTACT, id), WA_DM_QUEUED);
	assert_non_null(e = last_ev(c, WA_DM_EV_MESSAGE));
	assert_string_equal(e->id, id);

	/* P_DEVICES: one usync query for the contact and us */
	qi = iq_of(c, from, "usync");
	q = wa_node_child(wa_node_child(fake_transport_node(&c->wire,
	    (size_t)qi), "usync"), "list");
	assert_true(lists_user(q, CONTACT));
	assert_true(lists_user(q, ME));
	assert_int_equal(fake_transport_find(&c->wire, from, "message", NULL,
	    NULL), -1);
	answer_usync(c, qi, (const unsigned[]){ 0 }, 1);

	/* P_KEYS: the contact's phone and ours, never this device */
	qi = iq_of(c, from, "encrypt");
	q = wa_node_child(fake_transport_node(&c->wire, (size_t)qi), "key");
	assert_true(lists_user(q, CONTACT));
	assert_true(lists_user(q, ME));
	assert_false(lists_user(q, ME_DEV));
	assert_int_equal(fake_transport_find(&c->wire, from, "message", NULL,
	    NULL), -1);
	answer_keys(c, qi);

	/* the stanza: a pkmsg per device, sent after the commit */
	mi = fake_transport_find(&c->wire, from, "message", "id", id);
	assert_true(mi >= 0);
	m = fake_transport_node(&c->wire, (size_t)mi);
	assert_true(fake_node_attr(m, "to", v, sizeof(v)));
	assert_string_equal(v, CONTACT);
	assert_true(wa_node_str_is(m, "type", "text"));
	assert_non_null(wa_node_child(m, "device-identity"));
	assert_true(wa_node_str_is(copy_for(m, CONTACT), "type", "pkmsg"));
	assert_int_equal(c->at.messages, 1);
	assert_int_equal(c->at.tx_depth, 0);
	assert_true(c->at.session);
	party_read(&c->contact, copy_for(m, CONTACT), &got);
	assert_string_equal(got.text, "hello");
	assert_null(got.dsm_destination);
	wa_msg_content_release(&got);
	/* our phone gets it as deviceSentMessage to the contact's chat */
	party_read(&c->phone, copy_for(m, ME), &got);
	assert_string_equal(got.text, "hello");
	assert_string_equal(got.dsm_destination, CONTACT);
	wa_msg_content_release(&got);
	assert_int_equal(fake_store_state(c->st, CONTACT, id), WA_DM_QUEUED);

	/* P_ACK: one tick; the outbox is empty, nothing more goes out */
	from = fake_transport_count(&c->wire);
	assert_int_equal(ack(c, id, NULL), 1);
	assert_int_equal(fake_store_state(c->st, CONTACT, id), WA_DM_SENT);
	assert_non_null(e = last_ev(c, WA_DM_EV_STATE));
	assert_string_equal(e->id, id);
	assert_int_equal(e->state, WA_DM_SENT);
	assert_int_equal(fake_transport_count(&c->wire), from);
	/* an ack for another id is not the job's */
	assert_int_equal(ack(c, "3EB0000000000000", NULL), 0);
}

/* A photo with a caption and a voice note go as type="media", each <enc>
 * with its mediatype (protocol-features.md 1.7); the contact reads the
 * media message; the ack makes it sent. */
static void
test_dm_job_send_media__type_media_and_the_enc_mediatype(void **state)
{
	static const unsigned	 cids[] = { 0 };
	struct ctx		*c = *state;
	static uint8_t		 key[32], sha[32], enc[32], wave[64];
	struct wa_msg_media	 md = { .type = WA_MEDIA_IMAGE,
	    .mimetype = (char *)"image/jpeg", .file_length = 2048,
	    .url = (char *)"https://mmg.example.net/d/f/A.enc",
	    .direct_path = (char *)"/v/t62/A.enc", .media_key = key,
	    .media_key_len = 32, .file_sha256 = sha, .file_sha256_len = 32,
	    .file_enc_sha256 = enc, .file_enc_sha256_len = 32,
	    .caption = (char *)"the harbour", .width = 64, .height = 48 };
	struct wa_msg_content	 got;
	const struct wa_node	*m;
	char			 id[WA_DM_ID_MAX];
	size_t			 from;

	online(c);
	from = fake_transport_count(&c->wire);
	assert_int_equal(wa_dm_send_media(c->dm, CONTACT, &md, NULL, NULL,
	    NULL, id), 0);
	answer_usync(c, iq_of(c, from, "usync"), cids, 1);
	answer_keys(c, iq_of(c, from, "encrypt"));
	m = fake_transport_node(&c->wire, (size_t)fake_transport_find(
	    &c->wire, from, "message", "id", id));
	assert_true(wa_node_str_is(m, "type", "media"));
	assert_true(wa_node_str_is(copy_for(m, CONTACT), "mediatype",
	    "image"));
	assert_true(wa_node_str_is(copy_for(m, ME), "mediatype", "image"));
	party_read(&c->contact, copy_for(m, CONTACT), &got);
	assert_int_equal(got.kind, WA_MSG_MEDIA);
	assert_int_equal(got.media->type, WA_MEDIA_IMAGE);
	assert_string_equal(got.media->caption, "the harbour");
	assert_string_equal(got.media->direct_path, "/v/t62/A.enc");
	wa_msg_content_release(&got);
	assert_int_equal(ack(c, id, NULL), 1);
	assert_int_equal(fake_store_state(c->st, CONTACT, id), WA_DM_SENT);

	/* A voice note, a reply; without a download field it is refused. */
	md.type = WA_MEDIA_PTT;
	md.mimetype = (char *)"audio/ogg; codecs=opus";
	md.caption = NULL;
	md.seconds = 3;
	md.waveform = wave;
	md.waveform_len = sizeof(wave);
	from = fake_transport_count(&c->wire);
	assert_int_equal(wa_dm_send_media(c->dm, CONTACT, &md, id, NULL,
	    "the harbour", id), 0);
	m = fake_transport_node(&c->wire, (size_t)fake_transport_find(
	    &c->wire, from, "message", "id", id));
	assert_true(wa_node_str_is(copy_for(m, CONTACT), "mediatype", "ptt"));
	party_read(&c->contact, copy_for(m, CONTACT), &got);
	assert_int_equal(got.media->type, WA_MEDIA_PTT);
	assert_int_equal(got.media->waveform_len, 64);
	assert_non_null(got.quoted_id);
	wa_msg_content_release(&got);
	md.file_sha256 = NULL;
	assert_int_equal(wa_dm_send_media(c->dm, CONTACT, &md, NULL, NULL,
	    NULL, NULL), -EINVAL);
}

static void
test_dm_job_send__stays_queued__when_the_send_fails(void **state)
{
	struct ctx		*c = *state;
	static const unsigned	 cids[] = { 0 };
	struct wa_msg_content	 got;
	const struct wa_node	*m;
	char			 id[WA_DM_ID_MAX];
	size_t			 from;
	int			 mi;

	online(c);
	from = fake_transport_count(&c->wire);
	assert_int_equal(wa_dm_send_text(c->dm, CONTACT, "hello", NULL, NULL,
	    NULL, id), 0);
	answer_usync(c, iq_of(c, from, "usync"), cids, 1);
	/* the connection goes as the message leaves */
	fake_transport_fail(&c->wire, 1, -EPIPE);
	answer_keys(c, iq_of(c, from, "encrypt"));
	assert_int_equal(c->wire.failed, 1);
	assert_int_equal(fake_transport_find(&c->wire, from, "message", "id",
	    id), -1);
	assert_int_equal(fake_store_state(c->st, CONTACT, id), WA_DM_QUEUED);
	assert_null(last_ev(c, WA_DM_EV_SEND_FAILED));

	/* the next connection sends it from the store: devices cached and
	 * sessions committed, so no query */
	wa_dm_offline(c->dm);
	from = fake_transport_count(&c->wire);
	online(c);
	assert_int_equal(fake_transport_find(&c->wire, from, "iq", "xmlns",
	    "usync"), -1);
	assert_int_equal(fake_transport_find(&c->wire, from, "iq", "xmlns",
	    "encrypt"), -1);
	mi = fake_transport_find(&c->wire, from, "message", "id", id);
	assert_true(mi >= 0);
	m = fake_transport_node(&c->wire, (size_t)mi);
	party_read(&c->contact, copy_for(m, CONTACT), &got);
	assert_string_equal(got.text, "hello");
	wa_msg_content_release(&got);
	assert_int_equal(ack(c, id, NULL), 1);
	assert_int_equal(fake_store_state(c->st, CONTACT, id), WA_DM_SENT);
}

static void
test_dm_job_retry__sends_a_refused_message_again(void **state)
{
	struct ctx	*c = *state;
	const struct ev	*e;
	char		 id[WA_DM_ID_MAX];
	size_t		 from;

	online(c);
	assert_true(walk_to_message(c, id) >= 0);
	assert_int_equal(ack(c, id, "479"), 1);
	assert_int_equal(fake_store_state(c->st, CONTACT, id), WA_DM_FAILED);
	assert_non_null(e = last_ev(c, WA_DM_EV_SEND_FAILED));
	assert_string_equal(e->id, id);
	assert_string_equal(e->text, "the server refused it (error 479)");
	assert_int_equal(e->err, WC_EPROTO);

	/* the user retries at once: QUEUED, and it goes again with its id */
	from = fake_transport_count(&c->wire);
	assert_int_equal(wa_dm_retry(c->dm, CONTACT, id), 1);
	assert_non_null(e = last_ev(c, WA_DM_EV_STATE));
	assert_int_equal(e->state, WA_DM_QUEUED);
	assert_true(fake_transport_find(&c->wire, from, "message", "id",
	    id) >= 0);
	assert_int_equal(ack(c, id, "479"), 1);
	assert_int_equal(fake_store_state(c->st, CONTACT, id), WA_DM_FAILED);

	/* a FAILED message is not sent on the next connection ... */
	wa_dm_offline(c->dm);
	from = fake_transport_count(&c->wire);
	online(c);
	assert_int_equal(fake_transport_find(&c->wire, from, "message", "id",
	    id), -1);
	/* ... only when retried */
	assert_int_equal(wa_dm_retry(c->dm, CONTACT, id), 1);
	assert_true(fake_transport_find(&c->wire, from, "message", "id",
	    id) >= 0);
	assert_int_equal(ack(c, id, NULL), 1);
	assert_int_equal(fake_store_state(c->st, CONTACT, id), WA_DM_SENT);
	/* only a failed message can be retried */
	assert_int_equal(wa_dm_retry(c->dm, CONTACT, id), 0);
}

static void
test_dm_job_restart__resumes_from_the_store(void **state)
{
	struct ctx		*c = *state;
	struct wa_msg_content	 got;
	const struct wa_node	*m;
	char			 id[WA_DM_ID_MAX];
	size_t			 from;
	int			 mi;

	/* queued offline: durable, nothing on the wire */
	from = fake_transport_count(&c->wire);
	assert_int_equal(wa_dm_send_text(c->dm, CONTACT, "hello", NULL, NULL,
	    NULL, id), 0);
	assert_int_equal(fake_transport_count(&c->wire), from);
	online(c);
	answer_usync(c, iq_of(c, from, "usync"), (const unsigned[]){ 0 }, 1);
	answer_keys(c, iq_of(c, from, "encrypt"));
	assert_true(fake_transport_find(&c->wire, from, "message", "id",
	    id) >= 0);

	/* killed before the ack: a new module over what the store kept */
	fake_store_crash(c->st);
	dm_down(c);
	dm_up(c);
	from = fake_transport_count(&c->wire);
	online(c);
	mi = fake_transport_find(&c->wire, from, "message", "id", id);
	assert_true(mi >= 0);
	/* the sessions survived: no key query, and the contact reads it */
	assert_int_equal(fake_transport_find(&c->wire, from, "iq", "xmlns",
	    "encrypt"), -1);
	m = fake_transport_node(&c->wire, (size_t)mi);
	party_read(&c->contact, copy_for(m, CONTACT), &got);
	assert_string_equal(got.text, "hello");
	wa_msg_content_release(&got);
	assert_int_equal(ack(c, id, NULL), 1);
	assert_int_equal(fake_store_state(c->st, CONTACT, id), WA_DM_SENT);
}

static void
test_dm_job_seal__commits_the_advanced_session_before_the_send(void **state)
{
	struct ctx	*c = *state;
	struct buf	 before = BUF_INIT;
	char		 id[WA_DM_ID_MAX], id2[WA_DM_ID_MAX];

	online(c);
	assert_true(walk_to_message(c, id) >= 0);
	assert_int_equal(ack(c, id, NULL), 1);
	assert_true(fake_store_session(c->st, &c->contact.addr, &before));
	/* the second message: the session advances as it is encrypted, and
	 * the store has the advanced record, committed, when it leaves */
	assert_int_equal(wa_dm_send_text(c->dm, CONTACT, "again", NULL, NULL,
	    NULL, id2), 0);
	assert_int_equal(c->at.messages, 2);
	assert_int_equal(c->at.tx_depth, 0);
	assert_true(c->at.rec.len > 0);
	assert_false(c->at.rec.len == before.len &&
	    memcmp(c->at.rec.p, before.p, before.len) == 0);
	buf_release(&before);
}

static void
test_dm_job_seal__sends_nothing__when_the_commit_fails(void **state)
{
	struct ctx	*c = *state;
	const struct ev	*e;
	char		 id[WA_DM_ID_MAX], id2[WA_DM_ID_MAX];
	size_t		 from;

	online(c);
	assert_true(walk_to_message(c, id) >= 0);
	assert_int_equal(ack(c, id, NULL), 1);
	/* the second message needs no query: its seal is the first
	 * outermost commit */
	from = fake_transport_count(&c->wire);
	fake_store_fail(c->st, "tx_commit_outer", -EIO);
	assert_int_equal(wa_dm_send_text(c->dm, CONTACT, "again", NULL, NULL,
	    NULL, id2), 0);
	assert_int_equal(fake_transport_find(&c->wire, from, "message", NULL,
	    NULL), -1);
	assert_int_equal(fake_store_state(c->st, CONTACT, id2), WA_DM_FAILED);
	assert_non_null(e = last_ev(c, WA_DM_EV_SEND_FAILED));
	assert_string_equal(e->id, id2);
	assert_string_equal(e->text, "cannot encrypt");
	assert_int_equal(e->err, -EIO);
	assert_int_equal(fake_store_tx_depth(c->st), 0);
}

static void
test_dm_job_send__fails__when_the_number_is_not_on_whatsapp(void **state)
{
	struct ctx	*c = *state;
	const struct ev	*e;
	char		 id[WA_DM_ID_MAX];
	size_t		 from;

	online(c);
	from = fake_transport_count(&c->wire);
	assert_int_equal(wa_dm_send_text(c->dm, CONTACT, "hello", NULL, NULL,
	    NULL, id), 0);
	answer_usync(c, iq_of(c, from, "usync"), NULL, 0);
	assert_int_equal(fake_transport_find(&c->wire, from, "iq", "xmlns",
	    "encrypt"), -1);
	assert_int_equal(fake_transport_find(&c->wire, from, "message", NULL,
	    NULL), -1);
	assert_int_equal(fake_store_state(c->st, CONTACT, id), WA_DM_FAILED);
	assert_non_null(e = last_ev(c, WA_DM_EV_SEND_FAILED));
	assert_string_equal(e->text, "the number is not on WhatsApp");
}

/* The w:g2 answer to the info query at qi: GROUP with the contact and
 * us, addressed by PN. */
static void
answer_group(struct ctx *c, int qi)
{
	struct wa_node	*k, *p, *r;

	r = result_of(c, fake_transport_node(&c->wire, (size_t)qi), 1, &k);
	wa_nb_kid(&c->a, &k[0], "group", 3);
	wa_nb_attr(&k[0], "id", "120363000000000001");
	wa_nb_attr(&k[0], "subject", "Test");
	wa_nb_attr(&k[0], "addressing_mode", "pn");
	p = wa_nb_kids(&c->a, &k[0], 2);
	wa_nb_kid(&c->a, &p[0], "participant", 1);
	assert_int_equal(wa_nb_attr_jid(&p[0], "jid", CONTACT), 0);
	wa_nb_kid(&c->a, &p[1], "participant", 1);
	assert_int_equal(wa_nb_attr_jid(&p[1], "jid", ME), 0);
	assert_int_equal(wa_dm_stanza(c->dm, r), 1);
}

/* The contact reads the group message m: our SKDM from its pairwise
 * copy, then the skmsg. */
static void
contact_reads_group(struct ctx *c, const struct wa_node *m, const char *text)
{
	struct wa_msg_content	 got;
	struct wa_signal_addr	 me;
	struct buf		 plain = BUF_INIT;
	const uint8_t		*ct;
	size_t			 len, ulen, i;

	party_read(&c->contact, copy_for(m, CONTACT), &got);
	assert_true(got.skdm_len > 0);
	assert_int_equal(wa_signal_addr_from_jid(ME_DEV, strlen(ME_DEV), &me),
	    0);
	assert_int_equal(wa_signal_group_process_skdm(c->contact.sig, GROUP,
	    &me, got.skdm, got.skdm_len), 0);
	wa_msg_content_release(&got);
	for (i = 0; i < wa_node_nkids(m); i++)
		if (wa_str_eqc(wa_node_kid(m, i)->tag, "enc") &&
		    wa_node_str_is(wa_node_kid(m, i), "type", "skmsg"))
			break;
	assert_true(i < wa_node_nkids(m));
	assert_true(wa_node_bytes(wa_node_kid(m, i), &ct, &len));
	assert_int_equal(wa_signal_group_decrypt(c->contact.sig, GROUP, &me,
	    ct, len, &plain), 0);
	assert_int_equal(wa_msg_unpad(plain.p, plain.len, &ulen), 0);
	assert_int_equal(wa_msg_parse(plain.p, ulen, &got), 0);
	assert_string_equal(got.text, text);
	wa_msg_content_release(&got);
	buf_release(&plain);
}

static void
test_dm_job_group__asks_the_group_then_sends_skdm_and_skmsg(void **state)
{
	struct ctx		*c = *state;
	const struct wa_node	*m;
	char			 id[WA_DM_ID_MAX], id2[WA_DM_ID_MAX];
	char			 v[WA_DM_JID_MAX];
	size_t			 from;
	int			 qi, mi;

	online(c);
	from = fake_transport_count(&c->wire);
	assert_int_equal(wa_dm_send_text(c->dm, GROUP, "hi all", NULL, NULL,
	    NULL, id), 0);
	/* P_META: the group is unknown, asked first */
	qi = fake_transport_find(&c->wire, from, "iq", "to", GROUP);
	assert_true(qi >= 0);
	assert_true(wa_node_str_is(fake_transport_node(&c->wire, (size_t)qi),
	    "xmlns", "w:g2"));
	assert_int_equal(fake_transport_find(&c->wire, from, "iq", "xmlns",
	    "usync"), -1);
	answer_group(c, qi);
	answer_usync(c, iq_of(c, from, "usync"), (const unsigned[]){ 0 }, 1);
	answer_keys(c, iq_of(c, from, "encrypt"));

	mi = fake_transport_find(&c->wire, from, "message", "id", id);
	assert_true(mi >= 0);
	m = fake_transport_node(&c->wire, (size_t)mi);
	assert_true(fake_node_attr(m, "to", v, sizeof(v)));
	assert_string_equal(v, GROUP);
	assert_true(wa_node_str_is(m, "addressing_mode", "pn"));
	assert_true(wa_node_str(m, "phash").len > 0);
	assert_non_null(copy_for(m, ME));	/* our phone gets the SKDM */
	assert_null(copy_for(m, ME_DEV));
	assert_int_equal(c->at.tx_depth, 0);
	contact_reads_group(c, m, "hi all");
	/* the holders of our key are known only once the server acks */
	assert_false(fake_store_skr(c->st, GROUP, CONTACT));
	assert_int_equal(ack(c, id, NULL), 1);
	assert_int_equal(fake_store_state(c->st, GROUP, id), WA_DM_SENT);
	assert_true(fake_store_skr(c->st, GROUP, CONTACT));
	assert_true(fake_store_skr(c->st, GROUP, ME));

	/* the next message: no query, no SKDM copy, only the skmsg */
	from = fake_transport_count(&c->wire);
	assert_int_equal(wa_dm_send_text(c->dm, GROUP, "again", NULL, NULL,
	    NULL, id2), 0);
	mi = fake_transport_find(&c->wire, from, "message", "id", id2);
	assert_true(mi >= 0);
	assert_int_equal(fake_transport_find(&c->wire, from, "iq", NULL, NULL),
	    -1);
	m = fake_transport_node(&c->wire, (size_t)mi);
	assert_null(wa_node_child(m, "participants"));
	assert_non_null(wa_node_child(m, "enc"));
}

/* --- a device whose encryption fails (issue 15 point 1) --- */

#define CONTACT1	"15550000002:1@s.whatsapp.net"	/* its 2nd device */

/* The content of the first length-delimited field f of the protobuf
 * p[0..len): its offset into *off and length into *flen, or false. */
static bool
pb_sub(const uint8_t *p, size_t len, unsigned f, size_t *off, size_t *flen)
{
	size_t		 i = 0;
	uint64_t	 key, v;
	unsigned	 sh;

	while (i < len) {
		for (key = 0, sh = 0; i < len && sh < 64; sh += 7) {
			key |= (uint64_t)(p[i] & 0x7f) << sh;
			if ((p[i++] & 0x80) == 0)
				break;
		}
		if ((key & 7) == 0) {		/* varint */
			while (i < len && (p[i++] & 0x80) != 0)
				;
			continue;
		}
		if ((key & 7) != 2)
			return false;		/* not in a session record */
		for (v = 0, sh = 0; i < len && sh < 64; sh += 7) {
			v |= (uint64_t)(p[i] & 0x7f) << sh;
			if ((p[i++] & 0x80) == 0)
				break;
		}
		if (v > len - i)
			return false;
		if ((key >> 3) == f) {
			*off = i;
			*flen = (size_t)v;
			return true;
		}
		i += (size_t)v;
	}
	return false;
}

/*
 * Damage a's session record in our store so that it still reads (it
 * deserializes, with a sending chain) but cannot encrypt: the index of
 * its sending chain key (RecordStructure.currentSession(1) .senderChain(6)
 * .chainKey(3) .index(1)) renamed to an unknown field (15), which leaves
 * libsignal a sending chain without a chain key.  As a disk or an older
 * version might leave a record.
 */
static void
damage_chain_key(struct ctx *c, const struct wa_signal_addr *a)
{
	struct buf	 rec = BUF_INIT;
	size_t		 o1, l1, o2, l2, o3, l3;

	assert_true(fake_store_session(c->st, a, &rec));
	assert_true(pb_sub(rec.p, rec.len, 1, &o1, &l1));
	assert_true(pb_sub(rec.p + o1, l1, 6, &o2, &l2));
	assert_true(pb_sub(rec.p + o1 + o2, l2, 3, &o3, &l3));
	assert_true(l3 > 0 && rec.p[o1 + o2 + o3] == 0x08);
	rec.p[o1 + o2 + o3] = 0x78;
	assert_int_equal(c->sig_ops.session_store(c->sig_ops.arg, a, rec.p,
	    rec.len), 0);
	buf_release(&rec);
}

/* Answer the prekey query at qi with the bundles of ps[0..n), one-time
 * prekey pk of each. */
static void
answer_keys_of(struct ctx *c, int qi, const struct party *const *ps,
    size_t n, uint32_t pk)
{
	struct wa_node	*k, *u, *r;
	size_t		 i;

	r = result_of(c, fake_transport_node(&c->wire, (size_t)qi), 1, &k);
	wa_nb_kid(&c->a, &k[0], "list", 0);
	u = wa_nb_kids(&c->a, &k[0], n);
	for (i = 0; i < n; i++) {
		bundle_user_pk(c, &u[i], ps[i], pk);
	}
	assert_int_equal(wa_dm_stanza(c->dm, r), 1);
}

static void
test_dm_job_seal__skips_a_device_whose_encryption_fails(void **state)
{
	struct ctx		*c = *state;
	struct party		 c1;
	const struct party	*all[3], *one[1];
	struct wa_msg_content	 got;
	const struct wa_node	*m;
	const struct ev		*e;
	char			 id[WA_DM_ID_MAX], id2[WA_DM_ID_MAX];
	char			 v[WA_DM_JID_MAX];
	size_t			 from, i, notices = 0;
	int			 mi, qi;

	party_init(&c1, CONTACT1, &c->clock);
	all[0] = &c->contact;
	all[1] = &c1;
	all[2] = &c->phone;
	one[0] = &c1;
	online(c);
	/* the first message reaches both of the contact's devices */
	from = fake_transport_count(&c->wire);
	assert_int_equal(wa_dm_send_text(c->dm, CONTACT, "hello", NULL, NULL,
	    NULL, id), 0);
	answer_usync(c, iq_of(c, from, "usync"), (const unsigned[]){ 0, 1 },
	    2);
	answer_keys_of(c, iq_of(c, from, "encrypt"), all, 3, 1);
	mi = fake_transport_find(&c->wire, from, "message", "id", id);
	assert_true(mi >= 0);
	assert_non_null(copy_for(fake_transport_node(&c->wire, (size_t)mi),
	    CONTACT1));
	assert_int_equal(ack(c, id, NULL), 1);

	/* device 1's record reads but cannot encrypt */
	damage_chain_key(c, &c1.addr);
	assert_int_equal(wa_signal_session_check(c->sig, &c1.addr, NULL,
	    NULL), 1);
	from = fake_transport_count(&c->wire);
	c->nevs = 0;
	assert_int_equal(wa_dm_send_text(c->dm, CONTACT, "again", NULL, NULL,
	    NULL, id2), 0);
	mi = fake_transport_find(&c->wire, from, "message", "id", id2);
	assert_true(mi >= 0);
	m = fake_transport_node(&c->wire, (size_t)mi);
	/* everyone else gets it; device 1 has no <enc>, its session gone */
	assert_null(copy_for(m, CONTACT1));
	party_read(&c->contact, copy_for(m, CONTACT), &got);
	assert_string_equal(got.text, "again");
	wa_msg_content_release(&got);
	party_read(&c->phone, copy_for(m, ME), &got);
	assert_string_equal(got.text, "again");
	wa_msg_content_release(&got);
	assert_false(fake_store_has_session(c->st, &c1.addr));
	assert_null(last_ev(c, WA_DM_EV_SEND_FAILED));
	/* one line in the chat names the member and the device */
	for (i = 0; i < c->nevs; i++) {
		e = &c->evs[i];
		if (e->kind != WA_DM_EV_MESSAGE || !e->notice)
			continue;
		notices++;
		assert_string_equal(e->chat, CONTACT);
		assert_non_null(strstr(e->text, "device 1"));
		/* typed, for the UI to say in the user's language */
		assert_int_equal(e->note, WA_DM_NOTE_NOT_SENT);
		assert_int_equal(e->note_device, 1);
		assert_string_equal(e->sender, CONTACT);
	}
	assert_int_equal(notices, 1);

	/* and device 1 gets it again, alone, from a fresh bundle */
	qi = iq_of(c, from, "encrypt");
	assert_true(lists_user(wa_node_child(fake_transport_node(&c->wire,
	    (size_t)qi), "key"), CONTACT1));
	from = fake_transport_count(&c->wire);
	answer_keys_of(c, qi, one, 1, 2);
	mi = fake_transport_find(&c->wire, from, "message", "id", id2);
	assert_true(mi >= 0);
	m = fake_transport_node(&c->wire, (size_t)mi);
	assert_true(fake_node_attr(m, "to", v, sizeof(v)));
	assert_string_equal(v, CONTACT1);
	assert_true(wa_node_str_is(wa_node_child(m, "enc"), "type", "pkmsg"));
	party_read(&c1, wa_node_child(m, "enc"), &got);
	assert_string_equal(got.text, "again");
	wa_msg_content_release(&got);
	assert_int_equal(ack(c, id2, NULL), 1);
	assert_int_equal(fake_store_state(c->st, CONTACT, id2), WA_DM_SENT);
	party_free(&c1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_dm_job_send__goes_from_devices_and_keys_to_the_ack,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_dm_job_send_media__type_media_and_the_enc_mediatype,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_dm_job_send__stays_queued__when_the_send_fails,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_dm_job_retry__sends_a_refused_message_again,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_dm_job_restart__resumes_from_the_store,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_dm_job_seal__commits_the_advanced_session_before_the_send,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_dm_job_seal__sends_nothing__when_the_commit_fails,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_dm_job_send__fails__when_the_number_is_not_on_whatsapp,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_dm_job_group__asks_the_group_then_sends_skdm_and_skmsg,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_dm_job_seal__skips_a_device_whose_encryption_fails,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
