/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/rich.h -- a rich row (base/rich.h: a location, a live location,
 * contact cards, view-once media, a link preview, another kind not
 * shown) as the message pane and the chat list show it, and the number
 * on a contact card that the card-chat key (ui/keys.h) opens a chat
 * with.  Main thread.
 */
#ifndef UI_RICH_H
#define UI_RICH_H

#include <stddef.h>

/*
 * The pane's text of the record rec (raw, from the event), sanitised, in
 * a new string the caller frees: rich_describe() with the OpenStreetMap
 * link (drawn as a hyperlink as every URL in a text is, ui/term.h), in
 * UTF-8 or ASCII as the locale's codeset is; a record that does not
 * parse: the sentence for a kind wachat cannot show.
 */
char	*ui_rich_text(const char *rec);

struct ui_thumb;

/* The thumbnail of a link preview's record rec (its thumb field, hex;
 * ui/thumb.h ui_thumb_new()), or NULL: none, not hex, not an image. */
struct ui_thumb *ui_rich_thumb(const char *rec);

/* The chat list's preview of the record rec (its first line,
 * rich_summary()), sanitised, new; NULL when rec is no record. */
char	*ui_rich_preview(const char *rec);

/*
 * The chat JID of the number i (from 1) on the contact card(s) of rec
 * ("<digits>@s.whatsapp.net", base/rich.h rich_number()) into
 * jid[size]: 1; 0 when rec is no contact card or has no such number, or
 * the number is not one (5 to 20 digits, country code first).  *n
 * (may be NULL) is set to how many numbers the card holds.
 */
int	ui_rich_card_jid(const char *rec, size_t i, char *jid, size_t size,
	    size_t *n);

#endif
