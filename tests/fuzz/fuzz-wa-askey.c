/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-askey.c -- fuzz target for the readers of the
 * app-state sync key messages (proto/askey.c; protocol-features.md 2.3):
 * wa_askey_share_parse() (the phone's APP_STATE_SYNC_KEY_SHARE, taken in
 * proto/dm-recv.c) and wa_askey_request_parse() (the sim's phone reads
 * our APP_STATE_SYNC_KEY_REQUEST with it).  Input: a selector byte (bit 0:
 * the request reader), then the decrypted Message bytes.
 * Contract: an error, or keys and ids within their documented ranges; no
 * crash, no leak.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/arena.h"
#include "proto/askey.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wa_askey_share	 ks;
	struct arena		 a;
	const uint8_t		*ids[8];
	size_t			 lens[8], i;
	int			 n;

	if (size < 1)
		return 0;
	arena_init(&a, 1024);
	if ((data[0] & 1) == 0) {
		if (wa_askey_share_parse(data + 1, size - 1, &a, &ks, NULL) ==
		    0) {
			if (ks.n == 0 || ks.n > WA_ASKEY_MAX)
				abort();
			for (i = 0; i < ks.n; i++)
				if (ks.keys[i].id_len == 0 ||
				    ks.keys[i].id_len > WA_ASKEY_ID_MAX ||
				    ks.keys[i].data_len == 0 ||
				    ks.keys[i].data_len > WA_ASKEY_DATA_MAX ||
				    ks.keys[i].fp_len > WA_ASKEY_FP_MAX)
					abort();
		}
	} else if ((n = wa_askey_request_parse(data + 1, size - 1, &a, ids,
	    lens, 8, NULL)) >= 0) {
		if (n == 0 || n > 8)
			abort();
		for (i = 0; i < (size_t)n; i++)
			if (lens[i] == 0 || lens[i] > WA_ASKEY_ID_MAX)
				abort();
	}
	arena_release(&a);
	return 0;
}
