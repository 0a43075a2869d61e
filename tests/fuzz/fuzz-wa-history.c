/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-history.c -- fuzz target for the history sync
 * readers of proto/history.c, as a blob reaches them after decryption:
 * wa_hist_inflate() (zlib, capped at 4 MiB here) and then wa_hist_parse()
 * of what came out; the raw input also goes to wa_hist_parse() (an inline
 * payload that was not compressed, or a seed of plain protobuf), to
 * wa_hist_notification_parse() and to wa_hist_on_demand_parse().
 * Contract: each returns an error or a result within the caps of
 * proto/history.h, never crashes, never leaks, never inflates past its cap
 * and leaves its outputs untouched on error.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/history.h"

#define FUZZ_MAX_INFLATED	(4u << 20)

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_hist(const struct wa_hist *h)
{
	size_t	 i, j, n = 0;

	if (h->n_convs > WA_HIST_MAX_CONVS || h->n_msgs > WA_HIST_MAX_MSGS)
		abort();
	for (i = 0; i < h->n_convs; i++) {
		const struct wa_hist_conv	*c = &h->convs[i];

		if (c->id == NULL || c->n_msgs > WA_HIST_MAX_CONV_MSGS)
			abort();
		for (j = 0; j < c->n_msgs; j++)
			if (c->msgs[j].id == NULL ||
			    (c->msgs[j].message_err != 0 &&
			    c->msgs[j].message != NULL))
				abort();
		n += c->n_msgs;
	}
	if (n != h->n_msgs)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena		 a;
	struct buf		 b = BUF_INIT;
	struct wa_hist		*h = NULL;
	struct wa_hist_notif	 nt = { 0 };
	struct wa_hist_od_req	 od = { 0 };
	const char		*why = NULL;

	arena_init(&a, 0);
	if (wa_hist_inflate(data, size, FUZZ_MAX_INFLATED, &a, &b,
	    &why) == 0) {
		if (b.len > FUZZ_MAX_INFLATED)
			abort();
		if (wa_hist_parse(b.p, b.len, &a, &h, &why) == 0)
			check_hist(h);
		else if (h != NULL)
			abort();
	} else if (b.len != 0)
		abort();	/* output kept on error */
	h = NULL;
	if (wa_hist_parse(data, size, &a, &h, &why) == 0)
		check_hist(h);
	else if (h != NULL)
		abort();
	if (wa_hist_notification_parse(data, size, &a, &nt, &why) == 0) {
		if (nt.inline_payload == NULL && (nt.direct_path == NULL ||
		    nt.media_key == NULL || nt.file_enc_sha256 == NULL))
			abort();
	} else if (nt.direct_path != NULL || nt.inline_payload != NULL)
		abort();
	if (wa_hist_on_demand_parse(data, size, &a, &od, &why) == 0) {
		if (od.chat_jid == NULL || od.oldest_msg_id == NULL)
			abort();
	} else if (od.chat_jid != NULL)
		abort();
	buf_release(&b);
	arena_release(&a);
	return 0;
}
