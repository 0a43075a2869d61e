/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/phone-media-meta.c -- POST /admin/mock-phone/send-media: a
 * simulated phone sends a media message (protocol-features.md 1.6) with
 * the metadata it is given, as phone_send_msg() sends a text: an
 * ImageMessage, VideoMessage (gifPlayback; or as ptvMessage),
 * AudioMessage (PTT), DocumentMessage or StickerMessage with a fresh
 * random mediaKey and hashes and the given direct path (no blob is
 * stored: POST /admin/media/send, tests/sim/phone-media.c, sends real
 * files), optionally inside an ephemeral, view-once or
 * documentWithCaption wrapper; the <enc> carries the mediatype (1.7).
 * Loop thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/buf.h"
#include "keys.h"
#include "pbw.h"
#include "phone.h"
#include "proto/msg.h"
#include "sim.h"

/* The Message field and the numbers of the fields inside it (1.6). */
struct shape {
	const char	*name;		/* as the request says it */
	uint32_t	 msg_field;	/* in Message */
	uint32_t	 mimetype, caption, sha, len, height, width, key, enc;
	uint32_t	 path, key_ts, seconds, flag;	/* 0: none */
	const char	*mime;		/* default mimetype */
};

static const struct shape shapes[] = {
	{ "image", 3, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 0, 0, "image/jpeg" },
	{ "video", 9, 2, 7, 3, 4, 9, 10, 6, 11, 13, 14, 5, 0, "video/mp4" },
	{ "gif", 9, 2, 7, 3, 4, 9, 10, 6, 11, 13, 14, 5, 8, "video/mp4" },
	{ "ptv", 66, 2, 7, 3, 4, 9, 10, 6, 11, 13, 14, 5, 0, "video/mp4" },
	{ "audio", 8, 2, 0, 3, 4, 0, 0, 7, 8, 9, 10, 5, 0, "audio/mpeg" },
	{ "ptt", 8, 2, 0, 3, 4, 0, 0, 7, 8, 9, 10, 5, 6,
	    "audio/ogg; codecs=opus" },
	{ "document", 7, 2, 20, 4, 5, 0, 0, 7, 9, 10, 11, 0, 0,
	    "application/pdf" },
	{ "sticker", 26, 5, 0, 2, 9, 6, 7, 4, 3, 8, 10, 0, 13, "image/webp" },
};

static const struct shape *
shape_of(const char *name)
{
	size_t	 i;

	for (i = 0; name != NULL && i < sizeof(shapes) / sizeof(shapes[0]);
	    i++)
		if (strcmp(shapes[i].name, name) == 0)
			return &shapes[i];
	return NULL;
}

static void
str_field(struct buf *b, uint32_t field, const char *s)
{
	if (field != 0 && s != NULL)
		sim_pb_ld(b, field, s, strlen(s));
}

static void
num_field(struct buf *b, uint32_t field, struct json_object *in,
    const char *key)
{
	int64_t	 v;

	if (field != 0 && sim_json_num(in, key, &v) == 1 && v >= 0)
		sim_pb_uint(b, field, (uint64_t)v);
}

#define THUMB_FILE_MAX	(64u << 10)	/* bytes of a thumbnail file */
#define THUMB_FIELD	16		/* jpegThumbnail: image, video,
					 * document */

/* The JPEG file at path (NULL: none) as the message's jpegThumbnail, for
 * the types that carry one; a file that cannot be read, or one over
 * THUMB_FILE_MAX bytes, is left out. */
static void
thumbnail(const struct shape *sh, const char *path, struct buf *b)
{
	uint8_t	*p;
	size_t	 n;
	FILE	*f;

	if (path == NULL || sh->msg_field == 8 || sh->msg_field == 26 ||
	    (f = fopen(path, "rb")) == NULL)
		return;
	p = malloc(THUMB_FILE_MAX + 1);
	n = p != NULL ? fread(p, 1, THUMB_FILE_MAX + 1, f) : 0;
	fclose(f);
	if (n > 0 && n <= THUMB_FILE_MAX)
		sim_pb_ld(b, THUMB_FIELD, p, n);
	free(p);
}

