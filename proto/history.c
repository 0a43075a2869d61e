/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/history.c -- the protocol layer of history sync (proto/history.h;
 * protocol.md 12): the notification, the zlib stream, the HistorySync
 * protobuf and the on-demand request.  Sections of protocol.md are named
 * where each fact is used.
 */
#include "base/compat.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "base/arena.h"
#include "base/buf.h"
#include "e2e.pb-c.h"
#include "base/err.h"
#include "proto/history.h"
#include "history.pb-c.h"
#include "proto/pb.h"
#include "base/xmalloc.h"

#define HASH_LEN	32	/* fileSHA256, fileEncSHA256, mediaKey */

/* --- protobuf-c and zlib over an arena --- */

static voidpf
z_arena_alloc(voidpf opaque, uInt items, uInt size)
{
	if (size != 0 && items > SIZE_MAX / size)
		return Z_NULL;
	return arena_alloc(opaque, (size_t)items * size);
}

static void
z_arena_free(voidpf opaque, voidpf p)
{
	(void)opaque;
	(void)p;
}

static void
set_why(const char **why, const char *w)
{
	if (why != NULL)
		*why = w;
}

/* Pack m and append it to out. */
/* Whether s (may be NULL) is at most max bytes long. */
static bool
str_ok(const char *s, size_t max)
{
	return s == NULL || strnlen(s, max + 1) <= max;
}

/* --- the notification (12.1) --- */

/* wa_pb_check(), then unpack a wahist Message into a; its protocolMessage
 * of the given type, or NULL with *why set. */
static int
unpack_protocol(const uint8_t *p, size_t len, struct arena *a, int32_t type,
    Wahist__ProtocolMessage **out, const char **why)
{
	ProtobufCMessage	*pm;
	Wahist__Message		*m;
	int			 rc;

	if ((rc = wa_pb_unpack_in(&wahist__message__descriptor, p, len, a,
	    &pm)) != 0) {
		set_why(why, "the Message is not well-formed protobuf");
		return rc;
	}
	m = (Wahist__Message *)pm;
	if (m->protocolmessage == NULL || !m->protocolmessage->has_type ||
	    m->protocolmessage->type != type) {
		set_why(why, "Message holds no protocolMessage of that type");
		return WC_EPROTO;
	}
	*out = m->protocolmessage;
	return 0;
}

/* A bytes field that must be HASH_LEN long when present. */
static int
hash_field(protobuf_c_boolean has, const ProtobufCBinaryData *b,
    const uint8_t **out)
{
	if (!has) {
		*out = NULL;
		return 0;
	}
	if (b->len != HASH_LEN)
		return WC_EPROTO;
	*out = b->data;
	return 0;
}

int
wa_hist_notification_parse(const uint8_t *p, size_t len, struct arena *a,
    struct wa_hist_notif *out, const char **why)
{
	Wahist__ProtocolMessage			*pm;
	Wahist__HistorySyncNotification		*n;
	struct wa_hist_notif			 r;
	int					 rc;

	if ((rc = unpack_protocol(p, len, a, WA_HIST_PROTO_NOTIF, &pm,
	    why)) != 0)
		return rc;
	if ((n = pm->historysyncnotification) == NULL) {
		set_why(why, "protocolMessage type 5 without a notification");
		return WC_EPROTO;
	}
	memset(&r, 0, sizeof(r));
	if (hash_field(n->has_filesha256, &n->filesha256, &r.file_sha256) ||
	    hash_field(n->has_fileencsha256, &n->fileencsha256,
	    &r.file_enc_sha256) ||
	    hash_field(n->has_mediakey, &n->mediakey, &r.media_key)) {
		set_why(why, "a notification hash or key is not 32 bytes");
		return WC_EPROTO;
	}
	if (!str_ok(n->directpath, WA_HIST_MAX_DIRECT_PATH) ||
	    !str_ok(n->originalmessageid, WA_HIST_MAX_STR) ||
	    !str_ok(n->peerdatarequestsessionid, WA_HIST_MAX_STR) ||
	    !str_ok(n->enchandle, WA_HIST_MAX_STR)) {
		set_why(why, "a notification string is over its cap");
		return WC_ETOOBIG;
	}
	if (n->has_initialhistbootstrapinlinepayload) {
		if (n->initialhistbootstrapinlinepayload.len >
		    WA_HIST_MAX_INLINE) {
			set_why(why, "inline history payload is over its cap");
			return WC_ETOOBIG;
		}
		r.inline_payload = n->initialhistbootstrapinlinepayload.data;
		r.inline_payload_len = n->initialhistbootstrapinlinepayload.len;
	}
	/* 12.2: the inline payload, or what a download needs. */
	if (r.inline_payload == NULL && (n->directpath == NULL ||
	    r.media_key == NULL || r.file_enc_sha256 == NULL)) {
		set_why(why, "notification has neither an inline payload nor "
		    "directPath, mediaKey and fileEncSHA256");
		return WC_EPROTO;
	}
	r.file_length = n->has_filelength ? n->filelength : 0;
	r.direct_path = n->directpath;
	r.sync_type = n->has_synctype ? n->synctype : -1;
	r.chunk_order = n->has_chunkorder ? n->chunkorder : 0;
	r.progress = n->has_progress ? n->progress : 0;
	r.oldest_msg_ts_s = n->has_oldestmsginchunktimestampsec ?
	    n->oldestmsginchunktimestampsec : 0;
	r.original_msg_id = n->originalmessageid;
	r.peer_data_request_session_id = n->peerdatarequestsessionid;
	r.enc_handle = n->enchandle;
	*out = r;
	return 0;
}

