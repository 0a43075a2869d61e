/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/phone-media.c -- media messages (protocol-features.md 1): a
 * simulated contact sends a photo, voice note, video (a GIF with
 * gifPlayback, a round video in ptvMessage), document or sticker
 * (POST /admin/media/send): the file encrypted with a fresh media key and
 * its type's HKDF info (1.2-1.3), stored on the sim's own media host, the
 * type's Message fields (1.6) and the stanza's type="media" and
 * <enc mediatype> (1.7), sent with the contact's Signal sessions as its
 * texts are; on request with a byte of the stored blob flipped after its
 * hashes were taken, or a fileLength that is not the file's (faults for
 * a client's download), or inside a view-once wrapper ("view_once").
 * A phone that reads a media message (a client's upload)
 * fetches, decrypts and checks the blob; the media retry (1.8) is
 * answered with a re-upload.  GET /admin/media lists both, with the
 * hashes.  Loop thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "base/arena.h"
#include "base/err.h"
#include "base/xmalloc.h"
#include "keys.h"
#include "nodes.h"
#include "pbw.h"
#include "phone.h"
#include "proto/crypto.h"
#include "proto/media.h"
#include "proto/msg.h"
#include "sim.h"

#define MEDIA_FILE_MAX	(16u << 20)	/* bytes of a file a contact sends */
#define MEDIA_RX_MAX	(64u << 20)	/* bytes a phone decrypts */
#define MEDIA_WAVEFORM	64		/* bytes, as Baileys makes it */
#define MEDIA_NEST_MAX	4		/* wrappers unwrapped */

/* The Message fields of one media type (protocol-features.md 1.6); 0 =
 * the type has none. */
struct mtype {
	const char	*name, *info, *mime;
	uint32_t	 msg;		/* field of Message */
	uint32_t	 url, mimetype, caption, sha, len, height, width, key;
	uint32_t	 enc, dp, ts, thumb, seconds;
};

static const struct mtype mtypes[] = {
	{ "image", WA_MEDIA_INFO_IMAGE, "image/jpeg", 3,
	    1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 16, 0 },
	{ "video", WA_MEDIA_INFO_VIDEO, "video/mp4", 9,
	    1, 2, 7, 3, 4, 9, 10, 6, 11, 13, 14, 16, 5 },
	/* a round video note: a VideoMessage in ptvMessage (66) */
	{ "ptv", WA_MEDIA_INFO_VIDEO, "video/mp4", 66,
	    1, 2, 7, 3, 4, 9, 10, 6, 11, 13, 14, 16, 5 },
	{ "audio", WA_MEDIA_INFO_AUDIO, "audio/ogg; codecs=opus", 8,
	    1, 2, 0, 3, 4, 0, 0, 7, 8, 9, 10, 0, 5 },
	{ "document", WA_MEDIA_INFO_DOCUMENT, "application/pdf", 7,
	    1, 2, 20, 4, 5, 0, 0, 7, 9, 10, 11, 16, 0 },
	{ "sticker", WA_MEDIA_INFO_IMAGE, "image/webp", 26,
	    1, 5, 0, 2, 9, 6, 7, 4, 3, 8, 10, 0, 0 },
};

#define VIDEO_GIF	8	/* VideoMessage.gifPlayback */
#define AUDIO_PTT	6	/* AudioMessage.PTT */
#define AUDIO_WAVEFORM	19
#define DOC_TITLE	3
#define DOC_PAGES	6
#define DOC_NAME	8

/* A media message a contact sent, or a phone read. */
struct sim_media_msg {
	struct sim_media_msg	*next;
	uint64_t		 seq;
	bool			 received;	/* read by a phone; else sent */
	char			 id[40];
	char			 from[PHONE_JID_MAX], to[PHONE_JID_MAX];
	const struct mtype	*t;
	bool			 ptt;
	bool			 gif;		/* video: gifPlayback */
	char			 stanza_type[16];	/* received: as sent */
	char			 stanza_mediatype[16];
	char			 mimetype[96], file_name[160], caption[256];
	uint8_t			 media_key[32], file_sha256[32];
	uint8_t			 file_enc_sha256[32];
	uint64_t		 length;
	uint64_t		 width, height, seconds, pages;
	size_t			 thumb_len, waveform_len;
	struct sim_blob		*blob;		/* the current one */
	char			 direct_path[256];
	int			 err;		/* received: 0 or why not */
	const char		*why;
	uint8_t			 got_sha256[32];	/* of what it decrypted */
	uint64_t		 got_len;
	unsigned		 retries;	/* media retries answered */
};

static const struct mtype *
mtype_by_name(const char *name)
{
	for (size_t i = 0; name != NULL && i < sizeof(mtypes) /
	    sizeof(mtypes[0]); i++)
		if (strcmp(mtypes[i].name, name) == 0)
			return &mtypes[i];
	return NULL;
}

static const struct mtype *
mtype_by_field(uint32_t f)
{
	for (size_t i = 0; i < sizeof(mtypes) / sizeof(mtypes[0]); i++)
		if (mtypes[i].msg == f)
			return &mtypes[i];
	return NULL;
}

/* The stanza's mediatype (1.7). */
static const char *
mediatype_of(const struct sim_media_msg *m)
{
	if (m->t->msg == 8)
		return m->ptt ? "ptt" : "audio";
	if (m->t->msg == 9 && m->gif)
		return "gif";
	return m->t->name;
}

static struct sim_media_msg *
msg_new(struct sim *s)
{
	struct sim_media_msg	*m = xcalloc(1, sizeof(*m));

	m->seq = ++s->nmedia_msgs;
	m->next = s->media_msgs;
	s->media_msgs = m;
	return m;
}

void
sim_media_msgs_free(struct sim *s)
{
	struct sim_media_msg	*m;

	while ((m = s->media_msgs) != NULL) {
		s->media_msgs = m->next;
		wa_crypto_wipe(m->media_key, sizeof(m->media_key));
		free(m);
	}
}

/* --- sending --- */

/* Read the file at path (at most MEDIA_FILE_MAX bytes) into out. */
static int
read_file(const char *path, struct buf *out)
{
	FILE	*f = fopen(path, "rb");
	uint8_t	 chunk[16384];
	size_t	 n;

	if (f == NULL)
		return -errno;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (out->len + n > MEDIA_FILE_MAX) {
			(void)fclose(f);
			return WC_ETOOBIG;
		}
		buf_append(out, chunk, n);
	}
	n = ferror(f);
	(void)fclose(f);
	return n != 0 ? -EIO : 0;
}

