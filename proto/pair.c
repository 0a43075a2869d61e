/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/pair.c -- the check of pair-success's device identity and the
 * device signature (proto/pair.h; protocol.md 6.4, following [WM]
 * pair.go handlePair where the sources disagree on hosted accounts).
 */
#include "base/compat.h"

#include <stdbool.h>
#include <string.h>

#include "adv.pb-c.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/pair.h"
#include "proto/pb.h"

static bool
ct_equal(const uint8_t *a, const uint8_t *b, size_t len)
{
	uint8_t	 d = 0;
	size_t	 i;

	for (i = 0; i < len; i++)
		d |= (uint8_t)(a[i] ^ b[i]);
	return d == 0;
}

int
wa_pair_verify(const uint8_t adv_secret[WA_PAIR_KEY_LEN],
    const uint8_t identity_priv[WA_PAIR_KEY_LEN],
    const uint8_t identity_pub[WA_PAIR_KEY_LEN], const uint8_t *p,
    size_t len, const uint8_t random[WA_CRYPTO_SIG_RANDOM_LEN],
    struct buf *full, struct buf *reply,
    uint8_t account_key[WA_PAIR_KEY_LEN], uint32_t *key_index)
{
	ProtobufCMessage		*mc = NULL, *ma = NULL, *md = NULL;
	Wa__ADVSignedDeviceIdentityHMAC	*c;
	Wa__ADVSignedDeviceIdentity	*a;
	Wa__ADVDeviceIdentity		*d;
	ProtobufCBinaryData		 old_sig;
	protobuf_c_boolean		 old_has;
	uint8_t				 mac[WA_CRYPTO_HASH_LEN];
	uint8_t				 sig[WA_CRYPTO_SIG_LEN];
	struct buf			 msg = BUF_INIT;
	int				 rc;

	if ((rc = wa_pb_unpack(&wa__advsigned_device_identity_hmac__descriptor,
	    p, len, &mc)) != 0)
		return WC_EPROTO;
	c = (Wa__ADVSignedDeviceIdentityHMAC *)mc;
	rc = WC_EPROTO;
	if (!c->has_details || !c->has_hmac || c->hmac.len != sizeof(mac))
		goto out;
	/* Step 2: HMAC-SHA256(adv_secret, [06 05 if hosted] || details). */
	if (c->has_accounttype &&
	    c->accounttype == WA__ADVENCRYPTION_TYPE__HOSTED)
		buf_append(&msg, "\x06\x05", 2);
	buf_append(&msg, c->details.data, c->details.len);
	wa_crypto_hmac_sha256(adv_secret, WA_PAIR_KEY_LEN, msg.p,
	    msg.len, mac);
	if (!ct_equal(mac, c->hmac.data, sizeof(mac))) {
		rc = WC_EBADMAC;
		goto out;
	}
	/* Step 3. */
	if (wa_pb_unpack(&wa__advsigned_device_identity__descriptor,
	    c->details.data, c->details.len, &ma) != 0)
		goto out;
	a = (Wa__ADVSignedDeviceIdentity *)ma;
	if (!a->has_details || wa_pb_unpack(&wa__advdevice_identity__descriptor,
	    a->details.data, a->details.len, &md) != 0)
		goto out;
	d = (Wa__ADVDeviceIdentity *)md;
	/* Step 4: account signature over prefix || details || identity_pub;
	 * prefix 06 05 for a hosted device ([WM]'s reading), else 06 00. */
	if (!a->has_accountsignaturekey || a->accountsignaturekey.len != 32 ||
	    !a->has_accountsignature || a->accountsignature.len != 64)
		goto out;
	msg.len = 0;
	buf_append(&msg, d->has_devicetype && d->devicetype ==
	    WA__ADVENCRYPTION_TYPE__HOSTED ? "\x06\x05" : "\x06\x00", 2);
	buf_append(&msg, a->details.data, a->details.len);
	buf_append(&msg, identity_pub, WA_PAIR_KEY_LEN);
	if (wa_crypto_xeddsa_verify(a->accountsignaturekey.data, msg.p,
	    msg.len, a->accountsignature.data) != 0) {
		rc = WC_EBADSIG;
		goto out;
	}
	/* Step 5: device signature over 06 01 || details || identity_pub ||
	 * accountSignatureKey. */
	msg.len = 0;
	buf_append(&msg, "\x06\x01", 2);
	buf_append(&msg, a->details.data, a->details.len);
	buf_append(&msg, identity_pub, WA_PAIR_KEY_LEN);
	buf_append(&msg, a->accountsignaturekey.data, 32);
	if ((rc = wa_crypto_xeddsa_sign(identity_priv, msg.p, msg.len, random,
	    sig)) != 0)
		goto out;
	memcpy(account_key, a->accountsignaturekey.data, WA_PAIR_KEY_LEN);
	old_sig = a->devicesignature;
	old_has = a->has_devicesignature;
	a->has_devicesignature = 1;
	a->devicesignature.data = sig;
	a->devicesignature.len = sizeof(sig);
	/* Step 6: keep the whole A; step 8: reply without the account key. */
	buf_reserve(full, protobuf_c_message_get_packed_size(ma));
	full->len += protobuf_c_message_pack(ma, full->p + full->len);
	a->has_accountsignaturekey = 0;
	buf_reserve(reply, protobuf_c_message_get_packed_size(ma));
	reply->len += protobuf_c_message_pack(ma, reply->p + reply->len);
	a->has_accountsignaturekey = 1;
	a->devicesignature = old_sig;
	a->has_devicesignature = old_has;
	*key_index = d->has_keyindex ? d->keyindex : 0;
	rc = 0;
out:
	buf_release(&msg);
	if (md != NULL)
		protobuf_c_message_free_unpacked(md, NULL);
	if (ma != NULL)
		protobuf_c_message_free_unpacked(ma, NULL);
	protobuf_c_message_free_unpacked(mc, NULL);
	return rc;
}