/* The bytes field b = p[0..len), present when p is not NULL. */
static void
set_bytes(protobuf_c_boolean *has, ProtobufCBinaryData *b, const uint8_t *p,
    size_t len)
{
	if (p == NULL)
		return;
	*has = 1;
	b->data = (uint8_t *)(uintptr_t)p;
	b->len = len;
}

int
wa_hist_notification_build(const struct wa_hist_notif *n, struct buf *out)
{
	Wahist__Message				 m = WAHIST__MESSAGE__INIT;
	Wahist__ProtocolMessage			 pm =
	    WAHIST__PROTOCOL_MESSAGE__INIT;
	Wahist__HistorySyncNotification		 hn =
	    WAHIST__HISTORY_SYNC_NOTIFICATION__INIT;

	if (n == NULL)
		return -EINVAL;
	set_bytes(&hn.has_filesha256, &hn.filesha256, n->file_sha256,
	    HASH_LEN);
	set_bytes(&hn.has_fileencsha256, &hn.fileencsha256,
	    n->file_enc_sha256, HASH_LEN);
	set_bytes(&hn.has_mediakey, &hn.mediakey, n->media_key, HASH_LEN);
	set_bytes(&hn.has_initialhistbootstrapinlinepayload,
	    &hn.initialhistbootstrapinlinepayload, n->inline_payload,
	    n->inline_payload_len);
	hn.has_filelength = n->file_length != 0;
	hn.filelength = n->file_length;
	hn.directpath = (char *)(uintptr_t)n->direct_path;
	hn.has_synctype = 1;
	hn.synctype = n->sync_type;
	hn.has_chunkorder = 1;
	hn.chunkorder = n->chunk_order;
	hn.has_progress = 1;
	hn.progress = n->progress;
	hn.has_oldestmsginchunktimestampsec = n->oldest_msg_ts_s != 0;
	hn.oldestmsginchunktimestampsec = n->oldest_msg_ts_s;
	hn.originalmessageid = (char *)(uintptr_t)n->original_msg_id;
	hn.peerdatarequestsessionid =
	    (char *)(uintptr_t)n->peer_data_request_session_id;
	hn.enchandle = (char *)(uintptr_t)n->enc_handle;
	pm.has_type = 1;
	pm.type = WA_HIST_PROTO_NOTIF;
	pm.historysyncnotification = &hn;
	m.protocolmessage = &pm;
	wa_pb_pack_append(&m.base, out);
	return 0;
}

/* --- the blob (12.2) --- */

#ifdef HAVE_LIBDEFLATE
/*
 * The fast path (perf.md 5.5: libdeflate inflates whole buffers 2.4 times
 * faster than zlib): decompress into room bytes after out->len, room
 * doubling from 8 times len up to lim while the output does not fit.
 * Returns 0 with *produced, WC_ETOOBIG at lim, or WC_EINFLATE for any bad
 * data (the caller then asks zlib, which tells truncation apart).  One
 * malloc per call (libdeflate 1.14 takes no allocator per decompressor).
 */