/* A one-page PDF saying text: the generated fixture of a document. */
static void
gen_pdf(struct buf *out, const char *text)
{
	char	 obj[5][256];
	size_t	 off[6], i;
	char	 stream[160], safe[61];
	int	 sl;

	/* A PDF string: no parenthesis or backslash of the caption. */
	for (i = 0; text[i] != '\0' && i + 1 < sizeof(safe); i++)
		safe[i] = strchr("()\\", text[i]) != NULL ||
		    (unsigned char)text[i] < 0x20 ? ' ' : text[i];
	safe[i] = '\0';
	sl = snprintf(stream, sizeof(stream), "BT /F1 18 Tf 40 120 Td (%s) "
	    "Tj ET", safe);
	snprintf(obj[0], sizeof(obj[0]), "<< /Type /Catalog /Pages 2 0 R >>");
	snprintf(obj[1], sizeof(obj[1]), "<< /Type /Pages /Kids [3 0 R] "
	    "/Count 1 >>");
	snprintf(obj[2], sizeof(obj[2]), "<< /Type /Page /Parent 2 0 R "
	    "/MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font "
	    "<< /F1 5 0 R >> >> >>");
	snprintf(obj[3], sizeof(obj[3]), "<< /Length %d >>\nstream\n%s\n"
	    "endstream", sl, stream);
	snprintf(obj[4], sizeof(obj[4]), "<< /Type /Font /Subtype /Type1 "
	    "/BaseFont /Helvetica >>");
	buf_append(out, "%PDF-1.4\n", 9);
	for (i = 0; i < 5; i++) {
		char	 head[32];
		int	 hl = snprintf(head, sizeof(head), "%zu 0 obj\n", i + 1);

		off[i] = out->len;
		buf_append(out, head, (size_t)hl);
		buf_append(out, obj[i], strlen(obj[i]));
		buf_append(out, "\nendobj\n", 8);
	}
	off[5] = out->len;
	{
		char	 x[512];
		int	 xl = snprintf(x, sizeof(x), "xref\n0 6\n0000000000 65535 "
		    "f \n%010zu 00000 n \n%010zu 00000 n \n%010zu 00000 n \n"
		    "%010zu 00000 n \n%010zu 00000 n \ntrailer\n<< /Size 6 "
		    "/Root 1 0 R >>\nstartxref\n%zu\n%%%%EOF\n", off[0],
		    off[1], off[2], off[3], off[4], off[5]);

		buf_append(out, x, (size_t)xl);
	}
}

/* A voice note's 64 levels (0..100), a rising and falling shape. */
static void
gen_waveform(uint8_t w[MEDIA_WAVEFORM])
{
	for (unsigned i = 0; i < MEDIA_WAVEFORM; i++) {
		unsigned	 d = i < 32 ? i : 63 - i;

		w[i] = (uint8_t)(10 + d * 90 / 31);
	}
}

/* What POST /admin/media/send asked for, beyond the file. */
struct send_req {
	struct json_object	*in;
	struct sim_media_msg	*m;
	struct buf		 thumb, waveform;
};

static void
num_opt(struct json_object *in, const char *key, uint64_t *v)
{
	int64_t	 n;

	if (sim_json_num(in, key, &n) == 1 && n >= 0)
		*v = (uint64_t)n;
}

