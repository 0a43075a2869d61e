/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/appstate-parse.c -- the app-state protobufs read from the network
 * (SyncdPatch, SyncdSnapshot, SyncdMutations, ExternalBlobReference;
 * protocol-features.md 2.4) and the index JSON (2.1), for
 * proto/appstate.h.  Every protobuf is depth-checked (wa_pb_check) before
 * protobuf-c unpacks it into the caller's arena; every record's sizes are
 * checked here so that apply and the hash never see a short one.
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#include "base/err.h"
#include "proto/appstate-int.h"

#define BLOBREF_MAX_LEN	(64u << 10)

static int
record_take(const Waas__SyncdRecord *r, int op, struct wa_as_record *out)
{
	if (r == NULL || r->index == NULL || !r->index->has_blob ||
	    r->value == NULL || !r->value->has_blob || r->keyid == NULL ||
	    !r->keyid->has_id)
		return WC_EPROTO;
	if (r->index->blob.len != WA_AS_MAC_LEN ||
	    r->value->blob.len < WA_AS_VALUE_MIN_LEN ||
	    r->value->blob.len > WA_AS_VALUE_MAX_LEN ||
	    (r->value->blob.len - WA_AS_MAC_LEN) % AS_BLOCK != 0 ||
	    r->keyid->id.len == 0 || r->keyid->id.len > WA_AS_KEY_ID_MAX)
		return WC_EPROTO;
	out->op = op;
	out->index_mac = r->index->blob.data;
	out->value = r->value->blob.data;
	out->value_len = r->value->blob.len;
	out->key_id = r->keyid->id.data;
	out->key_id_len = r->keyid->id.len;
	return 0;
}

static int
mutations_take(struct arena *a, Waas__SyncdMutation *const *m, size_t n,
    struct wa_as_record **records, size_t *n_out)
{
	struct wa_as_record	*r;
	size_t			 i;
	int			 rc;

	if (n > WA_AS_MAX_PATCH_RECORDS)
		return WC_ETOOBIG;
	r = arena_alloc(a, (n ? n : 1) * sizeof(*r));
	for (i = 0; i < n; i++) {
		int	 op = m[i]->has_operation ? m[i]->operation : WA_AS_SET;

		if (op != WA_AS_SET && op != WA_AS_REMOVE)
			return WC_EPROTO;
		if ((rc = record_take(m[i]->record, op, &r[i])) != 0)
			return rc;
	}
	*records = r;
	*n_out = n;
	return 0;
}

static int
key_id_take(const Waas__KeyId *k, const uint8_t **id, size_t *len)
{
	if (k == NULL || !k->has_id || k->id.len == 0 ||
	    k->id.len > WA_AS_KEY_ID_MAX)
		return WC_EPROTO;
	*id = k->id.data;
	*len = k->id.len;
	return 0;
}

static void
blobref_take(struct arena *a, const Waas__ExternalBlobReference *b,
    struct wa_as_blobref *out)
{
	memset(out, 0, sizeof(*out));
	if (b->has_mediakey) {
		out->media_key = b->mediakey.data;
		out->media_key_len = b->mediakey.len;
	}
	if (b->directpath != NULL)
		out->direct_path = as_strndup(a, b->directpath,
		    strlen(b->directpath));
	if (b->handle != NULL)
		out->handle = as_strndup(a, b->handle, strlen(b->handle));
	out->size = b->has_filesizebytes ? b->filesizebytes : 0;
	if (b->has_filesha256) {
		out->sha256 = b->filesha256.data;
		out->sha256_len = b->filesha256.len;
	}
	if (b->has_fileencsha256) {
		out->enc_sha256 = b->fileencsha256.data;
		out->enc_sha256_len = b->fileencsha256.len;
	}
}

int
wa_as_patch_parse(struct arena *a, const uint8_t *p, size_t len,
    struct wa_as_patch *out)
{
	ProtobufCMessage	*m;
	Waas__SyncdPatch	*sp;
	struct wa_as_patch	 r;
	int			 rc;

