/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/phone-kinds.c -- POST /admin/mock-phone/send-kind: a
 * simulated phone sends a message of a kind that is neither text nor
 * media (protocol-features.md 3.2, 3.3, 3.6; 3.10), as phone_send_msg()
 * sends a text: a location, a live location (again with a higher seq: an
 * update), one contact card or several, a text with a link preview (and
 * its JPEG thumbnail), a text forwarded ("forwarded": its
 * forwardingScore, 3.7), a chat's disappearing-messages timer (3.5) or a
 * text sent under one, or a Message holding only an empty field N (a
 * kind wachat does not show).  View-once media go through
 * /admin/mock-phone/send-media with "wrap":"view_once".  Loop thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "base/buf.h"
#include "pbw.h"
#include "phone.h"
#include "proto/msg.h"
#include "sim.h"

/* Append field (wire type 1) with the double v to out. */
static void
pb_double(struct buf *out, uint32_t field, double v)
{
	uint64_t	 u;
	int		 i;

	memcpy(&u, &v, sizeof(u));
	buf_push(out, (uint8_t)(field << 3 | 1));
	for (i = 0; i < 8; i++)
		buf_push(out, (uint8_t)(u >> (8 * i)));
}

static void
pb_str(struct buf *out, uint32_t field, const char *s)
{
	if (s != NULL)
		sim_pb_ld(out, field, s, strlen(s));
}

/* The degrees of in's key (a JSON number or a string), or false. */
static bool
degrees(struct json_object *in, const char *key, double *v)
{
	struct json_object	*o;

	if (!json_object_object_get_ex(in, key, &o))
		return false;
	*v = json_object_get_double(o);
	return true;
}

/* LocationMessage (5) or LiveLocationMessage (18) for in. */
static int
location(struct json_object *in, bool live, struct buf *b)
{
	double	 lat, lon;
	int64_t	 seq = 0;

	if (!degrees(in, "lat", &lat) || !degrees(in, "lon", &lon))
		return -EINVAL;
	pb_double(b, 1, lat);
	pb_double(b, 2, lon);
	if (!live) {
		pb_str(b, 3, sim_json_str(in, "name"));
		pb_str(b, 4, sim_json_str(in, "address"));
		return 0;
	}
	pb_str(b, 6, sim_json_str(in, "caption"));
	if (sim_json_num(in, "seq", &seq) == 1 && seq > 0)
		sim_pb_uint(b, 7, (uint64_t)seq);
	return 0;
}

/* ContactMessage{displayName 1, vcard 16} of card o. */
static void
card(struct json_object *o, struct buf *b)
{
	pb_str(b, 1, sim_json_str(o, "name"));
	pb_str(b, 16, sim_json_str(o, "vcard"));
}

/* ContactsArrayMessage (13) of in's cards. */
static int
cards(struct json_object *in, struct buf *b)
{
	struct json_object	*arr;
	struct buf		 c = BUF_INIT;
	size_t			 i, n;

	if (!json_object_object_get_ex(in, "cards", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return -EINVAL;
	pb_str(b, 1, sim_json_str(in, "name"));
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		c.len = 0;
		card(json_object_array_get_idx(arr, i), &c);
		sim_pb_ld(b, 2, c.p, c.len);
	}
	buf_release(&c);
	return 0;
}

/* ExtendedTextMessage (6) with a preview: text 1, matchedText 2,
 * description 5, title 6, JPEGThumbnail 16 (a file). */
static int
preview(struct json_object *in, struct buf *b)
{
	const char	*thumb = sim_json_str(in, "thumbnail");
	FILE		*f;
	char		 chunk[4096];
	size_t		 n;
	struct buf	 t = BUF_INIT;

	pb_str(b, 1, sim_json_str(in, "text"));
	pb_str(b, 2, sim_json_str(in, "url"));
	pb_str(b, 5, sim_json_str(in, "description"));
	pb_str(b, 6, sim_json_str(in, "title"));
	if (thumb == NULL)
		return 0;
	if ((f = fopen(thumb, "rb")) == NULL)
		return -ENOENT;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0 && t.len < 1 << 20)
		buf_append(&t, chunk, n);
	fclose(f);
	sim_pb_ld(b, 16, t.p, t.len);
	buf_release(&t);
	return 0;
}

/* ExtendedTextMessage (6) {text 1, contextInfo 17 {forwardingScore 21,
 * isForwarded 22}}: a text forwarded (3.7) score times. */
static int
forwarded(struct json_object *in, struct buf *b)
{
	struct buf	 ci = BUF_INIT;
	int64_t		 score = 0;

	if (sim_json_str(in, "text") == NULL ||
	    sim_json_num(in, "score", &score) != 1 || score < 0 ||
	    score > UINT32_MAX)
		return -EINVAL;
	pb_str(b, 1, sim_json_str(in, "text"));
	if (score > 0)
		sim_pb_uint(&ci, 21, (uint64_t)score);
	sim_pb_uint(&ci, 22, 1);
	sim_pb_ld(b, 17, ci.p, ci.len);
	buf_release(&ci);
	return 0;
}