/* The type's Message (1.6) for m into out, in field order. */
static void
build_media(const struct send_req *r, const char *url, struct buf *out)
{
	const struct sim_media_msg	*m = r->m;
	const struct mtype		*t = m->t;
	struct buf			 in = BUF_INIT;

	sim_pb_ld(&in, t->url, url, strlen(url));
	sim_pb_ld(&in, t->mimetype, m->mimetype, strlen(m->mimetype));
	if (t->msg == 7 && m->file_name[0] != '\0')
		sim_pb_ld(&in, DOC_TITLE, m->file_name, strlen(m->file_name));
	sim_pb_ld(&in, t->sha, m->file_sha256, 32);
	sim_pb_uint(&in, t->len, m->length);
	if (t->seconds != 0)
		sim_pb_uint(&in, t->seconds, m->seconds);
	if (t->msg == 8)
		sim_pb_uint(&in, AUDIO_PTT, m->ptt);
	if (t->msg == 9 && m->gif)
		sim_pb_uint(&in, VIDEO_GIF, 1);
	if (t->msg == 7 && m->pages > 0)
		sim_pb_uint(&in, DOC_PAGES, m->pages);
	if (t->height != 0 && m->height > 0) {
		sim_pb_uint(&in, t->height, m->height);
		sim_pb_uint(&in, t->width, m->width);
	}
	sim_pb_ld(&in, t->key, m->media_key, 32);
	if (t->msg == 7)
		sim_pb_ld(&in, DOC_NAME, m->file_name, strlen(m->file_name));
	sim_pb_ld(&in, t->enc, m->file_enc_sha256, 32);
	sim_pb_ld(&in, t->dp, m->direct_path, strlen(m->direct_path));
	sim_pb_uint(&in, t->ts, (uint64_t)time(NULL));
	if (t->thumb != 0 && r->thumb.len > 0)
		sim_pb_ld(&in, t->thumb, r->thumb.p, r->thumb.len);
	if (t->caption != 0 && m->caption[0] != '\0')
		sim_pb_ld(&in, t->caption, m->caption, strlen(m->caption));
	if (t->msg == 8 && r->waveform.len > 0)
		sim_pb_ld(&in, AUDIO_WAVEFORM, r->waveform.p, r->waveform.len);
	sim_pb_ld(out, t->msg, in.p, in.len);
	buf_release(&in);
}

/* The request's fields into r->m and r's buffers; *why on a refusal. */
static int
send_fields(struct send_req *r, const char **why)
{
	struct sim_media_msg	*m = r->m;
	const char		*v;
	int			 rc;

	v = sim_json_str(r->in, "mimetype");
	snprintf(m->mimetype, sizeof(m->mimetype), "%s", v != NULL ? v :
	    m->t->mime);
	v = sim_json_str(r->in, "caption");
	snprintf(m->caption, sizeof(m->caption), "%s", v != NULL ? v : "");
	v = sim_json_str(r->in, "file_name");
	snprintf(m->file_name, sizeof(m->file_name), "%s", v != NULL ? v :
	    "file");
	num_opt(r->in, "width", &m->width);
	num_opt(r->in, "height", &m->height);
	num_opt(r->in, "seconds", &m->seconds);
	num_opt(r->in, "pages", &m->pages);
	m->ptt = m->t->msg == 8;
	if ((v = sim_json_str(r->in, "ptt")) != NULL)
		m->ptt = strcmp(v, "false") != 0 && strcmp(v, "0") != 0;
	if ((v = sim_json_str(r->in, "gif")) != NULL)
		m->gif = strcmp(v, "false") != 0 && strcmp(v, "0") != 0;
	if ((v = sim_json_str(r->in, "thumbnail")) != NULL &&
	    (rc = read_file(v, &r->thumb)) != 0) {
		*why = "cannot read the thumbnail";
		return rc;
	}
	if (m->t->msg == 8 && m->ptt) {
		uint8_t	 w[MEDIA_WAVEFORM];

		gen_waveform(w);
		buf_append(&r->waveform, w, sizeof(w));
	}
	m->thumb_len = r->thumb.len;
	m->waveform_len = r->waveform.len;
	return 0;
}

/* Encrypt data for m, store it, build the Message into msg. */
static int
send_store(struct sim *s, struct send_req *r, const struct buf *data,
    struct buf *msg)
{
	struct sim_media_msg	*m = r->m;
	struct buf		 enc = BUF_INIT;
	char			 host[96], url[512];
	int			 rc;

	sim_random(m->media_key, 32);
	if ((rc = wa_media_encrypt(m->media_key, m->t->info, data->p,
	    data->len, &enc, m->file_enc_sha256, m->file_sha256)) != 0) {
		buf_release(&enc);
		return rc;
	}
	m->length = data->len;
	num_opt(r->in, "declared_length", &m->length);
	m->blob = sim_media_put(s, "media", &enc);
	if (json_object_object_get_ex(r->in, "flip_byte", NULL) &&
	    m->blob->data.len > 0)	/* after SHA-256(blob): served so */
		m->blob->data.p[m->blob->data.len / 2] ^= 0x01;
	memcpy(m->blob->media_key, m->media_key, 32);
	memcpy(m->blob->file_sha256, m->file_sha256, 32);
	snprintf(m->direct_path, sizeof(m->direct_path), "%s", m->blob->path);
	sim_media_hostname(s, host, sizeof(host));
	snprintf(url, sizeof(url), "https://%s%s", host, m->blob->path);
	build_media(r, url, msg);
	return 0;
}

