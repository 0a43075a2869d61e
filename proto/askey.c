/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto/askey.c -- app-state sync keys in a Message (proto/askey.h). */
#include "base/compat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "proto/askey.h"
#include "proto/e2e.pb-c.h"
#include "proto/pb.h"

static void
set_why(const char **why, const char *s)
{
	if (why != NULL)
		*why = s;
}

/* p[0..len) as a Message holding a protocolMessage of type type. */
static int
unpack(const uint8_t *p, size_t len, struct arena *a, int32_t type,
    Wae2e__Message__ProtocolMessage **out, const char **why)
{
	ProtobufCMessage	*pm;
	Wae2e__Message		*m;
	int			 rc;

	if ((rc = wa_pb_unpack_in(&wae2e__message__descriptor, p, len, a,
	    &pm)) != 0) {
		set_why(why, "the Message is not well-formed protobuf");
		return rc;
	}
	m = (Wae2e__Message *)pm;
	if (m->protocolmessage == NULL || !m->protocolmessage->has_type ||
	    m->protocolmessage->type != type) {
		set_why(why, "Message holds no protocolMessage of that type");
		return WC_EPROTO;
	}
	*out = m->protocolmessage;
	return 0;
}

static bool
id_ok(const Wae2e__Message__AppStateSyncKeyId *k)
{
	return k != NULL && k->has_keyid && k->keyid.len > 0 &&
	    k->keyid.len <= WA_ASKEY_ID_MAX;
}

/* The fingerprint of d packed again into a (NULL when absent or too
 * long: it is informative only). */
static void
take_fp(const Wae2e__Message__AppStateSyncKeyData *d, struct arena *a,
    struct wa_askey *k)
{
	size_t	 n;
	uint8_t	*p;

	if (d->fingerprint == NULL)
		return;
	n = protobuf_c_message_get_packed_size(&d->fingerprint->base);
	if (n == 0 || n > WA_ASKEY_FP_MAX)
		return;
	p = arena_alloc(a, n);
	k->fp_len = protobuf_c_message_pack(&d->fingerprint->base, p);
	k->fp = p;
}

int
wa_askey_share_parse(const uint8_t *p, size_t len, struct arena *a,
    struct wa_askey_share *out, const char **why)
{
	Wae2e__Message__ProtocolMessage		*pm;
	Wae2e__Message__AppStateSyncKeyShare	*ks;
	struct wa_askey				*keys;
	size_t			 i, n = 0;
	int			 rc;

	if (p == NULL || a == NULL || out == NULL)
		return -EINVAL;
	if ((rc = unpack(p, len, a, WA_ASKEY_PROTO_SHARE, &pm, why)) != 0)
		return rc;
	if ((ks = pm->appstatesynckeyshare) == NULL || ks->n_keys == 0) {
		set_why(why, "protocolMessage type 6 without keys");
		return WC_EPROTO;
	}
	if (ks->n_keys > WA_ASKEY_MAX) {
		set_why(why, "a key share of more keys than wachat takes");
		return WC_ETOOBIG;
	}
	keys = arena_alloc(a, ks->n_keys * sizeof(*keys));
	for (i = 0; i < ks->n_keys; i++) {
		const Wae2e__Message__AppStateSyncKey *k = ks->keys[i];
		const Wae2e__Message__AppStateSyncKeyData *d = k->keydata;

		if (!id_ok(k->keyid) || d == NULL || !d->has_keydata ||
		    d->keydata.len == 0 || d->keydata.len > WA_ASKEY_DATA_MAX)
			continue;	/* unusable: skipped */
		memset(&keys[n], 0, sizeof(keys[n]));
		keys[n].id = k->keyid->keyid.data;
		keys[n].id_len = k->keyid->keyid.len;
		keys[n].data = d->keydata.data;
		keys[n].data_len = d->keydata.len;
		keys[n].ts = d->has_timestamp ? d->timestamp : 0;
		take_fp(d, a, &keys[n]);
		n++;
	}
	if (n == 0) {
		set_why(why, "a key share without a usable key");
		return WC_EPROTO;
	}
	out->keys = keys;
	out->n = n;
	return 0;
}