static int
inflate_fast(const uint8_t *p, size_t len, size_t lim, struct buf *out,
    size_t *produced)
{
	struct libdeflate_decompressor	*d;
	enum libdeflate_result		 r;
	size_t				 room, in_used;

	if ((d = libdeflate_alloc_decompressor()) == NULL)
		return WC_EINFLATE;
	room = len < SIZE_MAX / 8 ? len * 8 : len;
	if (room < 65536)
		room = 65536;
	if (room > lim)
		room = lim;
	for (;;) {
		buf_reserve(out, room);
		r = libdeflate_zlib_decompress_ex(d, p, len, out->p + out->len,
		    room, &in_used, produced);
		if (r != LIBDEFLATE_INSUFFICIENT_SPACE || room >= lim)
			break;
		room = room < lim / 2 ? room * 2 : lim;
	}
	libdeflate_free_decompressor(d);
	if (r == LIBDEFLATE_SUCCESS)
		return *produced < lim ? 0 : WC_ETOOBIG;
	return r == LIBDEFLATE_INSUFFICIENT_SPACE ? WC_ETOOBIG : WC_EINFLATE;
}
#endif

int
wa_hist_inflate(const uint8_t *p, size_t len, size_t max_out,
    struct arena *a, struct buf *out, const char **why)
{
	z_stream	 zs;
	size_t		 start = out->len, room, lim, produced = 0;
	const char	*w = NULL;
	int		 rc = 0, zrc;

	if (max_out == 0)
		max_out = WA_HIST_MAX_INFLATED;
	if (len > UINT_MAX) {
		set_why(why, "compressed history blob is over 4 GiB");
		return WC_ETOOBIG;
	}
	/* One byte past the cap tells "exactly max_out" from "more". */
	lim = max_out < SIZE_MAX - start - 1 ? max_out + 1 : max_out;
	room = len < SIZE_MAX / 4 ? len * 4 : len;
	if (room < 65536)
		room = 65536;
	if (room > lim)
		room = lim;
#ifdef HAVE_LIBDEFLATE
	if ((rc = inflate_fast(p, len, lim, out, &produced)) == 0) {
		out->len = start + produced;
		return 0;
	}
	if (rc == WC_ETOOBIG) {
		set_why(why, "inflated history would be over the cap (refused "
		    "before allocating more)");
		return rc;
	}
	/* Bad data: zlib below says what is wrong with it. */
	rc = 0;
	produced = 0;
#endif
	memset(&zs, 0, sizeof(zs));
	if (a != NULL) {
		zs.zalloc = z_arena_alloc;
		zs.zfree = z_arena_free;
		zs.opaque = a;
	}
	if (inflateInit(&zs) != Z_OK) {
		set_why(why, "zlib could not start (out of memory)");
		return WC_EINFLATE;
	}
	zs.next_in = (Bytef *)(uintptr_t)p;
	zs.avail_in = (uInt)len;
	for (;;) {
		size_t	 avail;

		buf_reserve(out, room);
		avail = room - produced;
		if (avail > UINT_MAX)
			avail = UINT_MAX;
		zs.next_out = out->p + start + produced;
		zs.avail_out = (uInt)avail;
		/* Z_FINISH: when the stream ends in this call, zlib keeps no
		 * sliding window (no 32 KiB allocation). */
		zrc = inflate(&zs, Z_FINISH);
		produced += avail - zs.avail_out;
		if (zrc == Z_STREAM_END) {
			if (produced > max_out) {
				w = "inflated history is over the cap";
				rc = WC_ETOOBIG;
			}
			break;
		}
		if (zrc == Z_OK || zrc == Z_BUF_ERROR) {
			if (produced == room) {
				if (room >= lim) {
					w = "inflated history would be over "
					    "the cap (refused before "
					    "allocating more)";
					rc = WC_ETOOBIG;
					break;
				}
				room = room < lim / 2 ? room * 2 : lim;
				continue;
			}
			if (zs.avail_out == 0)
				continue;	/* the uInt slice is full */
			if (zs.avail_in == 0) {
				w = "compressed history ends early";
				rc = WC_ETRUNC;
				break;
			}
		}
		w = zrc == Z_DATA_ERROR ?
		    "history blob is not a valid zlib stream" :
		    zrc == Z_NEED_DICT ?
		    "history blob wants a preset dictionary" :
		    "zlib failed (out of memory)";
		rc = WC_EINFLATE;
		break;
	}
	inflateEnd(&zs);
	if (rc != 0) {
		set_why(why, w);
		return rc;
	}
	out->len = start + produced;
	return 0;
}

