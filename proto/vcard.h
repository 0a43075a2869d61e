/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/vcard.h -- the name and the phone numbers of a contact card
 * (protocol-features.md 3.3: ContactMessage.vcard, vCard 3.0 text as
 * the phones write it, "TEL;type=CELL;waid=<digits>:<+number>"), read
 * with a bounded parser: folded lines (RFC 6350 3.2: a line starting
 * with a space or tab continues the one before), the value escapes
 * "\\n" "\\," "\\;" "\\\\", group prefixes ("item1.TEL"), quoted
 * parameter values, the waid= parameter (the WhatsApp user, PN digits).
 * Only the outermost card is read (a nested BEGIN:VCARD, vCard 2.1's
 * AGENT, is skipped; more than WA_VCARD_DEPTH_MAX deep is refused).
 * Pure; any thread.
 */
#ifndef WA_VCARD_H
#define WA_VCARD_H

#include <stddef.h>

#include "base/compat.h"

#define WA_VCARD_MAX		(64u << 10)	/* bytes of vCard text read */
#define WA_VCARD_LINES_MAX	1024	/* logical lines read */
#define WA_VCARD_DEPTH_MAX	4	/* BEGIN:VCARD nesting */
#define WA_VCARD_TEL_MAX	16	/* numbers kept (more: dropped) */
#define WA_VCARD_NAME_MAX	256	/* bytes of the name kept (cut) */
#define WA_VCARD_NUM_MAX	64	/* bytes of a number kept (longer:
					 * the number is dropped) */
#define WA_VCARD_WAID_MAX	20	/* digits of a waid (longer, or not
					 * all digits: dropped) */

struct wa_vcard_tel {
	char	 number[WA_VCARD_NUM_MAX + 1];	/* as written, unescaped */
	char	 waid[WA_VCARD_WAID_MAX + 1];	/* digits, or "" */
};

/* A card read: strings NUL-terminated, "" when absent. */
struct wa_vcard {
	char			 name[WA_VCARD_NAME_MAX + 1];	/* FN (else N) */
	struct wa_vcard_tel	 tel[WA_VCARD_TEL_MAX];
	size_t			 ntel;
};

/*
 * Read the vCard text p[0..len) into *out (zeroed first).  A number is
 * kept only when it has a digit; control characters in the name or a
 * number become spaces (the screen sanitises the rest).  Returns 0
 * (also for text with no card: *out empty).  Errors: WC_ETOOBIG (len over
 * WA_VCARD_MAX, more than WA_VCARD_LINES_MAX lines), WC_EDEPTH (cards
 * nested deeper than WA_VCARD_DEPTH_MAX), -EINVAL (p NULL with len > 0,
 * out NULL).  *out is empty after an error.
 */
MUST_CHECK int	wa_vcard_parse(const char *p, size_t len,
		    struct wa_vcard *out);

#endif