/* The file of the request, or the generated fixture (documents). */
static int
send_data(struct send_req *r, struct buf *data, const char **why)
{
	const char	*file = sim_json_str(r->in, "file");
	int		 rc;

	if (file == NULL && r->m->t->msg == 7) {
		gen_pdf(data, r->m->caption[0] != '\0' ? r->m->caption :
		    "A document from wachat-sim");
		if (strcmp(r->m->file_name, "file") == 0)
			snprintf(r->m->file_name, sizeof(r->m->file_name),
			    "wachat-sim.pdf");
		if (r->m->pages == 0)
			r->m->pages = 1;
		return 0;
	}
	if (file == NULL) {
		*why = "give file (only a document has a generated fixture)";
		return -EINVAL;
	}
	if ((rc = read_file(file, data)) != 0)
		*why = rc == WC_ETOOBIG ? "the file is larger than 16 MiB" :
		    "cannot read the file";
	return rc;
}

/* With "view_once" in the request: msg inside viewOnceMessageV2 (55),
 * a FutureProofMessage{message(1)} (protocol-features.md 3.4). */
static void
wrap_once(const struct send_req *r, struct buf *msg)
{
	struct buf	 fp = BUF_INIT, w = BUF_INIT;

	if (!json_object_object_get_ex(r->in, "view_once", NULL))
		return;
	sim_pb_ld(&fp, 1, msg->p, msg->len);
	sim_pb_ld(&w, 55, fp.p, fp.len);
	buf_release(&fp);
	buf_release(msg);
	*msg = w;
}

static int
media_send(struct sim *s, struct json_object *in, struct buf *out)
{
	const char		*from = sim_json_str(in, "from_pn");
	const char		*to = sim_json_str(in, "to");
	const char		*why = NULL;
	struct sim_account	*a;
	struct send_req		 r = { in, NULL, BUF_INIT, BUF_INIT };
	struct sim_media_msg	 tmp;
	struct buf		 data = BUF_INIT, msg = BUF_INIT;
	struct json_object	*res;
	char			 id[WA_MSG_ID_LEN + 1];
	int			 rc;

	memset(&tmp, 0, sizeof(tmp));
	if (from == NULL || to == NULL ||
	    (tmp.t = mtype_by_name(sim_json_str(in, "type"))) == NULL)
		return sim_json_error(out, 400, "give from_pn, to and type "
		    "(image, video, ptv, audio, document, sticker)");
	if ((a = sim_account_by_pn(s, from)) == NULL || a->phone == NULL)
		return sim_json_error(out, 404, "no such account");
	r.m = &tmp;
	if ((rc = send_fields(&r, &why)) == 0 &&
	    (rc = send_data(&r, &data, &why)) == 0 &&
	    (rc = send_store(s, &r, &data, &msg)) == 0)
		wrap_once(&r, &msg);
	buf_release(&data);
	buf_release(&r.thumb);
	buf_release(&r.waveform);
	if (rc != 0) {
		buf_release(&msg);
		return sim_json_error(out, 400, why != NULL ? why :
		    wc_strerror(rc));
	}
	res = json_object_new_object();
	rc = phone_send_msg(a->phone, to, &msg, "media", NULL,
	    mediatype_of(&tmp), id, res);
	buf_release(&msg);
	if (rc != 0) {
		json_object_put(res);
		return sim_json_error(out, rc == -EINVAL ? 400 : 500, rc ==
		    -EINVAL ? "to must be the user JID of another account or "
		    "contact" : wc_strerror(rc));
	}
	r.m = msg_new(s);
	tmp.next = r.m->next;
	tmp.seq = r.m->seq;
	*r.m = tmp;
	snprintf(r.m->id, sizeof(r.m->id), "%s", id);
	snprintf(r.m->from, sizeof(r.m->from), "%s@s.whatsapp.net", from);
	snprintf(r.m->to, sizeof(r.m->to), "%s", to);
	snprintf(r.m->blob->pn, sizeof(r.m->blob->pn), "%s", from);
	snprintf(r.m->blob->msg_id, sizeof(r.m->blob->msg_id), "%s", id);
	wa_crypto_wipe(tmp.media_key, sizeof(tmp.media_key));
	json_object_object_add(res, "media", sim_media_msg_json(r.m));
	return sim_json_reply(out, res, 200);
}

/* --- reading (a client's upload, sent to a simulated phone) --- */

/* The string field f of p[0..len) into out[olen] ("" when absent). */
static void
pb_str(const uint8_t *p, size_t len, uint32_t f, char *out, size_t olen)
{
	const uint8_t	*v;
	size_t		 vl;

	out[0] = '\0';
	if (f != 0 && sim_pb_find(p, len, f, &v, &vl))
		snprintf(out, olen, "%.*s", (int)(vl < olen ? vl : olen - 1),
		    (const char *)v);
}