int
wa_hist_deflate(const uint8_t *p, size_t len, int level, struct buf *out)
{
	z_stream	 zs;
	size_t		 bound;
	int		 zrc;

	if (level < -1 || level > 9 || len > UINT_MAX)
		return -EINVAL;
	memset(&zs, 0, sizeof(zs));
	if (deflateInit(&zs, level) != Z_OK)
		return WC_EINFLATE;
	bound = deflateBound(&zs, (uLong)len);
	buf_reserve(out, bound);
	zs.next_in = (Bytef *)(uintptr_t)p;
	zs.avail_in = (uInt)len;
	zs.next_out = out->p + out->len;
	zs.avail_out = (uInt)bound;
	zrc = deflate(&zs, Z_FINISH);
	if (zrc == Z_STREAM_END)
		out->len += zs.total_out;
	deflateEnd(&zs);
	return zrc == Z_STREAM_END ? 0 : WC_EINFLATE;
}

/* --- the HistorySync protobuf (12.3) --- */

/* Flatten one WebMessageInfo into *m.  Returns 0, 1 to skip it (no key
 * id), or an error with *w set. */
static int
flat_msg(const Wahist__HistorySyncMsg *hm, struct wa_hist_msg *m,
    const char **w)
{
	const Wahist__WebMessageInfo	*wi = hm->message;
	const Wahist__Key		*k;
	size_t				 i;

	if (wi == NULL || (k = wi->key) == NULL || k->id == NULL)
		return 1;	/* skip */
	if (!str_ok(k->remotejid, WA_HIST_MAX_STR) ||
	    !str_ok(k->id, WA_HIST_MAX_STR) ||
	    !str_ok(k->participant, WA_HIST_MAX_STR) ||
	    !str_ok(wi->participant, WA_HIST_MAX_STR) ||
	    !str_ok(wi->pushname, WA_HIST_MAX_STR)) {
		*w = "a history message key or name is over its cap";
		return WC_ETOOBIG;
	}
	for (i = 0; i < wi->n_messagestubparameters; i++)
		if (!str_ok(wi->messagestubparameters[i], WA_HIST_MAX_STR)) {
			*w = "a history stub parameter is over its cap";
			return WC_ETOOBIG;
		}
	memset(m, 0, sizeof(*m));
	m->remote_jid = k->remotejid;
	m->from_me = k->has_fromme && k->fromme;
	m->id = k->id;
	m->key_participant = k->participant;
	if (wi->has_message) {
		if (wi->message.len > WA_HIST_MAX_MSG_LEN) {
			*w = "a history message is over its cap";
			return WC_ETOOBIG;
		}
		/* The E2E bytes are parsed later by wa_msg_parse(), which
		 * checks them again; checking here lets the store count a
		 * message it will not show instead of failing later. */
		m->message_err = wa_pb_check(&wae2e__message__descriptor,
		    wi->message.data, wi->message.len, WA_PB_MAX_DEPTH);
		if (m->message_err == 0) {
			m->message = wi->message.data;
			m->message_len = wi->message.len;
		}
	}
	m->ts_s = wi->has_messagetimestamp ? wi->messagetimestamp : 0;
	m->status = wi->has_status ? wi->status : -1;
	m->participant = wi->participant;
	m->push_name = wi->pushname;
	m->stub_type = wi->has_messagestubtype ? wi->messagestubtype : 0;
	m->stub_params = (const char *const *)wi->messagestubparameters;
	m->n_stub_params = wi->n_messagestubparameters;
	m->starred = wi->has_starred && wi->starred;
	m->msg_order_id = hm->has_msgorderid ? hm->msgorderid : 0;
	return 0;
}

/* Flatten conversation c into *v, its arrays in a. */
/* The privacy token fields of c into v (15.6). */
static void
flat_tokens(const Wahist__Conversation *c, struct wa_hist_conv *v)
{
	if (c->has_tctoken) {
		v->tc_token = c->tctoken.data;
		v->tc_token_len = c->tctoken.len;
	}
	v->tc_token_ts_s = c->has_tctokentimestamp ? c->tctokentimestamp : 0;
	v->tc_token_sender_ts_s = c->has_tctokensendertimestamp ?
	    c->tctokensendertimestamp : 0;
}

static int
flat_conv(const Wahist__Conversation *c, struct arena *a,
    struct wa_hist_conv *v, size_t *n_bad, const char **w)
{
	size_t	 i;
	int	 rc;

