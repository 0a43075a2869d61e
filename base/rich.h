/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/rich.h -- the received message kinds that are neither text nor
 * media (protocol-features.md 3.2 location and live location, 3.3
 * contact cards, 3.4 view-once, 3.6 link previews, and every other kind
 * of Message wachat does not show yet), kept as one "rich record": the
 * text of a message row of kind STORE_MSG_RICH (store/store.h), which
 * travels through the store, the events and the line output as any text
 * does.  proto/msg-rich.c writes it; the screen (ui/msgs.c) and wachat
 * history/export (src/cli.c) read it here and say it in words.
 *
 * The record: a first line naming its type ("location", "live",
 * "contacts", "preview", "viewonce", "other"), then one line per field,
 * "key=value", in the order written; a value's backslash is written
 * "\\" and its newline "\n", so a value is one line.  Values are raw
 * network text (UTF-8 not checked): rich_describe() sanitises what it
 * writes.  Pure but for gettext; any thread.
 */
#ifndef WC_RICH_H
#define WC_RICH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf;

enum rich_type {
	RICH_NONE = 0,		/* not a record */
	RICH_LOCATION,		/* lat, lon, name, addr, comment */
	RICH_LIVE,		/* lat, lon, caption, seq, upd (unix ms) */
	RICH_CONTACTS,		/* per card: card (its name), then per
				 * number: tel, and waid when given */
	RICH_PREVIEW,		/* text, url, title, desc, thumb (its
				 * JPEGThumbnail in lowercase hex, last) */
	RICH_VIEWONCE,		/* media: image, video, ptt, audio; then
				 * opened=yes once it was opened (its media
				 * row gone; store/store-rich.h) */
	RICH_OTHER,		/* field: the Message field number */
	RICH_POLL,		/* q (the question), sel (how many options
				 * may be chosen; 0 any), opt per option;
				 * then per voter: vote (user JID, "" ours),
				 * by (push name), pick per choice (the
				 * option's number, from 1) */
};

#define RICH_VAL_MAX	4096	/* bytes of one value kept (longer: cut) */
#define RICH_TEXT_MAX	(64u << 10) /* bytes of a preview's text kept */
#define RICH_KV_MAX	1100	/* fields read from one record (32 cards
				 * of 16 numbers with their waids, 3.3) */
#define RICH_THUMB_MAX	(64u << 10) /* bytes of a preview's thumbnail
				     * kept (in hex: twice that) */
#define RICH_REC_MAX	(256u << 10) /* bytes of a record read */

/* One field of a parsed record; key and val point into the record's
 * copy that rich_parse() made (NUL-terminated, unescaped). */
struct rich_kv {
	const char	*key;
	const char	*val;
};

/* A parsed record (rich_parse()); free with rich_release(). */
struct rich {
	enum rich_type	 type;
	struct rich_kv	 kv[RICH_KV_MAX];
	size_t		 n;
	char		*mem;		/* owned: the unescaped fields */
};

/* Append to out the first line of a record of type t (not RICH_NONE). */
void		rich_begin(struct buf *out, enum rich_type t);

/* Append the field key=val to the record in out: key is ASCII without
 * '=' or newline; val[0..len) cut to RICH_VAL_MAX bytes (RICH_TEXT_MAX
 * for the key "text"), escaped.  A NULL val adds nothing. */
void		rich_add(struct buf *out, const char *key, const char *val,
		    size_t len);

/* Append the field key=HEX of p[0..len) (lowercase hex; nothing when
 * len is 0 or over RICH_THUMB_MAX). */
void		rich_add_hex(struct buf *out, const char *key, const uint8_t *p,
		    size_t len);

/* As rich_add() with a NUL-terminated val (NULL: nothing). */
void		rich_add_str(struct buf *out, const char *key, const char *val);

/*
 * Parse the record text[0..len) into *out (zeroed first).  Returns 0;
 * WC_EPROTO when text is not a record (an unknown first line, a field
 * line without '=', more than RICH_KV_MAX fields, over RICH_REC_MAX
 * bytes): *out is then empty (type RICH_NONE) and needs no release.
 */
int		rich_parse(const char *text, size_t len, struct rich *out);

/* A new copy of the record rec with the field upd=ts_ms (a live
 * location's time of this update, ms) added: malloc'd, NUL-terminated. */
char		*rich_with_update(const char *rec, int64_t ts_ms);