/* The 32 bytes of field f of p[0..len) into out; false when not so. */
static bool
pb_hash(const uint8_t *p, size_t len, uint32_t f, uint8_t out[32])
{
	const uint8_t	*v;
	size_t		 vl;

	if (!sim_pb_find(p, len, f, &v, &vl) || vl != 32)
		return false;
	memcpy(out, v, 32);
	return true;
}

/* The varint field f of p[0..len) (0 when absent). */
static uint64_t
pb_uint(const uint8_t *p, size_t len, uint32_t f)
{
	struct sim_pb_field	 fl;
	size_t			 off = 0;

	while (f != 0 && sim_pb_next(p, len, &off, &fl) == 1)
		if (fl.num == f && fl.wire == 0)
			return fl.v;
	return 0;
}

/* Fetch and check the blob of m (its fields set) from the own host. */
static void
rx_check(struct sim *s, struct sim_media_msg *m)
{
	struct buf	 blob = BUF_INIT, plain = BUF_INIT;

	m->blob = sim_media_find(s, m->direct_path);
	if (m->blob == NULL || m->blob->gone) {
		m->err = -ENOENT;
		m->why = "no such blob on the media host";
		return;
	}
	memcpy(m->blob->media_key, m->media_key, 32);
	memcpy(m->blob->file_sha256, m->file_sha256, 32);
	snprintf(m->blob->msg_id, sizeof(m->blob->msg_id), "%s", m->id);
	if ((m->err = sim_media_read(m->blob, MEDIA_RX_MAX, &blob)) == 0)
		m->err = wa_media_decrypt(m->media_key, m->t->info, blob.p,
		    blob.len, m->file_enc_sha256, m->file_sha256,
		    MEDIA_RX_MAX, &plain, &m->why);
	if (m->err == 0) {
		wa_crypto_sha256(plain.p, plain.len, m->got_sha256);
		m->got_len = plain.len;
	}
	buf_release(&blob);
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&plain);
}

/* Where a Message came from: its id, the sending device and what its
 * stanza said (1.7). */
struct rx_from {
	const char	*id, *from, *stype, *mediatype;
};

/* One media Message field (t) of the Message from sender, read by p. */
static void
rx_one(struct sim_phone *p, const struct mtype *t, const uint8_t *v,
    size_t vl, const struct rx_from *rf)
{
	const char		*id = rf->id, *from = rf->from;
	struct sim_media_msg	*m;
	const uint8_t		*x;
	size_t			 xl;

	/* Read again (a resend): one row per message and phone. */
	for (m = p->s->media_msgs; m != NULL; m = m->next)
		if (m->received && m->t == t && strcmp(m->id, id) == 0 &&
		    strncmp(m->to, p->a->pn, strlen(p->a->pn)) == 0 &&
		    m->to[strlen(p->a->pn)] == '@')
			return;
	m = msg_new(p->s);
	m->received = true;
	m->t = t;
	snprintf(m->id, sizeof(m->id), "%s", id);
	snprintf(m->from, sizeof(m->from), "%s", from);
	snprintf(m->to, sizeof(m->to), "%s@s.whatsapp.net", p->a->pn);
	snprintf(m->stanza_type, sizeof(m->stanza_type), "%s",
	    rf->stype != NULL ? rf->stype : "");
	snprintf(m->stanza_mediatype, sizeof(m->stanza_mediatype), "%s",
	    rf->mediatype != NULL ? rf->mediatype : "");
	pb_str(v, vl, t->mimetype, m->mimetype, sizeof(m->mimetype));
	pb_str(v, vl, t->caption, m->caption, sizeof(m->caption));
	pb_str(v, vl, t->dp, m->direct_path, sizeof(m->direct_path));
	if (t->msg == 7)
		pb_str(v, vl, DOC_NAME, m->file_name, sizeof(m->file_name));
	m->length = pb_uint(v, vl, t->len);
	m->width = pb_uint(v, vl, t->width);
	m->height = pb_uint(v, vl, t->height);
	m->seconds = pb_uint(v, vl, t->seconds);
	m->pages = t->msg == 7 ? pb_uint(v, vl, DOC_PAGES) : 0;
	m->ptt = t->msg == 8 && pb_uint(v, vl, AUDIO_PTT) != 0;
	if (t->thumb != 0 && sim_pb_find(v, vl, t->thumb, &x, &xl))
		m->thumb_len = xl;
	if (t->msg == 8 && sim_pb_find(v, vl, AUDIO_WAVEFORM, &x, &xl))
		m->waveform_len = xl;
	if (!pb_hash(v, vl, t->key, m->media_key) ||
	    !pb_hash(v, vl, t->sha, m->file_sha256) ||
	    !pb_hash(v, vl, t->enc, m->file_enc_sha256) ||
	    m->direct_path[0] != '/') {
		m->err = WC_EPROTO;
		m->why = "no mediaKey, hashes or directPath";
	} else
		rx_check(p->s, m);
	sim_log(p->s, "phone %s: %s %s from %s: %s", p->a->pn, t->name, id,
	    from, m->err == 0 ? "fetched and checked" : m->why != NULL ?
	    m->why : wc_strerror(m->err));
}

