/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/gen-wa-signal.c -- makes the libsignal seeds of
 * fuzz-wa-signal and fuzz-wa-eng: real pkmsg, msg, skmsg and SKDM
 * payloads between the fixed identities of tests/fuzz/signal-world.h,
 * made by libsignal-protocol-c on the sending side (the peer, and a third
 * device SW_OTHER_JID), so that they decrypt in the fuzz targets' world.
 * Usage: gen-wa-signal DIR (the corpus folder, tests/fuzz/corpus): writes
 * DIR/wa-signal/ls-* (a mode byte, then the payload) and DIR/wa-eng/ls-*
 * (the payloads in <message> stanzas, as frames with a 2-byte length).
 * Not run by make check (`make tests/fuzz/gen-wa-signal` builds it); the
 * world is deterministic, so the seeds stay valid as long as it is.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/bin.h"
#include "proto/group.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "proto/wa-signal.h"
#include "tests/fakes/fake-store.h"
#include "tests/fuzz/signal-world.h"

static struct sw	 w;
static const char	*dir;

static void
must(int rc, const char *what)
{
	if (rc != 0) {
		fprintf(stderr, "gen-wa-signal: %s: %d\n", what, rc);
		exit(1);
	}
}

static void
put(const char *sub, const char *name, const uint8_t *p, size_t len)
{
	char	 path[4096];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/%s/ls-%s", dir, sub, name);
	if ((f = fopen(path, "wb")) == NULL || fwrite(p, 1, len, f) != len ||
	    fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* A padded Message{conversation = text} into out. */
static void
text_msg(const char *text, struct buf *out)
{
	struct wa_msg_text	 t;
	struct buf		 m = BUF_INIT;

	memset(&t, 0, sizeof(t));
	t.text = text;
	must(wa_msg_build_text(&t, &m), "build text");
	wa_msg_pad(m.p, m.len, 5, out);
	buf_release(&m);
}

/* The fuzz-wa-signal seed: mode, then p. */
static void
seed(const char *name, uint8_t mode, const struct buf *p)
{
	struct buf	 s = BUF_INIT;

	buf_append(&s, &mode, 1);
	buf_append(&s, p->p, p->len);
	put("wa-signal", name, s.p, s.len);
	buf_release(&s);
}

/* The fuzz-wa-eng seed: <message> from from (participant in a group)
 * with one <enc type> holding ct, as one frame. */
static void
eng_seed(const char *name, const char *id, const char *from,
    const char *participant, const char *type, const struct buf *ct)
{
	struct arena	 a;
	struct wa_node	*n, *k;
	struct buf	 f = BUF_INIT, s = BUF_INIT;
	uint8_t		 h[2];

	arena_init(&a, 0);
	n = wa_nb_new(&a, "message", 6);
	wa_nb_attr(n, "id", id);
	must(wa_nb_attr_jid(n, "from", from), "from");
	if (participant != NULL)
		must(wa_nb_attr_jid(n, "participant", participant), "part");
	wa_nb_attr(n, "type", "text");
	wa_nb_attr(n, "t", "1700000100");
	wa_nb_attr(n, "notify", "Zo\xc3\xab");
	k = wa_nb_kid(&a, wa_nb_kids(&a, n, 1), "enc", 2);
	wa_nb_attr(k, "v", "2");
	wa_nb_attr(k, "type", type);
	wa_nb_bytes(k, ct->p, ct->len);
	must(wa_bin_pack(n, &f), "pack");
	h[0] = (uint8_t)(f.len >> 8);
	h[1] = (uint8_t)f.len;
	buf_append(&s, h, 2);
	buf_append(&s, f.p, f.len);
	put("wa-eng", name, s.p, s.len);
	buf_release(&f);
	buf_release(&s);
	arena_release(&a);
}

static void
encrypt(struct wa_signal *s, const struct wa_signal_addr *to,
    const struct buf *p, enum wa_signal_type want, struct buf *out)
{
	enum wa_signal_type	 type;

	out->len = 0;
	must(wa_signal_encrypt(s, to, p->p, p->len, &type, out), "encrypt");
	if (type != want)
		must(-1, "unexpected payload type");
}

static void
from_peer(void)
{
	struct buf	 p = BUF_INIT, c = BUF_INIT, skdm = BUF_INIT, m = BUF_INIT;
	char		 big[1500];

	text_msg("hi from the peer \xf0\x9f\x91\x8b", &p);
	encrypt(w.s_peer, &w.own_addr, &p, WA_SIGNAL_MSG, &c);
	seed("msg-1", 2, &c);
	eng_seed("msg-1", "3EB0F0000000000000A1", SW_PEER_JID, NULL, "msg", &c);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	p.len = 0;
	text_msg(big, &p);
	encrypt(w.s_peer, &w.own_addr, &p, WA_SIGNAL_MSG, &c);
	seed("msg-2-big", 2, &c);
	/* A pairwise copy carrying an SKDM of SW_GROUP2 (10.2). */
	must(wa_signal_group_skdm(w.s_peer, SW_GROUP2, &w.peer_addr, &skdm),
	    "skdm");
	must(wa_group_message_skdm(SW_GROUP2, skdm.p, skdm.len, &m), "msg");
	p.len = 0;
	wa_msg_pad(m.p, m.len, 2, &p);
	encrypt(w.s_peer, &w.own_addr, &p, WA_SIGNAL_MSG, &c);
	seed("msg-3-skdm", 2, &c);
	eng_seed("msg-3-skdm", "3EB0F0000000000000A2", SW_PEER_JID, NULL, "msg",
	    &c);
	/* skmsgs of SW_GROUP, whose SKDM the world has processed. */
	p.len = 0;
	text_msg("group hello", &p);
	c.len = 0;
	must(wa_signal_group_encrypt(w.s_peer, SW_GROUP, &w.peer_addr, p.p,
	    p.len, &c), "skmsg");
	seed("skmsg-1", 3, &c);
	eng_seed("skmsg-1", "3EB0F0000000000000A3", SW_GROUP, SW_PEER_JID,
	    "skmsg", &c);
	c.len = 0;
	must(wa_signal_group_encrypt(w.s_peer, SW_GROUP, &w.peer_addr, p.p,
	    p.len, &c), "skmsg");
	seed("skmsg-2", 3, &c);
	buf_release(&p);
	buf_release(&c);
	buf_release(&skdm);
	buf_release(&m);
}

static void
from_other(void)
{
	struct fake_store		*q = fake_store_new();
	struct wa_signal_store_ops	 ops;
	struct wa_signal		*s;
	struct wa_signal_bundle		 b;
	struct buf			 p = BUF_INIT, c = BUF_INIT;
	struct buf			 skdm = BUF_INIT, sk = BUF_INIT;
	uint8_t				 l[2];

	fake_store_signal_ops(q, &ops);
	must(wa_signal_new(&ops, sw_now, NULL, &s), "signal");
	text_msg("first contact", &p);
	fake_store_bundle(w.us, 2, &b);
	must(wa_signal_process_bundle(s, &w.own_addr, &b, NULL), "bundle");
	encrypt(s, &w.own_addr, &p, WA_SIGNAL_PKMSG, &c);
	seed("pkmsg-other", 0, &c);
	eng_seed("pkmsg-other", "3EB0F0000000000000B1", SW_OTHER_JID, NULL,
	    "pkmsg", &c);
	fake_store_bundle(w.us, 0, &b);		/* no one-time prekey */
	must(wa_signal_process_bundle(s, &w.own_addr, &b, NULL), "bundle");
	encrypt(s, &w.own_addr, &p, WA_SIGNAL_PKMSG, &c);
	seed("pkmsg-other-nopk", 0, &c);
	fake_store_bundle(w.us, 1, &b);		/* used by the peer: gone */
	must(wa_signal_process_bundle(s, &w.own_addr, &b, NULL), "bundle");
	encrypt(s, &w.own_addr, &p, WA_SIGNAL_PKMSG, &c);
	seed("pkmsg-other-gone", 0, &c);
	/* Its sender key of SW_GROUP2: the SKDM, then an skmsg (mode 4). */
	must(wa_signal_group_skdm(s, SW_GROUP2, &w.other_addr, &skdm), "skdm");
	p.len = 0;
	text_msg("in group two", &p);
	must(wa_signal_group_encrypt(s, SW_GROUP2, &w.other_addr, p.p, p.len,
	    &sk), "skmsg");
	c.len = 0;
	l[0] = (uint8_t)(skdm.len >> 8);
	l[1] = (uint8_t)skdm.len;
	buf_append(&c, l, 2);
	buf_append(&c, skdm.p, skdm.len);
	buf_append(&c, sk.p, sk.len);
	seed("skdm-skmsg", 4, &c);
	buf_release(&p);
	buf_release(&c);
	buf_release(&skdm);
	buf_release(&sk);
	wa_signal_free(s);
	fake_store_free(q);
}

/* Last: the peer starts over with our prekey 3 (its session replaced). */
static void
peer_again(void)
{
	struct wa_signal_bundle	 b;
	struct buf		 p = BUF_INIT, c = BUF_INIT;

	fake_store_bundle(w.us, 3, &b);
	must(wa_signal_process_bundle(w.s_peer, &w.own_addr, &b, NULL),
	    "bundle");
	text_msg("new session", &p);
	encrypt(w.s_peer, &w.own_addr, &p, WA_SIGNAL_PKMSG, &c);
	seed("pkmsg-peer", 1, &c);
	eng_seed("pkmsg-peer", "3EB0F0000000000000C1", SW_PEER_JID, NULL,
	    "pkmsg", &c);
	buf_release(&p);
	buf_release(&c);
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen-wa-signal CORPUS-DIR\n");
		return 2;
	}
	dir = argv[1];
	sw_build(&w);
	from_peer();
	from_other();
	peer_again();
	wa_signal_free(w.s_us);
	wa_signal_free(w.s_peer);
	fake_store_free(w.us);
	fake_store_free(w.peer);
	return 0;
}