	if (!str_ok(c->id, WA_HIST_MAX_STR) ||
	    !str_ok(c->name, WA_HIST_MAX_STR) ||
	    !str_ok(c->displayname, WA_HIST_MAX_STR) ||
	    !str_ok(c->pnjid, WA_HIST_MAX_STR) ||
	    !str_ok(c->lidjid, WA_HIST_MAX_STR) ||
	    (c->has_tctoken && c->tctoken.len > WA_HIST_MAX_STR)) {
		*w = "a conversation id, name or token is over its cap";
		return WC_ETOOBIG;
	}
	if (c->n_messages > WA_HIST_MAX_CONV_MSGS) {
		*w = "a conversation holds more messages than the cap";
		return WC_ETOOBIG;
	}
	if (c->n_participant > WA_HIST_MAX_PARTICIPANTS) {
		*w = "a conversation lists more participants than the cap";
		return WC_ETOOBIG;
	}
	memset(v, 0, sizeof(*v));
	v->id = c->id;
	v->name = c->name;
	v->display_name = c->displayname;
	v->pn_jid = c->pnjid;
	v->lid_jid = c->lidjid;
	v->last_msg_ts_s = c->has_lastmsgtimestamp ? c->lastmsgtimestamp : 0;
	v->conversation_ts_s = c->has_conversationtimestamp ?
	    c->conversationtimestamp : 0;
	v->unread_count = c->has_unreadcount ? c->unreadcount : 0;
	v->archived = c->has_archived && c->archived;
	v->marked_as_unread = c->has_markedasunread && c->markedasunread;
	v->read_only = c->has_readonly && c->readonly;
	v->end_of_history = c->has_endofhistorytransfer &&
	    c->endofhistorytransfer;
	v->pinned = c->has_pinned ? c->pinned : 0;
	v->mute_end_s = c->has_muteendtime ? c->muteendtime : 0;
	v->ephemeral_s = c->has_ephemeralexpiration ? c->ephemeralexpiration :
	    0;
	v->ephemeral_ts_s = c->has_ephemeralsettingtimestamp &&
	    c->ephemeralsettingtimestamp > 0 ? c->ephemeralsettingtimestamp : 0;
	flat_tokens(c, v);
	v->msgs = arena_alloc(a, c->n_messages * sizeof(*v->msgs));
	for (i = 0; i < c->n_messages; i++) {
		struct wa_hist_msg	*m = &v->msgs[v->n_msgs];

		if ((rc = flat_msg(c->messages[i], m, w)) < 0)
			return rc;
		if (rc > 0)
			continue;
		if (m->message_err != 0)
			(*n_bad)++;
		v->n_msgs++;
	}
	v->participants = arena_alloc(a,
	    c->n_participant * sizeof(*v->participants));
	for (i = 0; i < c->n_participant; i++) {
		const Wahist__GroupParticipant	*gp = c->participant[i];

		if (gp->userjid == NULL)
			continue;
		if (!str_ok(gp->userjid, WA_HIST_MAX_STR)) {
			*w = "a participant JID is over its cap";
			return WC_ETOOBIG;
		}
		v->participants[v->n_participants].jid = gp->userjid;
		v->participants[v->n_participants].rank =
		    gp->has_rank ? gp->rank : 0;
		v->n_participants++;
	}
	return 0;
}

/* The lists at the end of a HistorySync: pushnames and PN-LID pairs. */
static int
flat_names(const Wahist__HistorySync *hs, struct arena *a, struct wa_hist *h,
    const char **w)
{
	size_t	 i;

	h->pushnames = arena_alloc(a, hs->n_pushnames * sizeof(*h->pushnames));
	for (i = 0; i < hs->n_pushnames; i++) {
		const Wahist__Pushname	*pn = hs->pushnames[i];

		if (pn->id == NULL)
			continue;
		if (!str_ok(pn->id, WA_HIST_MAX_STR) ||
		    !str_ok(pn->pushname, WA_HIST_MAX_STR)) {
			*w = "a push name is over its cap";
			return WC_ETOOBIG;
		}
		h->pushnames[h->n_pushnames].jid = pn->id;
		h->pushnames[h->n_pushnames++].name = pn->pushname;
	}
	h->lid_maps = arena_alloc(a,
	    hs->n_phonenumbertolidmappings * sizeof(*h->lid_maps));
	for (i = 0; i < hs->n_phonenumbertolidmappings; i++) {
		const Wahist__PhoneNumberToLidMapping *lm =
		    hs->phonenumbertolidmappings[i];

		if (lm->pnjid == NULL || lm->lidjid == NULL)
			continue;
		if (!str_ok(lm->pnjid, WA_HIST_MAX_STR) ||
		    !str_ok(lm->lidjid, WA_HIST_MAX_STR)) {
			*w = "a PN-LID mapping is over its cap";
			return WC_ETOOBIG;
		}
		h->lid_maps[h->n_lid_maps].pn_jid = lm->pnjid;
		h->lid_maps[h->n_lid_maps++].lid_jid = lm->lidjid;
	}
	return 0;
}