/* Walk Message p[0..len), nest wrappers deep at most. */
static void
rx_walk(struct sim_phone *ph, const uint8_t *p, size_t len, unsigned nest,
    const struct rx_from *rf)
{
	struct sim_pb_field	 f;
	const struct mtype	*t;
	const uint8_t		*v;
	size_t			 off = 0, vl;

	while (nest < MEDIA_NEST_MAX && sim_pb_next(p, len, &off, &f) == 1) {
		if (f.wire != 2)
			continue;
		if ((t = mtype_by_field(f.num)) != NULL)
			rx_one(ph, t, f.p, f.len, rf);
		else if (f.num == 31 && sim_pb_find(f.p, f.len, 2, &v, &vl))
			/* deviceSentMessage{message=2} */
			rx_walk(ph, v, vl, nest + 1, rf);
		else if ((f.num == 53 || f.num == 40 || f.num == 37 ||
		    f.num == 55) && sim_pb_find(f.p, f.len, 1, &v, &vl))
			/* FutureProofMessage{message=1} */
			rx_walk(ph, v, vl, nest + 1, rf);
	}
}

void
phone_media_take(struct sim_phone *p, const char *id, const char *from,
    const char *stype, const char *mediatype, const uint8_t *plain,
    size_t len)
{
	struct rx_from	 rf = { id, from, stype, mediatype };

	rx_walk(p, plain, len, 0, &rf);
}

/* --- the media retry (1.8) --- */

#define RETRY_INFO	"WhatsApp Media Retry Notification"

/* The newest media message id known with a blob, or NULL. */
static struct sim_media_msg *
msg_by_id(struct sim *s, const char *id)
{
	struct sim_media_msg	*m;

	for (m = s->media_msgs; m != NULL; m = m->next)
		if (strcmp(m->id, id) == 0 && m->blob != NULL)
			return m;
	return NULL;
}

/* The bytes of child tag of n into *p, *len; false when it has none. */
static bool
child_bytes(const struct wa_node *n, const char *tag, const uint8_t **p,
    size_t *len)
{
	const struct wa_node	*c = n != NULL ? sn_find(n, tag) : NULL;

	if (c == NULL || c->content.kind != WA_VAL_BYTES)
		return false;
	*p = (const uint8_t *)c->content.u.str.p;
	*len = c->content.u.str.len;
	return true;
}

/* Open the request's <encrypt> with key; 0 when it names id. */
static int
retry_open(const struct wa_node *n, const uint8_t key[32], const char *id)
{
	const struct wa_node	*e = sn_find(n, "encrypt");
	const uint8_t		*ct, *iv, *sid;
	size_t			 ctl, ivl, sidl;
	uint8_t			 pt[256];
	int			 rc;

	if (!child_bytes(e, "enc_p", &ct, &ctl) ||
	    !child_bytes(e, "enc_iv", &iv, &ivl) ||
	    ivl != WA_CRYPTO_GCM_NONCE_LEN || ctl < WA_CRYPTO_GCM_TAG_LEN ||
	    ctl - WA_CRYPTO_GCM_TAG_LEN > sizeof(pt))
		return WC_EPROTO;
	if ((rc = wa_crypto_gcm_open_once(key, iv, (const uint8_t *)id,
	    strlen(id), ct, ctl, pt)) != 0)
		return rc;
	/* ServerErrorReceipt{stanzaID=1} */
	if (!sim_pb_find(pt, ctl - WA_CRYPTO_GCM_TAG_LEN, 1, &sid, &sidl) ||
	    sidl != strlen(id) || memcmp(sid, id, sidl) != 0)
		return WC_EPROTO;
	return 0;
}

/* The notification's <encrypt> for the new path (result SUCCESS). */
static int
retry_seal(struct arena *ar, struct wa_node *nt, const uint8_t key[32],
    const char *id, const char *path)
{
	struct buf	 pt = BUF_INIT;
	struct wa_node	*e;
	uint8_t		 iv[WA_CRYPTO_GCM_NONCE_LEN], *ct;
	int		 rc;

	sim_pb_ld(&pt, 1, id, strlen(id));
	sim_pb_ld(&pt, 2, path, strlen(path));
	sim_pb_uint(&pt, 3, 1);
	sim_random(iv, sizeof(iv));
	ct = xmalloc(pt.len + WA_CRYPTO_GCM_TAG_LEN);
	rc = wa_crypto_gcm_seal_once(key, iv, (const uint8_t *)id, strlen(id),
	    pt.p, pt.len, ct);
	if (rc == 0) {
		e = sn_child(ar, nt, "encrypt");
		sn_bytes(ar, sn_child(ar, e, "enc_p"), ct,
		    pt.len + WA_CRYPTO_GCM_TAG_LEN);
		sn_bytes(ar, sn_child(ar, e, "enc_iv"), iv, sizeof(iv));
	}
	buf_release(&pt);
	free(ct);
	return rc;
}