/* The record of a Message field that is not shown (RICH_OTHER), into
 * out[olen] (32 bytes are enough). */
void		rich_other_record(uint32_t field, char *out, size_t olen);

/* Free what r owns and zero it (a zeroed r: a no-op). */
void		rich_release(struct rich *r);

/* The value of the first field key of r at or after index *from (may be
 * NULL: from 0), or NULL; *from is set past it. */
const char	*rich_get(const struct rich *r, const char *key, size_t *from);

/*
 * Append to out the record text[0..len) in words, in the user's
 * language, each network value sanitised (base/sanitize.h), lines
 * separated by '\n' (no NUL, no final newline):
 *   location: "Location: NAME", the address, "LAT, LON", then the
 *     OpenStreetMap link (rich_osm_url()) when link is true;
 *   live: "Live location (live, updated HH:MM)", the caption, "LAT, LON",
 *     the link;
 *   contacts: "Contact card: NAME" (or "Contact cards (N):" then each
 *     name), each number indented under its card, numbered from 1 in
 *     record order when there are several (rich_number());
 *   preview: the text, then "> TITLE" and "> DESCRIPTION";
 *   viewonce: "View once photo" (video, voice message, audio), then
 *     " · opened" (" - opened" in ASCII) once it was opened; never
 *     anything of its content;
 *   poll: rich_poll_words();
 *   other: one sentence on what the message is ("A poll (wachat cannot
 *     show it yet)"), never the type's name.
 * utf8 false writes ASCII separators only.  A text that is no record
 * appends nothing and returns WC_EPROTO; else 0.
 */
int		rich_describe(const char *text, size_t len, bool utf8,
		    bool link, struct buf *out);

/* A one-line summary of the record for the chat list and notifications
 * ("Location: NAME", "Contact card: NAME", "View once photo", the
 * preview's text), sanitised, into out; WC_EPROTO for no record. */
int		rich_summary(const char *text, size_t len, struct buf *out);

/*
 * The OpenStreetMap link for (lat, lon) in degrees into out[olen]:
 * "https://www.openstreetmap.org/?mlat=LAT&mlon=LON#map=16/LAT/LON",
 * each number with 6 decimals.  Only digits, '-', '.' come from the
 * numbers, so the URL is safe for OSC 8.  Returns false (out "") when a
 * number is not finite, out of range (|lat| > 90, |lon| > 180) or
 * olen is too small.
 */
bool		rich_osm_url(double lat, double lon, char *out, size_t olen);

/*
 * The phone number of the i-th (from 1) number of the contacts record
 * r, digits only, into out[olen]: its waid= (the WhatsApp user) when
 * the card gave one, else the digits of the number as written.
 * Returns false (out "") when r has no i-th number or it has no digit.
 */
bool		rich_number(const struct rich *r, size_t i, char *out,
		    size_t olen);

/* How many numbers the contacts record r holds (0 for another type). */
size_t		rich_numbers(const struct rich *r);

/* --- base/rich.c: a poll (RICH_POLL) --- */

/* How many options the poll record r has (0 for another type). */
size_t		rich_poll_noptions(const struct rich *r);

/* The name of option k (from 1) of the poll record r (raw, borrowed from
 * r), or NULL. */
const char	*rich_poll_option(const struct rich *r, size_t k);

/*
 * A new copy of the poll record rec (NUL-terminated) in which voter's
 * vote (voter: a user JID, "" ours) is the options picks[0..n) (numbers
 * from 1; those out of range dropped) with the push name by (NULL:
 * none), in place of any earlier vote of voter, put last (votes keep the
 * order they last changed in); n 0 takes voter's vote away.  malloc'd,
 * NUL-terminated; NULL when rec is no poll record.
 */
char		*rich_poll_vote(const char *rec, const char *voter,
		    const char *by, const unsigned *picks, size_t n);

/*
 * Append the poll r in words, lines separated by '\n' (no final one):
 * "Poll: QUESTION", "(one answer)" or "(one or more answers)", then per
 * option "  N. NAME — COUNT (NAME, NAME)": who chose it by their push
 * name (else their number; "You" for ours), in the order their votes
 * came; each network value sanitised.  utf8 false: " - " for the dash.
 */
void		rich_poll_words(const struct rich *r, bool utf8,
		    struct buf *out);

/* The sentence for a Message field number wachat does not show
 * (RICH_OTHER), in the user's language, static. */
const char	*rich_other_words(uint32_t field);

#endif