int
wa_hist_parse(const uint8_t *p, size_t len, struct arena *a,
    struct wa_hist **out, const char **why)
{
	ProtobufCAllocator	 al;
	Wahist__HistorySync	*hs;
	struct wa_hist		*h;
	const char		*w = NULL;
	size_t			 i, total = 0;
	int			 rc;

	wa_pb_arena_allocator(a, &al);
	if ((rc = wa_pb_check(&wahist__history_sync__descriptor, p, len,
	    WA_PB_MAX_DEPTH)) != 0) {
		set_why(why, rc == WC_EDEPTH ?
		    "HistorySync is nested deeper than the decoder's cap" :
		    "HistorySync is not well-formed protobuf");
		return rc;
	}
	if ((hs = wahist__history_sync__unpack(&al, len, p)) == NULL) {
		set_why(why, "protobuf-c refused the HistorySync");
		return WC_EPROTO;
	}
	if (hs->n_conversations > WA_HIST_MAX_CONVS ||
	    hs->n_pushnames > WA_HIST_MAX_PUSHNAMES ||
	    hs->n_phonenumbertolidmappings > WA_HIST_MAX_LID_MAPS) {
		set_why(why, "HistorySync lists more conversations, push names "
		    "or mappings than the caps");
		return WC_ETOOBIG;
	}
	for (i = 0; i < hs->n_conversations; i++)
		total += hs->conversations[i]->n_messages;
	if (total > WA_HIST_MAX_MSGS) {
		set_why(why, "HistorySync holds more messages than the cap");
		return WC_ETOOBIG;
	}
	h = arena_alloc(a, sizeof(*h));
	memset(h, 0, sizeof(*h));
	h->sync_type = hs->has_synctype ? hs->synctype : -1;
	h->chunk_order = hs->has_chunkorder ? hs->chunkorder : 0;
	h->progress = hs->has_progress ? hs->progress : 0;
	if (hs->has_nctsalt && hs->nctsalt.len > 0 &&
	    hs->nctsalt.len <= WA_HIST_MAX_STR) {
		h->nct_salt = hs->nctsalt.data;
		h->nct_salt_len = hs->nctsalt.len;
	}
	h->convs = arena_alloc(a, hs->n_conversations * sizeof(*h->convs));
	for (i = 0; i < hs->n_conversations; i++) {
		struct wa_hist_conv	*v = &h->convs[h->n_convs];

		if (hs->conversations[i]->id == NULL)
			continue;
		if ((rc = flat_conv(hs->conversations[i], a, v,
		    &h->n_bad_msgs, &w)) != 0) {
			set_why(why, w);
			return rc;
		}
		h->n_msgs += v->n_msgs;
		h->n_convs++;
	}
	if ((rc = flat_names(hs, a, h, &w)) != 0) {
		set_why(why, w);
		return rc;
	}
	*out = h;
	return 0;
}

/* Build scratch: the protobuf-c structs of one HistorySync in arena s. */
static Wahist__HistorySyncMsg *
build_msg(const struct wa_hist_msg *m, struct arena *s)
{
	Wahist__HistorySyncMsg	*hm = arena_alloc(s, sizeof(*hm));
	Wahist__WebMessageInfo	*wi = arena_alloc(s, sizeof(*wi));
	Wahist__Key		*k = arena_alloc(s, sizeof(*k));

	wahist__history_sync_msg__init(hm);
	wahist__web_message_info__init(wi);
	wahist__key__init(k);
	k->remotejid = (char *)(uintptr_t)m->remote_jid;
	k->has_fromme = 1;
	k->fromme = m->from_me;
	k->id = (char *)(uintptr_t)m->id;
	k->participant = (char *)(uintptr_t)m->key_participant;
	wi->key = k;
	set_bytes(&wi->has_message, &wi->message, m->message, m->message_len);
	wi->has_messagetimestamp = m->ts_s != 0;
	wi->messagetimestamp = m->ts_s;
	wi->has_status = m->status >= 0;
	wi->status = m->status;
	wi->participant = (char *)(uintptr_t)m->participant;
	wi->pushname = (char *)(uintptr_t)m->push_name;
	wi->has_messagestubtype = m->stub_type != 0;
	wi->messagestubtype = m->stub_type;
	wi->n_messagestubparameters = m->n_stub_params;
	wi->messagestubparameters = (char **)(uintptr_t)m->stub_params;
	wi->has_starred = m->starred;
	wi->starred = m->starred;
	hm->message = wi;
	hm->has_msgorderid = m->msg_order_id != 0;
	hm->msgorderid = m->msg_order_id;
	return hm;
}

