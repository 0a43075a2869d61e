/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/msg-fwd.c -- forwarding (protocol-features.md 3.7): the
 * forwardingScore a received content carries (proto/msg-int.h
 * wa_msg_fwd_score()), and the Message that forwards a rich record
 * (proto/msg.h wa_msg_build_rich_forward()): a location, contact cards
 * or a link preview built anew from what the record kept, marked
 * forwarded ([BL] generateForwardMessageContent: the content copied,
 * its contextInfo replaced by {forwardingScore, isForwarded}).  Text
 * and media take the mark through wa_msg_build_text() and
 * wa_msg_build_media() (struct wa_msg_text's forward_score).  Pure; any
 * thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/hex.h"
#include "base/rich.h"
#include "base/xmalloc.h"
#include "proto/msg-int.h"

#define FWD_CARDS_MAX	32	/* cards of one forward (as msg-rich.c
				 * reads) */

static uint32_t
score_of(const Wae2e__ContextInfo *ci)
{
	if (ci == NULL)
		return 0;
	if (ci->has_forwardingscore && ci->forwardingscore > 0)
		return ci->forwardingscore;
	return ci->has_isforwarded && ci->isforwarded ? 1 : 0;
}

uint32_t
wa_msg_fwd_score(const Wae2e__Message *m)
{
	const Wae2e__ContextInfo	*ci = NULL;
	struct wa_msg_media		*md;

	if (m->extendedtextmessage != NULL)
		return score_of(m->extendedtextmessage->contextinfo);
	if (m->locationmessage != NULL)
		return score_of(m->locationmessage->contextinfo);
	if (m->livelocationmessage != NULL)
		return score_of(m->livelocationmessage->contextinfo);
	if (m->contactmessage != NULL)
		return score_of(m->contactmessage->contextinfo);
	if (m->contactsarraymessage != NULL)
		return score_of(m->contactsarraymessage->contextinfo);
	if ((md = wa_msg_media_of(m, &ci)) != NULL)
		wa_msg_media_free(md);
	return score_of(ci);
}

static char *
unconst(const char *s)
{
	return (char *)(uintptr_t)s;
}

static void
put(struct buf *b, const char *s)
{
	buf_append(b, s, strlen(s));
}

static void
fwd_ci(Wae2e__ContextInfo *ci, uint32_t score)
{
	ci->has_forwardingscore = ci->has_isforwarded = 1;
	ci->forwardingscore = score;
	ci->isforwarded = 1;
}

static void
location(const struct rich *r, Wae2e__Message__LocationMessage *l)
{
	const char	*lat = rich_get(r, "lat", NULL);
	const char	*lon = rich_get(r, "lon", NULL);

	if (lat != NULL && lon != NULL) {
		l->has_degreeslatitude = l->has_degreeslongitude = 1;
		l->degreeslatitude = strtod(lat, NULL);
		l->degreeslongitude = strtod(lon, NULL);
	}
	l->name = unconst(rich_get(r, "name", NULL));
	l->address = unconst(rich_get(r, "addr", NULL));
	l->comment = unconst(rich_get(r, "comment", NULL));
}

/* The vCard of the card at r->kv[*at] (its "card" field) and the numbers
 * after it, as [BL] writes one (3.3), into b (NUL-terminated); *at is
 * left on the next card. */
static void
vcard(const struct rich *r, size_t *at, struct buf *b)
{
	const char	*name = r->kv[*at].val, *tel = NULL;
	size_t		 i;

	b->len = 0;
	put(b, "BEGIN:VCARD\nVERSION:3.0\nFN:");
	put(b, name);
	put(b, "\n");
	for (i = *at + 1; i < r->n && strcmp(r->kv[i].key, "card") != 0;
	    i++) {
		if (strcmp(r->kv[i].key, "tel") == 0) {
			if (tel != NULL) {
				put(b, ":");
				put(b, tel);
				put(b, "\n");
			}
			tel = r->kv[i].val;
			put(b, "TEL;type=CELL;type=VOICE");
		} else if (strcmp(r->kv[i].key, "waid") == 0 && tel != NULL) {
			put(b, ";waid=");
			put(b, r->kv[i].val);
		}
	}
	if (tel != NULL) {
		put(b, ":");
		put(b, tel);
		put(b, "\n");
	}
	put(b, "END:VCARD");
	buf_push(b, '\0');
	*at = i;
}

/* The contact cards of r into m, each marked with ci; the vCards in
 * vc[0..FWD_CARDS_MAX) (the caller releases them).  Returns 0, or
 * WC_EPROTO for a record without a card. */
static int
contacts(const struct rich *r, Wae2e__Message *m,
    Wae2e__Message__ContactMessage *cm, Wae2e__Message__ContactMessage **cp,
    Wae2e__Message__ContactsArrayMessage *ca, Wae2e__ContextInfo *ci,
    struct buf *vc)
{
	size_t	 at = 0, n = 0;