int
wa_askey_share_build(const struct wa_askey *keys, size_t n, struct buf *out)
{
	Wae2e__Message				 m;
	Wae2e__Message__ProtocolMessage		 pm;
	Wae2e__Message__AppStateSyncKeyShare	 ks;
	Wae2e__Message__AppStateSyncKey		 k[WA_ASKEY_MAX];
	Wae2e__Message__AppStateSyncKey		*kp[WA_ASKEY_MAX];
	Wae2e__Message__AppStateSyncKeyId	 id[WA_ASKEY_MAX];
	Wae2e__Message__AppStateSyncKeyData	 d[WA_ASKEY_MAX];
	size_t					 i;

	if (keys == NULL || out == NULL || n == 0 || n > WA_ASKEY_MAX)
		return -EINVAL;
	wae2e__message__init(&m);
	wae2e__message__protocol_message__init(&pm);
	wae2e__message__app_state_sync_key_share__init(&ks);
	for (i = 0; i < n; i++) {
		if (keys[i].id_len == 0 || keys[i].id_len > WA_ASKEY_ID_MAX ||
		    keys[i].data_len == 0 ||
		    keys[i].data_len > WA_ASKEY_DATA_MAX)
			return -EINVAL;
		wae2e__message__app_state_sync_key__init(&k[i]);
		wae2e__message__app_state_sync_key_id__init(&id[i]);
		wae2e__message__app_state_sync_key_data__init(&d[i]);
		id[i].has_keyid = 1;
		id[i].keyid.data = (uint8_t *)(uintptr_t)keys[i].id;
		id[i].keyid.len = keys[i].id_len;
		d[i].has_keydata = 1;
		d[i].keydata.data = (uint8_t *)(uintptr_t)keys[i].data;
		d[i].keydata.len = keys[i].data_len;
		d[i].has_timestamp = 1;
		d[i].timestamp = keys[i].ts;
		k[i].keyid = &id[i];
		k[i].keydata = &d[i];
		kp[i] = &k[i];
	}
	ks.n_keys = n;
	ks.keys = kp;
	pm.has_type = 1;
	pm.type = WA_ASKEY_PROTO_SHARE;
	pm.appstatesynckeyshare = &ks;
	m.protocolmessage = &pm;
	wa_pb_pack_append(&m.base, out);
	return 0;
}

int
wa_askey_request(const uint8_t *const *ids, const size_t *lens, size_t n,
    struct buf *out)
{
	Wae2e__Message				 m;
	Wae2e__Message__ProtocolMessage		 pm;
	Wae2e__Message__AppStateSyncKeyRequest	 kr;
	Wae2e__Message__AppStateSyncKeyId	 id[WA_ASKEY_MAX];
	Wae2e__Message__AppStateSyncKeyId	*ip[WA_ASKEY_MAX];
	size_t					 i;

	if (ids == NULL || lens == NULL || out == NULL || n == 0 ||
	    n > WA_ASKEY_MAX)
		return -EINVAL;
	wae2e__message__init(&m);
	wae2e__message__protocol_message__init(&pm);
	wae2e__message__app_state_sync_key_request__init(&kr);
	for (i = 0; i < n; i++) {
		if (ids[i] == NULL || lens[i] == 0 ||
		    lens[i] > WA_ASKEY_ID_MAX)
			return -EINVAL;
		wae2e__message__app_state_sync_key_id__init(&id[i]);
		id[i].has_keyid = 1;
		id[i].keyid.data = (uint8_t *)(uintptr_t)ids[i];
		id[i].keyid.len = lens[i];
		ip[i] = &id[i];
	}
	kr.n_keyids = n;
	kr.keyids = ip;
	pm.has_type = 1;
	pm.type = WA_ASKEY_PROTO_REQUEST;
	pm.appstatesynckeyrequest = &kr;
	m.protocolmessage = &pm;
	wa_pb_pack_append(&m.base, out);
	return 0;
}

int
wa_askey_request_parse(const uint8_t *p, size_t len, struct arena *a,
    const uint8_t **ids, size_t *lens, size_t max, const char **why)
{
	Wae2e__Message__ProtocolMessage		*pm;
	Wae2e__Message__AppStateSyncKeyRequest	*kr;
	size_t			 i, n = 0;
	int			 rc;

	if (p == NULL || a == NULL || ids == NULL || lens == NULL || max == 0)
		return -EINVAL;
	if ((rc = unpack(p, len, a, WA_ASKEY_PROTO_REQUEST, &pm, why)) != 0)
		return rc;
	if ((kr = pm->appstatesynckeyrequest) == NULL) {
		set_why(why, "protocolMessage type 7 without a request");
		return WC_EPROTO;
	}
	if (kr->n_keyids > WA_ASKEY_MAX) {
		set_why(why, "a key request of more ids than wachat takes");
		return WC_ETOOBIG;
	}
	for (i = 0; i < kr->n_keyids && n < max; i++) {
		if (!id_ok(kr->keyids[i]))
			continue;
		ids[n] = kr->keyids[i]->keyid.data;
		lens[n] = kr->keyids[i]->keyid.len;
		n++;
	}
	if (n == 0) {
		set_why(why, "a key request without a usable key id");
		return WC_EPROTO;
	}
	return (int)n;
}
