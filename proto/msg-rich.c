/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/msg-rich.c -- the received kinds that are neither text nor media
 * flattened into a rich record (base/rich.h): location and live location
 * (protocol-features.md 3.2), contact cards, one or several (3.3, their
 * vCards read by proto/vcard.c), view-once media (3.4: its type only,
 * never its keys, so nothing downloads it) and link previews (3.6: the
 * title and description under the text).  Pure; any thread.
 */
#include "base/compat.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/rich.h"
#include "base/xmalloc.h"
#include "proto/msg-int.h"
#include "proto/vcard.h"

/* The record in b as c's text, c's kind RICH of type t. */
static void
finish(struct wa_msg_content *c, struct buf *b, enum rich_type t)
{
	c->kind = WA_MSG_RICH;
	c->rich_type = (int)t;
	buf_push(b, '\0');
	c->text = (char *)b->p;	/* the buffer's bytes are c's now */
}

/* lat/lon fields, when both are there and in range. */
static void
coords(struct buf *b, protobuf_c_boolean has_lat, double lat,
    protobuf_c_boolean has_lon, double lon)
{
	char	 v[48];

	if (!has_lat || !has_lon || !isfinite(lat) || !isfinite(lon) ||
	    fabs(lat) > 90 || fabs(lon) > 180)
		return;
	snprintf(v, sizeof(v), "%.6f", lat);
	rich_add_str(b, "lat", v);
	snprintf(v, sizeof(v), "%.6f", lon);
	rich_add_str(b, "lon", v);
}

/* The quoted message of ci, as a reply's fields of c. */
static void
quote(struct wa_msg_content *c, const Wae2e__ContextInfo *ci)
{
	if (ci == NULL || ci->stanzaid == NULL)
		return;
	c->quoted_id = xstrdup(ci->stanzaid);
	c->quoted_participant = ci->participant != NULL ?
	    xstrdup(ci->participant) : NULL;
}

static void
location(const Wae2e__Message__LocationMessage *l, struct buf *b)
{
	rich_begin(b, RICH_LOCATION);
	coords(b, l->has_degreeslatitude, l->degreeslatitude,
	    l->has_degreeslongitude, l->degreeslongitude);
	rich_add_str(b, "name", l->name);
	rich_add_str(b, "addr", l->address);
	rich_add_str(b, "comment", l->comment);
}

static void
live(const Wae2e__Message__LiveLocationMessage *l, struct buf *b)
{
	char	 v[32];

	rich_begin(b, RICH_LIVE);
	coords(b, l->has_degreeslatitude, l->degreeslatitude,
	    l->has_degreeslongitude, l->degreeslongitude);
	rich_add_str(b, "caption", l->caption);
	snprintf(v, sizeof(v), "%" PRId64, l->has_sequencenumber ?
	    (int64_t)l->sequencenumber : 0);
	rich_add_str(b, "seq", v);
}

/* One card: its name (the vCard's, else displayName) and numbers. */
static void
card(const Wae2e__Message__ContactMessage *cm, struct buf *b)
{
	struct wa_vcard	*v = xcalloc(1, sizeof(*v));
	size_t		 i;

	if (cm->vcard == NULL || wa_vcard_parse(cm->vcard, strlen(cm->vcard),
	    v) != 0)
		memset(v, 0, sizeof(*v));
	rich_add_str(b, "card", v->name[0] != '\0' ? v->name :
	    cm->displayname != NULL ? cm->displayname : "");
	for (i = 0; i < v->ntel; i++) {
		rich_add_str(b, "tel", v->tel[i].number);
		if (v->tel[i].waid[0] != '\0')
			rich_add_str(b, "waid", v->tel[i].waid);
	}
	free(v);
}

#define CARDS_MAX	32	/* cards of one ContactsArrayMessage read */

static void
contacts(const Wae2e__Message *m, struct buf *b)
{
	size_t	 i;

	rich_begin(b, RICH_CONTACTS);
	if (m->contactmessage != NULL) {
		card(m->contactmessage, b);
		return;
	}
	for (i = 0; i < m->contactsarraymessage->n_contacts && i < CARDS_MAX;
	    i++)
		if (m->contactsarraymessage->contacts[i] != NULL)
			card(m->contactsarraymessage->contacts[i], b);
}

/* Whether m's media is view-once by its own flag (3.4). */
static bool
flag_once(const Wae2e__Message *m)
{
	return (m->imagemessage != NULL && m->imagemessage->viewonce) ||
	    (m->videomessage != NULL && m->videomessage->viewonce) ||
	    (m->audiomessage != NULL && m->audiomessage->viewonce);
}

/* A view-once media message: its type in the record, and in c->media
 * what opening it needs (its key, path, hashes; stored beside the record,
 * never printed; not a MEDIA message, so nothing downloads it by itself),
 * without its caption. */
static bool
view_once(const Wae2e__Message *m, struct wa_msg_content *c,
    struct buf *b)
{
	const Wae2e__ContextInfo *ci;
	const char	*t = NULL;

	if (m->imagemessage != NULL)
		t = "image";
	else if (m->videomessage != NULL || m->ptvmessage != NULL)
		t = "video";
	else if (m->audiomessage != NULL)
		t = m->audiomessage->ptt ? "ptt" : "audio";
	if (t == NULL)
		return false;
	rich_begin(b, RICH_VIEWONCE);
	rich_add_str(b, "media", t);
	wa_msg_media_free(c->media);
	if ((c->media = wa_msg_media_of(m, &ci)) != NULL) {
		free(c->media->caption);	/* its content: not kept */
		c->media->caption = NULL;
	}
	finish(c, b, RICH_VIEWONCE);
	return true;
}

static bool
preview(const Wae2e__Message__ExtendedTextMessage *x,
    struct wa_msg_content *c, struct buf *b)
{
	if ((x->title == NULL || x->title[0] == '\0') &&
	    (x->description == NULL || x->description[0] == '\0'))
		return false;
	rich_begin(b, RICH_PREVIEW);
	rich_add_str(b, "text", x->text != NULL ? x->text : "");
	rich_add_str(b, "url", x->matchedtext);
	rich_add_str(b, "title", x->title);
	rich_add_str(b, "desc", x->description);
	if (x->has_jpegthumbnail)	/* inline, small (3.6); a larger one
					 * is dropped */
		rich_add_hex(b, "thumb", x->jpegthumbnail.data,
		    x->jpegthumbnail.len);
	quote(c, x->contextinfo);
	finish(c, b, RICH_PREVIEW);
	return true;
}

bool
wa_msg_rich_of(const Wae2e__Message *m, struct wa_msg_content *c)
{
	struct buf	 b = BUF_INIT;

	if ((c->view_once || flag_once(m)) && view_once(m, c, &b))
		return true;
	if (wa_msg_poll_of(m, c))
		return true;
	if (m->locationmessage != NULL) {
		location(m->locationmessage, &b);
		quote(c, m->locationmessage->contextinfo);
	} else if (m->livelocationmessage != NULL) {
		live(m->livelocationmessage, &b);
		c->live_seq = m->livelocationmessage->has_sequencenumber ?
		    m->livelocationmessage->sequencenumber : 0;
		finish(c, &b, RICH_LIVE);
		return true;
	} else if (m->contactmessage != NULL ||
	    m->contactsarraymessage != NULL)
		contacts(m, &b);
	else if (m->extendedtextmessage != NULL)
		return preview(m->extendedtextmessage, c, &b);
	else
		return false;
	finish(c, &b, m->locationmessage != NULL ? RICH_LOCATION :
	    RICH_CONTACTS);
	return true;
}