/* Copy the attributes of the request's <rmr> onto the answer's. */
static void
copy_rmr(struct arena *ar, struct wa_node *to, const struct wa_node *n)
{
	const struct wa_node	*rmr = sn_find(n, "rmr");
	static const char *const keys[] = { "jid", "from_me", "participant" };

	for (size_t i = 0; rmr != NULL && i < 3; i++) {
		const struct wa_val	*v = wa_node_attr(rmr, keys[i]);

		if (v != NULL)
			sn_attr_val(ar, to, keys[i], v);
	}
}

void
phone_media_retry(struct sim_phone *p, const struct wa_node *n,
    const char *id)
{
	struct sim		*s = p->s;
	struct sim_media_msg	*m = msg_by_id(s, id);
	struct arena		 ar;
	struct wa_node		*nt;
	struct sim_blob		*b = NULL;
	char			 from[PHONE_JID_MAX], user[SIM_PN_MAX], srv[32];
	char			 t[24];
	uint8_t			 key[32];
	uint32_t		 dev = 0;
	int			 rc = -ENOENT;

	phone_val_jid(wa_node_attr(n, "from"), from, sizeof(from));
	if (!phone_split_jid(from, user, sizeof(user), srv, sizeof(srv),
	    &dev) || dev == 0 || (strcmp(user, p->a->pn) != 0 &&
	    strcmp(user, p->a->lid) != 0)) {
		sim_log(s, "phone %s: media retry %s from %s: not an own "
		    "companion", p->a->pn, id, from);
		return;
	}
	arena_init(&ar, 0);
	nt = sn_new(&ar, "notification");
	sn_attr_jid(&ar, nt, "from", p->a->pn, "s.whatsapp.net", 0);
	sn_attr(&ar, nt, "type", "mediaretry");
	sn_attr(&ar, nt, "id", id);
	snprintf(t, sizeof(t), "%lld", (long long)time(NULL));
	sn_attr(&ar, nt, "t", t);
	copy_rmr(&ar, sn_child(&ar, nt, "rmr"), n);
	if (m != NULL && (rc = wa_crypto_hkdf(NULL, 0, m->media_key, 32,
	    (const uint8_t *)RETRY_INFO, strlen(RETRY_INFO), key,
	    sizeof(key))) == 0 && (rc = retry_open(n, key, id)) == 0) {
		b = sim_media_again(s, m->blob);
		rc = retry_seal(&ar, nt, key, id, b->path);
	}
	wa_crypto_wipe(key, sizeof(key));
	if (rc != 0)
		sn_attr(&ar, sn_child(&ar, nt, "error"), "code", m == NULL ?
		    "2" : "3");
	else
		/* The sent and the read rows of the message move with it. */
		for (m = s->media_msgs; m != NULL; m = m->next) {
			if (strcmp(m->id, id) != 0 || m->blob == NULL)
				continue;
			m->blob = b;
			snprintf(m->direct_path, sizeof(m->direct_path), "%s",
			    b->path);
			m->retries++;
		}
	(void)sim_route_queue(s, SIM_ROUTE_NOTIFICATION, id, "mediaretry",
	    "s.whatsapp.net", p->a, dev, false, "", nt);
	arena_release(&ar);
	sim_log(s, "phone %s: media retry %s from device %u: %s", p->a->pn,
	    id, dev, rc == 0 ? "uploaded again" : wc_strerror(rc));
}

/* --- GET /admin/media and the routes --- */

static void
add_hash(struct json_object *o, const char *key, const uint8_t h[32])
{
	char	 hex[65];

	sim_hex(h, 32, hex);
	json_object_object_add(o, key, json_object_new_string(hex));
}

struct json_object *
sim_media_msg_json(const struct sim_media_msg *m)
{
	struct json_object	*o = json_object_new_object();

#define STR(k, v)	json_object_object_add(o, k, json_object_new_string(v))
#define NUM(k, v)	json_object_object_add(o, k, \
			    json_object_new_int64((int64_t)(v)))
	NUM("seq", m->seq);
	STR("dir", m->received ? "received" : "sent");
	STR("id", m->id);
	STR("from", m->from);
	STR("to", m->to);
	STR("type", m->t->name);
	STR("mediatype", mediatype_of(m));
	if (m->received) {
		STR("stanza_type", m->stanza_type);
		STR("stanza_mediatype", m->stanza_mediatype);
	}
	STR("mimetype", m->mimetype);
	STR("caption", m->caption);
	if (m->t->msg == 7)
		STR("file_name", m->file_name);
	NUM("length", m->length);
	NUM("width", m->width);
	NUM("height", m->height);
	NUM("seconds", m->seconds);
	NUM("pages", m->pages);
	json_object_object_add(o, "ptt", json_object_new_boolean(m->ptt));
	json_object_object_add(o, "gif", json_object_new_boolean(m->gif));
	NUM("thumbnail_bytes", m->thumb_len);
	NUM("waveform_bytes", m->waveform_len);
	STR("direct_path", m->direct_path);
	add_hash(o, "file_sha256", m->file_sha256);
	add_hash(o, "file_enc_sha256", m->file_enc_sha256);
	NUM("retries", m->retries);
	if (m->received) {
		json_object_object_add(o, "ok",
		    json_object_new_boolean(m->err == 0));
		if (m->err != 0)
			STR("error", m->why != NULL ? m->why :
			    wc_strerror(m->err));
		else {
			add_hash(o, "decrypted_sha256", m->got_sha256);
			NUM("decrypted_bytes", m->got_len);
		}
	}