static Wahist__Conversation *
build_conv(const struct wa_hist_conv *v, struct arena *s)
{
	Wahist__Conversation	*c = arena_alloc(s, sizeof(*c));
	size_t			 i;

	wahist__conversation__init(c);
	c->id = (char *)(uintptr_t)v->id;
	c->name = (char *)(uintptr_t)v->name;
	c->displayname = (char *)(uintptr_t)v->display_name;
	c->pnjid = (char *)(uintptr_t)v->pn_jid;
	c->lidjid = (char *)(uintptr_t)v->lid_jid;
#define OPT(f, val) do {		\
	c->has_##f = (val) != 0;	\
	c->f = (val);			\
} while (0)
	OPT(lastmsgtimestamp, v->last_msg_ts_s);
	OPT(conversationtimestamp, v->conversation_ts_s);
	OPT(unreadcount, v->unread_count);
	OPT(archived, v->archived);
	OPT(markedasunread, v->marked_as_unread);
	OPT(readonly, v->read_only);
	OPT(endofhistorytransfer, v->end_of_history);
	OPT(pinned, v->pinned);
	OPT(muteendtime, v->mute_end_s);
	OPT(ephemeralexpiration, v->ephemeral_s);
	OPT(ephemeralsettingtimestamp, v->ephemeral_ts_s);
	OPT(tctokentimestamp, v->tc_token_ts_s);
	OPT(tctokensendertimestamp, v->tc_token_sender_ts_s);
#undef OPT
	set_bytes(&c->has_tctoken, &c->tctoken, v->tc_token, v->tc_token_len);
	c->n_messages = v->n_msgs;
	c->messages = arena_alloc(s, v->n_msgs * sizeof(*c->messages));
	for (i = 0; i < v->n_msgs; i++)
		c->messages[i] = build_msg(&v->msgs[i], s);
	c->n_participant = v->n_participants;
	c->participant = arena_alloc(s,
	    v->n_participants * sizeof(*c->participant));
	for (i = 0; i < v->n_participants; i++) {
		Wahist__GroupParticipant *gp = arena_alloc(s, sizeof(*gp));

		wahist__group_participant__init(gp);
		gp->userjid = (char *)(uintptr_t)v->participants[i].jid;
		gp->has_rank = v->participants[i].rank != 0;
		gp->rank = v->participants[i].rank;
		c->participant[i] = gp;
	}
	return c;
}

int
wa_hist_build(const struct wa_hist *h, struct buf *out)
{
	Wahist__HistorySync	 hs = WAHIST__HISTORY_SYNC__INIT;
	struct arena		 s;
	size_t			 i;

	if (h == NULL)
		return -EINVAL;
	arena_init(&s, 0);
	hs.has_synctype = h->sync_type >= 0;
	hs.synctype = h->sync_type;
	hs.has_chunkorder = 1;
	hs.chunkorder = h->chunk_order;
	hs.has_progress = 1;
	hs.progress = h->progress;
	hs.n_conversations = h->n_convs;
	hs.conversations = arena_alloc(&s, h->n_convs *
	    sizeof(*hs.conversations));
	for (i = 0; i < h->n_convs; i++)
		hs.conversations[i] = build_conv(&h->convs[i], &s);
	hs.n_pushnames = h->n_pushnames;
	hs.pushnames = arena_alloc(&s, h->n_pushnames * sizeof(*hs.pushnames));
	for (i = 0; i < h->n_pushnames; i++) {
		Wahist__Pushname	*pn = arena_alloc(&s, sizeof(*pn));

		wahist__pushname__init(pn);
		pn->id = (char *)(uintptr_t)h->pushnames[i].jid;
		pn->pushname = (char *)(uintptr_t)h->pushnames[i].name;
		hs.pushnames[i] = pn;
	}
	hs.n_phonenumbertolidmappings = h->n_lid_maps;
	hs.phonenumbertolidmappings = arena_alloc(&s, h->n_lid_maps *
	    sizeof(*hs.phonenumbertolidmappings));
	for (i = 0; i < h->n_lid_maps; i++) {
		Wahist__PhoneNumberToLidMapping	*lm =
		    arena_alloc(&s, sizeof(*lm));

		wahist__phone_number_to_lid_mapping__init(lm);
		lm->pnjid = (char *)(uintptr_t)h->lid_maps[i].pn_jid;
		lm->lidjid = (char *)(uintptr_t)h->lid_maps[i].lid_jid;
		hs.phonenumbertolidmappings[i] = lm;
	}
	set_bytes(&hs.has_nctsalt, &hs.nctsalt, h->nct_salt, h->nct_salt_len);
	wa_pb_pack_append(&hs.base, out);
	arena_release(&s);
	return 0;
}