	if (len > WA_AS_MAX_BLOB_LEN)
		return WC_ETOOBIG;
	if ((rc = as_pb_unpack(a, &waas__syncd_patch__descriptor, p, len,
	    &m)) != 0)
		return rc;
	sp = (Waas__SyncdPatch *)m;
	memset(&r, 0, sizeof(r));
	if (sp->version != NULL && sp->version->has_version) {
		r.has_version = true;
		r.version = sp->version->version;
	}
	if ((rc = key_id_take(sp->keyid, &r.key_id, &r.key_id_len)) != 0)
		return rc;
	if (sp->has_snapshotmac != sp->has_patchmac)
		return WC_EPROTO;
	if (sp->has_snapshotmac) {
		if (sp->snapshotmac.len != WA_AS_MAC_LEN ||
		    sp->patchmac.len != WA_AS_MAC_LEN)
			return WC_EPROTO;
		memcpy(r.snapshot_mac, sp->snapshotmac.data, WA_AS_MAC_LEN);
		memcpy(r.patch_mac, sp->patchmac.data, WA_AS_MAC_LEN);
		r.has_macs = true;
	}
	if ((rc = mutations_take(a, sp->mutations, sp->n_mutations,
	    &r.records, &r.n_records)) != 0)
		return rc;
	if (sp->externalmutations != NULL) {
		r.external = arena_alloc(a, sizeof(*r.external));
		blobref_take(a, sp->externalmutations, r.external);
	}
	if (sp->exitcode != NULL) {
		r.has_exit_code = true;
		r.exit_code = sp->exitcode->has_code &&
		    sp->exitcode->code <= UINT32_MAX ?
		    (uint32_t)sp->exitcode->code : UINT32_MAX;
		if (sp->exitcode->text != NULL)
			r.exit_text = as_strndup(a, sp->exitcode->text,
			    strlen(sp->exitcode->text));
	}
	if (sp->has_deviceindex) {
		r.has_device_index = true;
		r.device_index = sp->deviceindex;
	}
	*out = r;
	return 0;
}

int
wa_as_snapshot_parse(struct arena *a, const uint8_t *p, size_t len,
    struct wa_as_snapshot *out)
{
	ProtobufCMessage	*m;
	Waas__SyncdSnapshot	*ss;
	struct wa_as_snapshot	 r;
	size_t			 i;
	int			 rc;

	if (len > WA_AS_MAX_BLOB_LEN)
		return WC_ETOOBIG;
	if ((rc = as_pb_unpack(a, &waas__syncd_snapshot__descriptor, p, len,
	    &m)) != 0)
		return rc;
	ss = (Waas__SyncdSnapshot *)m;
	memset(&r, 0, sizeof(r));
	if (ss->version == NULL || !ss->version->has_version ||
	    !ss->has_mac || ss->mac.len != WA_AS_MAC_LEN)
		return WC_EPROTO;
	r.version = ss->version->version;
	memcpy(r.mac, ss->mac.data, WA_AS_MAC_LEN);
	if ((rc = key_id_take(ss->keyid, &r.key_id, &r.key_id_len)) != 0)
		return rc;
	if (ss->n_records > WA_AS_MAX_SNAPSHOT_RECORDS)
		return WC_ETOOBIG;
	r.records = arena_alloc(a, (ss->n_records ? ss->n_records : 1) *
	    sizeof(*r.records));
	for (i = 0; i < ss->n_records; i++)
		if ((rc = record_take(ss->records[i], WA_AS_SET,
		    &r.records[i])) != 0)
			return rc;
	r.n_records = ss->n_records;
	*out = r;
	return 0;
}

int
wa_as_mutations_parse(struct arena *a, const uint8_t *p, size_t len,
    struct wa_as_record **records, size_t *n)
{
	ProtobufCMessage	*m;
	Waas__SyncdMutations	*sm;
	int			 rc;

	if (len > WA_AS_MAX_BLOB_LEN)
		return WC_ETOOBIG;
	if ((rc = as_pb_unpack(a, &waas__syncd_mutations__descriptor, p, len,
	    &m)) != 0)
		return rc;
	sm = (Waas__SyncdMutations *)m;
	return mutations_take(a, sm->mutations, sm->n_mutations, records, n);
}

int
wa_as_blobref_parse(struct arena *a, const uint8_t *p, size_t len,
    struct wa_as_blobref *out)
{
	ProtobufCMessage	*m;
	int			 rc;

	if (len > BLOBREF_MAX_LEN)
		return WC_ETOOBIG;
	if ((rc = as_pb_unpack(a, &waas__external_blob_reference__descriptor,
	    p, len, &m)) != 0)
		return rc;
	blobref_take(a, (Waas__ExternalBlobReference *)m, out);
	return 0;
}

/* ---- The index JSON ---- */

static int
hex4(const char *s, uint32_t *v)
{
	int	 i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char	 c = s[i];
		uint32_t d;

		if (c >= '0' && c <= '9')
			d = (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (uint32_t)(c - 'A' + 10);
		else
			return -1;
		*v = *v << 4 | d;
	}
	return 0;
}

static size_t
utf8_put(uint32_t cp, char *o)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A \u escape at s[*i] (after the backslash and 'u'), a surrogate pair
 * joined; the code point in *cp. */