/* The media message body for request in, of shape sh, into b. */
static void
body(const struct shape *sh, struct json_object *in, struct buf *b)
{
	const char		*mime = sim_json_str(in, "mimetype");
	const char		*path = sim_json_str(in, "direct_path");
	struct json_object	*v;
	uint8_t			 rnd[96];
	bool			 flag;

	sim_random(rnd, sizeof(rnd));
	str_field(b, 1, sim_json_str(in, "url"));
	str_field(b, sh->mimetype, mime != NULL ? mime : sh->mime);
	str_field(b, sh->caption, sim_json_str(in, "caption"));
	sim_pb_ld(b, sh->sha, rnd, 32);
	num_field(b, sh->len, in, "size");
	num_field(b, sh->height, in, "height");
	num_field(b, sh->width, in, "width");
	num_field(b, sh->seconds, in, "seconds");
	sim_pb_ld(b, sh->key, rnd + 32, 32);
	sim_pb_ld(b, sh->enc, rnd + 64, 32);
	str_field(b, sh->path, path != NULL ? path :
	    "/v/t62.7118-24/sim-media.enc?ccb=11-4");
	sim_pb_uint(b, sh->key_ts, (uint64_t)phone_now_ms(NULL) / 1000);
	flag = strcmp(sh->name, "gif") == 0 || strcmp(sh->name, "ptt") == 0 ||
	    (json_object_object_get_ex(in, "animated", &v) &&
	    json_object_get_boolean(v));
	if (sh->flag != 0 && flag)
		sim_pb_uint(b, sh->flag, 1);
	if (strcmp(sh->name, "document") == 0) {
		str_field(b, 8, sim_json_str(in, "file_name"));
		num_field(b, 6, in, "pages");
	}
	thumbnail(sh, sim_json_str(in, "thumbnail"), b);
	if (strcmp(sh->name, "ptt") == 0) {
		memset(rnd, 40, 64);	/* a flat waveform, 64 blocks */
		sim_pb_ld(b, 19, rnd, 64);
	}
}

/* The Message for in: the media message, maybe in a wrapper. */
static int
message(struct json_object *in, struct buf *out, const char **why)
{
	const struct shape	*sh = shape_of(sim_json_str(in, "media"));
	const char		*wrap = sim_json_str(in, "wrap");
	struct buf		 b = BUF_INIT, m = BUF_INIT, fp = BUF_INIT;
	uint32_t		 wf = 0;

	if (sh == NULL) {
		*why = "media: image, video, gif, ptv, audio, ptt, document "
		    "or sticker";
		return 400;
	}
	if (wrap != NULL && (wf = strcmp(wrap, "ephemeral") == 0 ? 40 :
	    strcmp(wrap, "view_once") == 0 ? 55 :
	    strcmp(wrap, "document_with_caption") == 0 ? 53 : 0) == 0) {
		*why = "wrap: ephemeral, view_once or document_with_caption";
		return 400;
	}
	body(sh, in, &b);
	sim_pb_ld(&m, sh->msg_field, b.p, b.len);
	if (wf != 0) {
		/* FutureProofMessage{message(1)} */
		sim_pb_ld(&fp, 1, m.p, m.len);
		sim_pb_ld(out, wf, fp.p, fp.len);
	} else
		buf_append(out, m.p, m.len);
	buf_release(&b);
	buf_release(&m);
	buf_release(&fp);
	return 200;
}

/* POST /admin/mock-phone/send-media {from_pn, to, media, caption,
 * file_name, mimetype, size, width, height, seconds, pages, animated,
 * direct_path, url, wrap}. */
static int
send_media(struct sim *s, struct json_object *in, struct buf *out)
{
	const char		*from = sim_json_str(in, "from_pn");
	const char		*to = sim_json_str(in, "to"), *why = NULL;
	struct sim_account	*a;
	struct buf		 m = BUF_INIT;
	int			 st;

	if (from == NULL || to == NULL)
		return sim_json_error(out, 400, "give from_pn and to");
	if ((a = sim_account_by_pn(s, from)) == NULL || a->phone == NULL)
		return sim_json_error(out, 404, "no such account");
	if ((st = message(in, &m, &why)) != 200)
		return sim_json_error(out, st, why);
	/* the <enc>'s mediatype (1.7) is the route's media name */
	st = sim_phone_send_answer(a->phone, to, &m, "media",
	    sim_json_str(in, "media"), out);
	buf_release(&m);
	return st;
}

int
sim_phone_send_answer(struct sim_phone *p, const char *to,
    const struct buf *m, const char *type, const char *mediatype,
    struct buf *out)
{
	struct json_object	*res = json_object_new_object();
	char			 id[WA_MSG_ID_LEN + 1];
	int			 rc;

	rc = phone_send_msg(p, to, m, type, NULL, mediatype, id, res);
	if (rc != 0) {
		json_object_put(res);
		return sim_json_error(out, rc == -EINVAL ? 400 : 500,
		    rc == -EINVAL ? "to must be the user JID of another "
		    "account or contact" : "not sent");
	}
	return sim_json_reply(out, res, 200);
}

int
sim_phone_media_admin(struct sim *s, const char *path,
    struct json_object *in, bool post, struct buf *out)
{
	if (strcmp(path, "mock-phone/send-media") != 0)
		return 0;
	if (!post)
		return sim_json_error(out, 405, "POST");
	return send_media(s, in, out);
}