/* --- on-demand requests (12.4) --- */

int
wa_hist_on_demand_request(const struct wa_hist_od_req *r, struct buf *out)
{
	Wahist__Message				 m = WAHIST__MESSAGE__INIT;
	Wahist__ProtocolMessage			 pm =
	    WAHIST__PROTOCOL_MESSAGE__INIT;
	Wahist__PeerDataOperationRequestMessage	 pdo =
	    WAHIST__PEER_DATA_OPERATION_REQUEST_MESSAGE__INIT;
	Wahist__HistorySyncOnDemandRequest	 od =
	    WAHIST__HISTORY_SYNC_ON_DEMAND_REQUEST__INIT;

	if (r == NULL || r->chat_jid == NULL || r->oldest_msg_id == NULL ||
	    r->count < 1)
		return -EINVAL;
	od.chatjid = (char *)(uintptr_t)r->chat_jid;
	od.oldestmsgid = (char *)(uintptr_t)r->oldest_msg_id;
	od.has_oldestmsgfromme = 1;
	od.oldestmsgfromme = r->oldest_from_me;
	od.has_ondemandmsgcount = 1;
	od.ondemandmsgcount = r->count;
	od.has_oldestmsgtimestampms = 1;
	od.oldestmsgtimestampms = r->oldest_ts_s;
	pdo.has_peerdataoperationrequesttype = 1;
	pdo.peerdataoperationrequesttype = WA_HIST_OD_TYPE;
	pdo.historysyncondemandrequest = &od;
	pm.has_type = 1;
	pm.type = WA_HIST_PROTO_PDO_REQ;
	pm.peerdataoperationrequestmessage = &pdo;
	m.protocolmessage = &pm;
	wa_pb_pack_append(&m.base, out);
	return 0;
}

int
wa_hist_on_demand_parse(const uint8_t *p, size_t len, struct arena *a,
    struct wa_hist_od_req *out, const char **why)
{
	Wahist__ProtocolMessage			*pm;
	Wahist__PeerDataOperationRequestMessage	*pdo;
	Wahist__HistorySyncOnDemandRequest	*od;
	int					 rc;

	if ((rc = unpack_protocol(p, len, a, WA_HIST_PROTO_PDO_REQ, &pm,
	    why)) != 0)
		return rc;
	if ((pdo = pm->peerdataoperationrequestmessage) == NULL ||
	    !pdo->has_peerdataoperationrequesttype ||
	    pdo->peerdataoperationrequesttype != WA_HIST_OD_TYPE ||
	    (od = pdo->historysyncondemandrequest) == NULL ||
	    od->chatjid == NULL || od->oldestmsgid == NULL) {
		set_why(why, "not a HISTORY_SYNC_ON_DEMAND request with a chat "
		    "and an oldest message id");
		return WC_EPROTO;
	}
	if (!str_ok(od->chatjid, WA_HIST_MAX_STR) ||
	    !str_ok(od->oldestmsgid, WA_HIST_MAX_STR)) {
		set_why(why, "an on-demand request string is over its cap");
		return WC_ETOOBIG;
	}
	out->chat_jid = od->chatjid;
	out->oldest_msg_id = od->oldestmsgid;
	out->oldest_from_me = od->has_oldestmsgfromme && od->oldestmsgfromme;
	out->count = od->has_ondemandmsgcount ? od->ondemandmsgcount : 0;
	out->oldest_ts_s = od->has_oldestmsgtimestampms ?
	    od->oldestmsgtimestampms : 0;
	return 0;
}