static int
unicode_escape(const char *s, size_t len, size_t *i, uint32_t *cp)
{
	uint32_t	 lo;

	if (len - *i < 4 || hex4(s + *i, cp) != 0)
		return WC_EPROTO;
	*i += 4;
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return WC_EPROTO;
	if (*cp >= 0xd800 && *cp <= 0xdbff) {
		if (len - *i < 6 || s[*i] != '\\' || s[*i + 1] != 'u' ||
		    hex4(s + *i + 2, &lo) != 0 || lo < 0xdc00 || lo > 0xdfff)
			return WC_EPROTO;
		*i += 6;
		*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	return *cp == 0 ? WC_EPROTO : 0;
}

/* One string at s[*i] (its opening quote), decoded into o (room for
 * len + 1 bytes: a decoded string is never longer than its JSON). */
static int
json_string(const char *s, size_t len, size_t *i, char *o, size_t *o_len)
{
	size_t	 k = 0;
	int	 rc;

	if (*i >= len || s[*i] != '"')
		return (*i < len && (s[*i] == '[' || s[*i] == '{')) ?
		    WC_EDEPTH : WC_EPROTO;
	++*i;
	while (*i < len && s[*i] != '"') {
		unsigned char	 c = (unsigned char)s[*i];
		uint32_t	 cp;

		if (c < 0x20)
			return WC_EPROTO;
		if (c != '\\') {
			o[k++] = (char)c;
			++*i;
			continue;
		}
		if (++*i >= len)
			return WC_EPROTO;
		switch (s[(*i)++]) {
		case '"': o[k++] = '"'; break;
		case '\\': o[k++] = '\\'; break;
		case '/': o[k++] = '/'; break;
		case 'b': o[k++] = '\b'; break;
		case 'f': o[k++] = '\f'; break;
		case 'n': o[k++] = '\n'; break;
		case 'r': o[k++] = '\r'; break;
		case 't': o[k++] = '\t'; break;
		case 'u':
			if ((rc = unicode_escape(s, len, i, &cp)) != 0)
				return rc;
			k += utf8_put(cp, o + k);
			break;
		default:
			return WC_EPROTO;
		}
	}
	if (*i >= len)
		return WC_EPROTO;
	++*i;	/* the closing quote */
	if (!as_utf8_ok((const uint8_t *)o, k))
		return WC_EPROTO;
	o[k] = '\0';
	*o_len = k;
	return 0;
}

int
wa_as_index_parse(struct arena *a, const char *json, size_t len,
    char ***parts, size_t *n)
{
	char		*v[WA_AS_INDEX_MAX_PARTS];
	char		 tmp[WA_AS_INDEX_MAX_LEN + 1];
	size_t		 i = 1, k = 0, olen;
	char		**out;
	int		 rc;

	if (len > WA_AS_INDEX_MAX_LEN)
		return WC_ETOOBIG;
	if (len < 2 || json[0] != '[')
		return (len > 0 && json[0] == '{') ? WC_EDEPTH : WC_EPROTO;
	if (json[1] == ']') {
		if (len != 2)
			return WC_EPROTO;
	} else {
		for (;;) {
			if (k == WA_AS_INDEX_MAX_PARTS)
				return WC_ETOOBIG;
			/* Decoded on the stack, then only its own length
			 * into the arena. */
			if ((rc = json_string(json, len, &i, tmp, &olen)) != 0)
				return rc;
			v[k++] = as_strndup(a, tmp, olen);
			if (i < len && json[i] == ',') {
				i++;
				continue;
			}
			if (i + 1 == len && json[i] == ']')
				break;
			return WC_EPROTO;
		}
	}
	out = arena_alloc(a, (k ? k : 1) * sizeof(*out));
	memcpy(out, v, k * sizeof(*out));
	*parts = out;
	*n = k;
	return 0;
}

int
wa_as_index_encode(const char *const *parts, size_t n, struct buf *out)
{
	static const char	 hex[] = "0123456789abcdef";
	size_t			 start = out->len, i, j;

	if (n > WA_AS_INDEX_MAX_PARTS)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (parts[i] == NULL || !as_utf8_ok((const uint8_t *)parts[i],
		    strlen(parts[i])))
			return -EINVAL;
	buf_push(out, '[');
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_push(out, ',');
		buf_push(out, '"');
		for (j = 0; parts[i][j] != '\0'; j++) {
			unsigned char	 c = (unsigned char)parts[i][j];
			const char	*e = NULL;

			switch (c) {
			case '"': e = "\\\""; break;
			case '\\': e = "\\\\"; break;
			case '\b': e = "\\b"; break;
			case '\f': e = "\\f"; break;
			case '\n': e = "\\n"; break;
			case '\r': e = "\\r"; break;
			case '\t': e = "\\t"; break;
			default: break;
			}
			if (e != NULL)
				buf_append(out, e, strlen(e));
			else if (c < 0x20) {
				char	 u[6] = { '\\', 'u', '0', '0',
				    hex[c >> 4], hex[c & 15] };

				buf_append(out, u, sizeof(u));
			} else
				buf_push(out, c);
		}
		buf_push(out, '"');
	}
	buf_push(out, ']');
	if (out->len - start > WA_AS_INDEX_MAX_LEN) {
		out->len = start;
		return -EINVAL;
	}
	return 0;
}