/* A chat's disappearing messages (3.5): "ephemeral" is the
 * protocolMessage (12) EPHEMERAL_SETTING {type 2 = 3,
 * ephemeralExpiration 4 = secs, ephemeralSettingTimestamp 5 = ts (now
 * when absent)}; "expiring" a text sent in such a chat:
 * extendedTextMessage (6) {text 1, contextInfo 17 {expiration 25 =
 * secs}}.  Its field into *f. */
static int
ephemeral(struct json_object *in, bool setting, struct buf *b, uint32_t *f)
{
	struct buf	 ci = BUF_INIT;
	int64_t		 secs = -1, ts = 0;

	if (sim_json_num(in, "secs", &secs) != 1 || secs < 0 ||
	    secs > UINT32_MAX)
		return -EINVAL;
	if (setting) {
		if (sim_json_num(in, "ts", &ts) != 1 || ts <= 0)
			ts = (int64_t)time(NULL);
		sim_pb_uint(b, 2, 3);
		sim_pb_uint(b, 4, (uint64_t)secs);
		sim_pb_uint(b, 5, (uint64_t)ts);
		*f = 12;
		return 0;
	}
	pb_str(b, 1, sim_json_str(in, "text"));
	sim_pb_uint(&ci, 25, (uint64_t)secs);
	sim_pb_ld(b, 17, ci.p, ci.len);
	buf_release(&ci);
	*f = 6;
	return 0;
}

/* The Message for in, its stanza type and mediatype (1.7, [RS]). */
static int
message(struct json_object *in, struct buf *out, const char **mediatype,
    const char **why)
{
	const char	*k = sim_json_str(in, "kind");
	struct buf	 b = BUF_INIT;
	int64_t		 field = 0;
	uint32_t	 f = 0;
	int		 rc = -EINVAL;

	*why = "kind: location, live, contact, contacts, preview, forwarded, "
	    "ephemeral, expiring or other";
	if (k == NULL)
		return -EINVAL;
	if (strcmp(k, "location") == 0 || strcmp(k, "live") == 0) {
		f = k[0] == 'l' && k[1] == 'o' ? 5 : 18;
		*mediatype = f == 5 ? "location" : "livelocation";
		*why = "give lat and lon";
		rc = location(in, f == 18, &b);
	} else if (strcmp(k, "contact") == 0) {
		f = 4;
		*mediatype = "vcard";
		card(in, &b);
		rc = 0;
	} else if (strcmp(k, "contacts") == 0) {
		f = 13;
		*mediatype = "contact_array";
		*why = "give cards: [{name, vcard}, ...]";
		rc = cards(in, &b);
	} else if (strcmp(k, "preview") == 0) {
		f = 6;
		*mediatype = "url";
		*why = "cannot read the thumbnail";
		rc = preview(in, &b);
	} else if (strcmp(k, "forwarded") == 0) {
		f = 6;
		*mediatype = NULL;
		*why = "give text and score (>= 0)";
		rc = forwarded(in, &b);
	} else if (strcmp(k, "ephemeral") == 0 ||
	    strcmp(k, "expiring") == 0) {
		*mediatype = NULL;
		*why = "give secs (and text)";
		rc = ephemeral(in, k[1] == 'p', &b, &f);
	} else if (strcmp(k, "other") == 0 &&
	    sim_json_num(in, "field", &field) == 1 && field > 0 &&
	    field < 1 << 28) {
		f = (uint32_t)field;	/* an empty message of field f */
		*mediatype = NULL;
		rc = 0;
	}
	if (rc == 0)
		sim_pb_ld(out, f, b.p, b.len);
	buf_release(&b);
	return rc;
}

/* POST /admin/mock-phone/send-kind {from_pn, to, kind, ...}. */
static int
send_kind(struct sim *s, struct json_object *in, struct buf *out)
{
	const char		*from = sim_json_str(in, "from_pn");
	const char		*to = sim_json_str(in, "to"), *why = NULL;
	const char		*mt = NULL;
	struct sim_account	*a;
	struct buf		 m = BUF_INIT;
	int			 rc;

	if (from == NULL || to == NULL)
		return sim_json_error(out, 400, "give from_pn and to");
	if ((a = sim_account_by_pn(s, from)) == NULL || a->phone == NULL)
		return sim_json_error(out, 404, "no such account");
	if (message(in, &m, &mt, &why) != 0) {
		buf_release(&m);
		return sim_json_error(out, 400, why);
	}
	rc = sim_phone_send_answer(a->phone, to, &m, mt != NULL ? "media" :
	    "text", mt, out);
	buf_release(&m);
	return rc;
}

int
sim_phone_kinds_admin(struct sim *s, const char *path,
    struct json_object *in, bool post, struct buf *out)
{
	if (strcmp(path, "mock-phone/send-kind") != 0)
		return 0;
	if (!post)
		return sim_json_error(out, 405, "POST");
	return send_kind(s, in, out);
}
