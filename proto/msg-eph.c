/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/msg-eph.c -- disappearing messages in the Message protobuf
 * (proto/msg.h; protocol-features.md 3.5): the EPHEMERAL_SETTING
 * protocolMessage read and built, the timer a content message carries
 * (contextInfo.expiration 25, ephemeralSettingTimestamp 26) read, and
 * set on our own before they are sent, as Baileys'
 * generateWAMessageFromContent does when it is given the chat's timer.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "proto/msg-int.h"
#include "proto/pb.h"

#define PT_EPHEMERAL	WAE2E__MESSAGE__PROTOCOL_MESSAGE__TYPE__EPHEMERAL_SETTING

/* The contextInfo slot of the content message m holds, or NULL (a
 * protocol message, a reaction, nothing we know). */
static Wae2e__ContextInfo **
ci_slot(Wae2e__Message *m)
{
#define SLOT(f)	if (m->f != NULL) return &m->f->contextinfo
	SLOT(extendedtextmessage);
	SLOT(imagemessage);
	SLOT(videomessage);
	SLOT(ptvmessage);
	SLOT(audiomessage);
	SLOT(documentmessage);
	SLOT(stickermessage);
	SLOT(locationmessage);
	SLOT(livelocationmessage);
	SLOT(contactmessage);
	SLOT(contactsarraymessage);
#undef SLOT
	return NULL;
}

void
wa_msg_eph_of(const Wae2e__Message *m, struct wa_msg_content *c)
{
	const Wae2e__Message__ProtocolMessage	*pm = m->protocolmessage;
	Wae2e__ContextInfo			**slot;
	const Wae2e__ContextInfo		*ci;

	if (pm != NULL) {
		if (!pm->has_type || pm->type != PT_EPHEMERAL)
			return;
		c->eph = WA_MSG_EPH_SETTING;
		c->eph_secs = pm->has_ephemeralexpiration ?
		    pm->ephemeralexpiration : 0;
		c->eph_ts = pm->has_ephemeralsettingtimestamp &&
		    pm->ephemeralsettingtimestamp > 0 ?
		    pm->ephemeralsettingtimestamp : 0;
		return;
	}
	/* a cast for the slot's type only: nothing is written */
	slot = ci_slot((Wae2e__Message *)(uintptr_t)m);
	if (slot == NULL || (ci = *slot) == NULL || !ci->has_expiration)
		return;
	c->eph = WA_MSG_EPH_CONTENT;
	c->eph_secs = ci->expiration;
	c->eph_ts = ci->has_ephemeralsettingtimestamp &&
	    ci->ephemeralsettingtimestamp > 0 ?
	    ci->ephemeralsettingtimestamp : 0;
}

int
wa_msg_build_ephemeral(uint32_t secs, int64_t ts_s, struct buf *out)
{
	Wae2e__Message			 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__ProtocolMessage	 pm =
	    WAE2E__MESSAGE__PROTOCOL_MESSAGE__INIT;
	Wae2e__DisappearingMode		 dm = WAE2E__DISAPPEARING_MODE__INIT;
	size_t				 n;

	if (out == NULL || ts_s < 0)
		return -EINVAL;
	pm.has_type = 1;
	pm.type = PT_EPHEMERAL;
	pm.has_ephemeralexpiration = 1;
	pm.ephemeralexpiration = secs;
	pm.has_ephemeralsettingtimestamp = 1;
	pm.ephemeralsettingtimestamp = ts_s;
	/* initiator CHANGED_IN_CHAT (0), trigger UNKNOWN (0): [WM], [RS] */
	dm.has_initiator = 1;
	dm.has_trigger = 1;
	pm.disappearingmode = &dm;
	m.protocolmessage = &pm;
	n = protobuf_c_message_get_packed_size(&m.base);
	buf_reserve(out, n);
	out->len += protobuf_c_message_pack(&m.base, out->p + out->len);
	return 0;
}

/* Pack m, with ci as the content's context info, onto out. */
static void
pack_with(Wae2e__Message *m, Wae2e__ContextInfo **slot,
    Wae2e__ContextInfo *ci, struct buf *out)
{
	Wae2e__ContextInfo	*had = *slot;
	size_t			 n;

	*slot = ci;
	n = protobuf_c_message_get_packed_size(&m->base);
	buf_reserve(out, n);
	out->len += protobuf_c_message_pack(&m->base, out->p + out->len);
	*slot = had;
}

/* Set the expiration on ci (a copy of the content's, or a new one) and
 * pack m with it. */
static void
pack_expiring(Wae2e__Message *m, Wae2e__ContextInfo **slot, uint32_t secs,
    int64_t ts_s, struct buf *out)
{
	Wae2e__ContextInfo	 ci = WAE2E__CONTEXT_INFO__INIT;

	if (*slot != NULL)
		ci = **slot;	/* shallow: its fields stay the message's */
	ci.has_expiration = 1;
	ci.expiration = secs;
	ci.has_ephemeralsettingtimestamp = ts_s > 0;
	ci.ephemeralsettingtimestamp = ts_s;
	pack_with(m, slot, &ci, out);
}

int
wa_msg_set_expiration(const uint8_t *p, size_t len, uint32_t secs,
    int64_t ts_s, struct buf *out)
{
	Wae2e__Message__ExtendedTextMessage x =
	    WAE2E__MESSAGE__EXTENDED_TEXT_MESSAGE__INIT;
	ProtobufCMessage	*pm;
	Wae2e__Message		*m;
	Wae2e__ContextInfo	**slot;
	int			 rc;

	if (out == NULL || (p == NULL && len > 0) || secs == 0)
		return -EINVAL;
	if ((rc = wa_pb_unpack(&wae2e__message__descriptor, p, len, &pm)) != 0)
		return rc;
	m = (Wae2e__Message *)pm;
	if (m->conversation != NULL && m->extendedtextmessage == NULL) {
		/* a plain text cannot carry context info: as extended
		 * text ([BL] does the same for a forward, 3.7) */
		char	*text = m->conversation;

		x.text = text;
		m->conversation = NULL;
		m->extendedtextmessage = &x;
		pack_expiring(m, &x.contextinfo, secs, ts_s, out);
		m->extendedtextmessage = NULL;
		m->conversation = text;
		rc = 1;
	} else if ((slot = ci_slot(m)) != NULL) {
		pack_expiring(m, slot, secs, ts_s, out);
		rc = 1;
	} else {
		buf_append(out, p, len);	/* not a content message */
		rc = 0;
	}
	protobuf_c_message_free_unpacked(pm, NULL);
	return rc;
}

bool
wa_msg_is_eph_setting(const uint8_t *p, size_t len)
{
	ProtobufCMessage	*pm;
	const Wae2e__Message	*m;
	bool			 yes;

	if ((p == NULL && len > 0) ||
	    wa_pb_unpack(&wae2e__message__descriptor, p, len, &pm) != 0)
		return false;
	m = (const Wae2e__Message *)pm;
	yes = m->protocolmessage != NULL && m->protocolmessage->has_type &&
	    m->protocolmessage->type == PT_EPHEMERAL;
	protobuf_c_message_free_unpacked(pm, NULL);
	return yes;
}
