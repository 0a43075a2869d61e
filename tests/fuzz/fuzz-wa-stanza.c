/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-stanza.c -- fuzz target for the stanza readers of
 * proto/msg.c, as the engine meets them: a frame payload (flags byte,
 * then the node, zlib-compressed or not) read by wa_bin_unpack(), then
 * every reader whatever its tag: <message> (wa_msg_stanza_parse),
 * <receipt> (wa_msg_receipt_parse), <chatstate>, <presence>, the server's
 * <ack class="message"> (wa_msg_server_ack_parse), and the <ack> the
 * engine answers any stanza with (wa_msg_ack, then encoded), as it does
 * for a <notification> and a <call>; the <call> reader
 * (wa_call_parse, proto/call.h), whose stanzas are acked even when it
 * fails.  (The notification types are read inside the
 * engine's handlers: fuzz-wa-eng, and fuzz-wa-group for w:gp2.)
 * Contract: each reader returns an error or a result within the caps of
 * proto/msg.h (WA_MSG_MAX_ENCS encs, WA_MSG_MAX_IDS ids, the fields it
 * promises never NULL), never crashes, never leaks; an ack that builds
 * encodes.
 */
#include "base/compat.h"

#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/bin.h"
#include "proto/call.h"
#include "proto/msg.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_message(const struct wa_node *n, struct arena *a)
{
	struct wa_msg_in	 m;
	const char		*why = NULL;
	size_t			 i, known = 0;

	if (wa_msg_stanza_parse(n, a, &m, &why) != 0)
		return;
	if (m.id == NULL || m.from == NULL || m.n_encs > WA_MSG_MAX_ENCS ||
	    (m.n_known == 0 && !m.unavailable))
		abort();
	for (i = 0; i < m.n_encs; i++) {
		if (m.encs[i].type != WA_MSG_ENC_OTHER &&
		    (m.encs[i].ct == NULL || m.encs[i].ct_len == 0))
			abort();
		if (m.encs[i].type != WA_MSG_ENC_OTHER)
			known++;
	}
	if (known != m.n_known)
		abort();
}

static void
check_receipt(const struct wa_node *n, struct arena *a)
{
	struct wa_msg_receipt_in r;
	const char		*why = NULL;
	size_t			 i;

	if (wa_msg_receipt_parse(n, a, &r, &why) != 0)
		return;
	if (r.id == NULL || r.from == NULL || r.n_ids < 1 ||
	    r.n_ids > WA_MSG_MAX_IDS)
		abort();
	for (i = 0; i < r.n_ids; i++)
		if (r.ids[i] == NULL)
			abort();
}

static void
check_others(const struct wa_node *n, struct arena *a)
{
	struct wa_msg_server_ack	 sa;
	struct wa_msg_chatstate_in	 cs;
	struct wa_msg_presence_in	 pr;
	const char			*why = NULL;

	if (wa_msg_server_ack_parse(n, a, &sa, &why) == 0 && sa.id == NULL)
		abort();
	if (wa_msg_chatstate_parse(n, a, &cs) == 0 && (cs.from == NULL ||
	    cs.state > WA_MSG_PAUSED))
		abort();
	if (wa_msg_presence_parse(n, a, &pr) == 0 && (pr.from == NULL ||
	    (pr.last_denied && pr.last_s != 0)))
		abort();
}

/* A <call> is read whatever it holds: its strings NUL-terminated within
 * their arrays, its action and reason known values. */
static void
check_call(const struct wa_node *n)
{
	struct wa_call	 c;
	int		 rc = wa_call_parse(n, &c);

	if (rc == -EINVAL)
		return;
	if (strnlen(c.id, sizeof(c.id)) == sizeof(c.id) ||
	    strnlen(c.call_id, sizeof(c.call_id)) == sizeof(c.call_id) ||
	    strnlen(c.action_tag, sizeof(c.action_tag)) ==
	    sizeof(c.action_tag) || c.action > WA_CALL_TERMINATE ||
	    c.reason > WA_CALL_REASON_GROUP_ENDED ||
	    (rc == 0 && (c.id[0] == '\0' || c.from[0] == '\0')))
		abort();
}

/* The ack the engine sends for any stanza (11.7); it must encode. */
static void
check_ack(const struct wa_node *n, struct arena *a)
{
	struct wa_node	*ack;
	struct buf	 out = BUF_INIT;

	if (wa_msg_ack(n, NULL, "15550002222:3@s.whatsapp.net", a, &ack) == 0 &&
	    wa_bin_encode(ack, &out) != 0)
		abort();
	buf_release(&out);
	if (wa_msg_ack(n, "491", NULL, a, &ack) == 0 &&
	    wa_bin_encode(ack, &out) != 0)
		abort();
	buf_release(&out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena	 a;
	struct wa_node	*n;
	size_t		 off = 0;

	arena_init(&a, 0);
	if (wa_bin_unpack(data, size, &a, &n, &off) == 0) {
		check_message(n, &a);
		check_receipt(n, &a);
		check_others(n, &a);
		check_call(n);
		check_ack(n, &a);
	}
	arena_release(&a);
	return 0;
}