	while (at < r->n && strcmp(r->kv[at].key, "card") != 0)
		at++;
	while (at < r->n && n < FWD_CARDS_MAX) {
		wae2e__message__contact_message__init(&cm[n]);
		cm[n].displayname = unconst(r->kv[at].val);
		vcard(r, &at, &vc[n]);
		cm[n].vcard = (char *)vc[n].p;
		cp[n] = &cm[n];
		n++;
	}
	if (n == 0)
		return WC_EPROTO;
	if (n == 1) {		/* [BL]: one card alone, several in an array */
		cm[0].contextinfo = ci;
		m->contactmessage = &cm[0];
		return 0;
	}
	ca->displayname = cm[0].displayname;
	ca->contacts = cp;
	ca->n_contacts = n;
	ca->contextinfo = ci;
	m->contactsarraymessage = ca;
	return 0;
}

/* A preview's thumbnail from its hex field into th (may stay empty). */
static void
thumb(const struct rich *r, struct buf *th,
    Wae2e__Message__ExtendedTextMessage *x)
{
	const char	*h = rich_get(r, "thumb", NULL);
	size_t		 i, n = h != NULL ? strlen(h) : 0;
	int		 hi, lo;

	for (i = 0; i + 1 < n; i += 2) {
		if ((hi = hex_digit(h[i])) < 0 || (lo = hex_digit(h[i + 1])) < 0)
			return;
		buf_push(th, (uint8_t)(hi << 4 | lo));
	}
	x->has_jpegthumbnail = th->len > 0;
	x->jpegthumbnail.data = th->p;
	x->jpegthumbnail.len = th->len;
}

static void
preview(const struct rich *r, Wae2e__Message__ExtendedTextMessage *x,
    struct buf *th)
{
	const char	*t = rich_get(r, "text", NULL);

	x->text = unconst(t != NULL ? t : "");
	x->matchedtext = unconst(rich_get(r, "url", NULL));
	x->title = unconst(rich_get(r, "title", NULL));
	x->description = unconst(rich_get(r, "desc", NULL));
	thumb(r, th, x);
}

struct fwd_parts {
	Wae2e__Message				 m;
	Wae2e__ContextInfo			 ci;
	Wae2e__Message__LocationMessage		 loc;
	Wae2e__Message__ExtendedTextMessage	 x;
	Wae2e__Message__ContactsArrayMessage	 ca;
	Wae2e__Message__ContactMessage		 cm[FWD_CARDS_MAX];
	Wae2e__Message__ContactMessage		*cp[FWD_CARDS_MAX];
	struct buf				 vc[FWD_CARDS_MAX];
	struct buf				 th;
};

/* p's Message for record r.  Returns 0, -ENOTSUP or WC_EPROTO. */
static int
fill(const struct rich *r, struct fwd_parts *p)
{
	switch (r->type) {
	case RICH_LOCATION:
		p->loc.contextinfo = &p->ci;
		location(r, &p->loc);
		p->m.locationmessage = &p->loc;
		return 0;
	case RICH_CONTACTS:
		return contacts(r, &p->m, p->cm, p->cp, &p->ca, &p->ci, p->vc);
	case RICH_PREVIEW:
		p->x.contextinfo = &p->ci;
		preview(r, &p->x, &p->th);
		p->m.extendedtextmessage = &p->x;
		return 0;
	default:	/* live, view once, other: not forwarded */
		return -ENOTSUP;
	}
}

int
wa_msg_build_rich_forward(const char *rec, size_t len, uint32_t score,
    struct buf *out)
{
	struct fwd_parts	*p;
	struct rich		 r;
	size_t			 i, n;
	int			 rc;

	if (out == NULL || score == 0 || rec == NULL)
		return -EINVAL;
	if ((rc = rich_parse(rec, len, &r)) != 0)
		return rc;
	p = xcalloc(1, sizeof(*p));
	wae2e__message__init(&p->m);
	wae2e__context_info__init(&p->ci);
	wae2e__message__location_message__init(&p->loc);
	wae2e__message__extended_text_message__init(&p->x);
	wae2e__message__contacts_array_message__init(&p->ca);
	fwd_ci(&p->ci, score);
	if ((rc = fill(&r, p)) == 0) {
		n = protobuf_c_message_get_packed_size(&p->m.base);
		buf_reserve(out, n);
		out->len += protobuf_c_message_pack(&p->m.base,
		    out->p + out->len);
	}
	for (i = 0; i < FWD_CARDS_MAX; i++)
		buf_release(&p->vc[i]);
	buf_release(&p->th);
	free(p);
	rich_release(&r);
	return rc;
}