#undef STR
#undef NUM
	return o;
}

static int
media_get(struct sim *s, struct buf *out)
{
	struct json_object	*o = json_object_new_object();
	struct json_object	*msgs = json_object_new_array();
	struct json_object	*blobs = json_object_new_array();
	const struct sim_media_msg	*m;
	const struct sim_blob	*b;

	json_object_object_add(o, "uploads",
	    json_object_new_int64((int64_t)s->media_uploads));
	json_object_object_add(o, "uploads_refused",
	    json_object_new_int64((int64_t)s->media_upload_refused));
	json_object_object_add(o, "downloads",
	    json_object_new_int64((int64_t)s->media_downloads));
	json_object_object_add(o, "not_found",
	    json_object_new_int64((int64_t)s->media_404));
	json_object_object_add(o, "auth_ttl",
	    json_object_new_int64(s->media_auth_ttl));
	json_object_object_add(o, "max_bytes",
	    json_object_new_int64((int64_t)s->media_max_bytes));
	json_object_object_add(o, "upload_delay_ms",
	    json_object_new_int64((int64_t)s->media_up_delay_ms));
	for (m = s->media_msgs; m != NULL; m = m->next)
		json_object_array_add(msgs, sim_media_msg_json(m));
	for (b = s->blobs; b != NULL; b = b->next)
		if (strcmp(b->kind, "media") == 0 ||
		    strcmp(b->kind, "upload") == 0)
			json_object_array_add(blobs, sim_media_blob_json(b));
	json_object_object_add(o, "messages", msgs);
	json_object_object_add(o, "blobs", blobs);
	return sim_json_reply(out, o, 200);
}

/* POST media/expire {path | id, code 404 (default) or 410}. */
static int
media_expire(struct sim *s, struct json_object *in, struct buf *out)
{
	const char		*path = sim_json_str(in, "path");
	const char		*id = sim_json_str(in, "id");
	struct sim_media_msg	*m;
	struct sim_blob		*b = NULL;
	int64_t			 code = 404;

	if (sim_json_num(in, "code", &code) < 0 || (code != 404 &&
	    code != 410))
		return sim_json_error(out, 400, "code: 404 or 410");
	if (path != NULL)
		b = sim_media_find(s, path);
	else if (id != NULL && (m = msg_by_id(s, id)) != NULL)
		b = m->blob;
	if (b == NULL)
		return sim_json_error(out, 404, "no such blob (give path or "
		    "the id of a media message)");
	b->gone = true;
	b->gone_code = (unsigned)code;
	return sim_json_reply(out, sim_media_blob_json(b), 200);
}

/* POST media/settings {auth_ttl s, max_bytes, upload_delay_ms}. */
static int
media_settings(struct sim *s, struct json_object *in, struct buf *out)
{
	int64_t	 v;
	int	 rc;

	if ((rc = sim_json_num(in, "auth_ttl", &v)) < 0 || (rc == 1 &&
	    (v < 0 || v > 86400 * 30)))
		return sim_json_error(out, 400, "auth_ttl: 0-2592000 s");
	if (rc == 1)
		s->media_auth_ttl = (unsigned)v;
	if ((rc = sim_json_num(in, "max_bytes", &v)) < 0 || (rc == 1 &&
	    (v < 1 || v > (int64_t)1 << 32)))
		return sim_json_error(out, 400, "max_bytes: 1-4294967296");
	if (rc == 1)
		s->media_max_bytes = (uint64_t)v;
	if ((rc = sim_json_num(in, "upload_delay_ms", &v)) < 0 || (rc == 1 &&
	    (v < 0 || v > 600000)))
		return sim_json_error(out, 400, "upload_delay_ms: 0-600000");
	if (rc == 1)
		s->media_up_delay_ms = (unsigned)v;
	return media_get(s, out);
}

int
sim_media_admin(struct sim *s, const char *path, struct json_object *in,
    bool post, struct buf *out)
{
	if (strcmp(path, "media") == 0 && !post)
		return media_get(s, out);
	if (!post || strncmp(path, "media/", 6) != 0)
		return 0;
	if (strcmp(path + 6, "send") == 0)
		return media_send(s, in, out);
	if (strcmp(path + 6, "expire") == 0)
		return media_expire(s, in, out);
	if (strcmp(path + 6, "settings") == 0)
		return media_settings(s, in, out);
	return 0;
}
