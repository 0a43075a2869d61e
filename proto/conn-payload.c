/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/conn-payload.c -- the ClientPayload of a registration or a login
 * (protocol.md 3), see proto/conn.h.  Pure: no socket, no loop; any
 * thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "base/err.h"
#include "proto/conn.h"
#include "adv.pb-c.h"
#include "wa6.pb-c.h"


static int
parse_version(const char *v, uint32_t out[3])
{
	const char	*p = v != NULL ? v : WA_CONN_DEFAULT_VERSION;
	int		 i;

	for (i = 0; i < 3; i++) {
		unsigned long long	 n;
		char			*end;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		n = strtoull(p, &end, 10);
		if (errno != 0 || n > UINT32_MAX)
			return -EINVAL;
		out[i] = (uint32_t)n;
		if (i < 2 && *end != '.')
			return -EINVAL;
		if (i == 2 && *end != '\0')
			return -EINVAL;
		p = end + 1;
	}
	return 0;
}

/* The parts shared by registration and login (protocol.md 3.1, 3.3). */
struct common {
	Wa__ClientPayload__UserAgent__AppVersion	 av;
	Wa__ClientPayload__UserAgent			 ua;
	Wa__ClientPayload__WebInfo			 wi;
};

static void
common_init(struct common *k, Wa__ClientPayload *cp, const uint32_t v[3],
    const char *push_name)
{
	Wa__ClientPayload__UserAgent__AppVersion av =
	    WA__CLIENT_PAYLOAD__USER_AGENT__APP_VERSION__INIT;
	Wa__ClientPayload__UserAgent	 ua = WA__CLIENT_PAYLOAD__USER_AGENT__INIT;
	Wa__ClientPayload__WebInfo	 wi = WA__CLIENT_PAYLOAD__WEB_INFO__INIT;

	k->av = av;
	k->ua = ua;
	k->wi = wi;
	k->av.has_primary = k->av.has_secondary = k->av.has_tertiary = 1;
	k->av.primary = v[0];
	k->av.secondary = v[1];
	k->av.tertiary = v[2];
	k->ua.has_platform = 1;
	k->ua.platform = WA__CLIENT_PAYLOAD__USER_AGENT__PLATFORM__WEB;
	k->ua.appversion = &k->av;
	k->ua.mcc = (char *)"000";
	k->ua.mnc = (char *)"000";
	k->ua.osversion = (char *)"0.1";
	k->ua.manufacturer = (char *)"";
	k->ua.device = (char *)"Desktop";
	k->ua.osbuildnumber = (char *)"0.1";
	k->ua.has_releasechannel = 1;
	k->ua.releasechannel =
	    WA__CLIENT_PAYLOAD__USER_AGENT__RELEASE_CHANNEL__RELEASE;
	k->ua.localelanguageiso6391 = (char *)"en";
	k->ua.localecountryiso31661alpha2 = (char *)"US";
	k->wi.has_websubplatform = 1;
	k->wi.websubplatform =
	    WA__CLIENT_PAYLOAD__WEB_INFO__WEB_SUB_PLATFORM__WEB_BROWSER;
	cp->useragent = &k->ua;
	cp->webinfo = &k->wi;
	cp->has_connecttype = 1;
	cp->connecttype = WA__CLIENT_PAYLOAD__CONNECT_TYPE__WIFI_UNKNOWN;
	cp->has_connectreason = 1;
	cp->connectreason = WA__CLIENT_PAYLOAD__CONNECT_REASON__USER_ACTIVATED;
	if (push_name != NULL)
		cp->pushname = (char *)push_name;
}

/*
 * The history-sync support* flags and the thumbnail limit (protocol.md
 * 3.4): the union of what [WM] store/clientpayload.go and [RS]
 * wacore/src/store/device.rs send (fields 6-12, 14, 15, 21, 22 true;
 * thumbnailSyncDaysLimit 60, [WM]).
 */
static void
hist_support(Wa__DeviceProps__HistorySyncConfig *hs)
{
	hs->has_supportcallloghistory = hs->supportcallloghistory = 1;
	hs->has_supportbotuseragentchathistory = 1;
	hs->supportbotuseragentchathistory = 1;
	hs->has_supportcagreactionsandpolls = 1;
	hs->supportcagreactionsandpolls = 1;
	hs->has_supportbizhostedmsg = hs->supportbizhostedmsg = 1;
	hs->has_supportrecentsyncchunkmessagecounttuning = 1;
	hs->supportrecentsyncchunkmessagecounttuning = 1;
	hs->has_supporthostedgroupmsg = hs->supporthostedgroupmsg = 1;
	hs->has_supportfbidbotchathistory = 1;
	hs->supportfbidbotchathistory = 1;
	hs->has_supportmessageassociation = 1;
	hs->supportmessageassociation = 1;
	hs->has_supportgrouphistory = hs->supportgrouphistory = 1;
	hs->has_supportmanushistory = hs->supportmanushistory = 1;
	hs->has_supporthatchhistory = hs->supporthatchhistory = 1;
	hs->has_thumbnailsyncdayslimit = 1;
	hs->thumbnailsyncdayslimit = WA_CONN_THUMBNAIL_DAYS;
}

static void
pack_into(const ProtobufCMessage *m, struct buf *out)
{
	size_t	 n = protobuf_c_message_get_packed_size(m);

	buf_reserve(out, n);
	out->len += protobuf_c_message_pack(m, out->p + out->len);
}

static void
put_be(uint8_t *p, uint32_t v, int n)
{
	int	 i;

	for (i = n - 1; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

int
wa_conn_payload_reg(const char *version, const struct wa_conn_reg *r,
    const char *push_name, struct buf *out)
{
	Wa__ClientPayload				 cp =
	    WA__CLIENT_PAYLOAD__INIT;
	Wa__ClientPayload__DevicePairingRegistrationData d =
	    WA__CLIENT_PAYLOAD__DEVICE_PAIRING_REGISTRATION_DATA__INIT;
	Wa__DeviceProps					 dp =
	    WA__DEVICE_PROPS__INIT;
	Wa__DeviceProps__AppVersion			 dv =
	    WA__DEVICE_PROPS__APP_VERSION__INIT;
	Wa__DeviceProps__HistorySyncConfig		 hs =
	    WA__DEVICE_PROPS__HISTORY_SYNC_CONFIG__INIT;
	struct common					 k;
	struct buf					 props = BUF_INIT;
	uint8_t						 regid[4], skid[3];
	uint8_t						 keytype = 5;
	uint8_t						 md5[16];
	unsigned					 mdlen = 0;
	uint32_t					 v[3];
	const char					*vs = version != NULL ?
	    version : WA_CONN_DEFAULT_VERSION;

	if (parse_version(vs, v) != 0 || r->spk_id > 0xffffff)
		return -EINVAL;
	if (EVP_Digest(vs, strlen(vs), md5, &mdlen, EVP_md5(), NULL) != 1 ||
	    mdlen != sizeof(md5))
		return WC_ECRYPTO;
	common_init(&k, &cp, v, push_name);
	cp.has_passive = 1;
	cp.passive = 0;
	cp.has_pull = 1;
	cp.pull = 0;

	/* DeviceProps (protocol.md 3.4): a text-only client's history
	 * settings. */
	dv.has_primary = dv.has_secondary = dv.has_tertiary = 1;
	dv.primary = 0;
	dv.secondary = 1;
	dv.tertiary = 0;
	hs.has_storagequotamb = 1;
	hs.storagequotamb = 10240;
	hs.has_inlineinitialpayloadine2eemsg = 1;
	hs.inlineinitialpayloadine2eemsg = 1;
	hist_support(&hs);
	dp.os = (char *)(r->os != NULL ? r->os : "wachat");
	dp.version = &dv;
	dp.has_platformtype = 1;
	dp.platformtype = (Wa__DeviceProps__PlatformType)r->platform_type;
	dp.has_requirefullsync = 1;
	dp.requirefullsync = r->full_sync ? 1 : 0;
	dp.historysyncconfig = &hs;
	pack_into(&dp.base, &props);

	put_be(regid, r->reg_id, 4);
	put_be(skid, r->spk_id, 3);
	d.has_eregid = 1;
	d.eregid.data = regid;
	d.eregid.len = sizeof(regid);
	d.has_ekeytype = 1;
	d.ekeytype.data = &keytype;
	d.ekeytype.len = 1;
	d.has_eident = 1;
	d.eident.data = (uint8_t *)r->ident_pub;
	d.eident.len = WA_CONN_KEY_LEN;
	d.has_eskeyid = 1;
	d.eskeyid.data = skid;
	d.eskeyid.len = sizeof(skid);
	d.has_eskeyval = 1;
	d.eskeyval.data = (uint8_t *)r->spk_pub;
	d.eskeyval.len = WA_CONN_KEY_LEN;
	d.has_eskeysig = 1;
	d.eskeysig.data = (uint8_t *)r->spk_sig;
	d.eskeysig.len = sizeof(r->spk_sig);
	d.has_buildhash = 1;
	d.buildhash.data = md5;
	d.buildhash.len = sizeof(md5);
	d.has_deviceprops = 1;
	d.deviceprops.data = props.p;
	d.deviceprops.len = props.len;
	cp.devicepairingdata = &d;
	pack_into(&cp.base, out);
	buf_release(&props);
	return 0;
}

int
wa_conn_payload_login(const char *version, uint64_t pn, uint32_t device,
    const char *push_name, struct buf *out)
{
	Wa__ClientPayload	 cp = WA__CLIENT_PAYLOAD__INIT;
	struct common		 k;
	uint32_t		 v[3];

	if (parse_version(version, v) != 0 || pn == 0)
		return -EINVAL;
	common_init(&k, &cp, v, push_name);
	cp.has_username = 1;
	cp.username = pn;
	cp.has_device = 1;
	cp.device = device;
	cp.has_passive = 1;
	cp.passive = 1;
	cp.has_pull = 1;
	cp.pull = 1;
	cp.has_lc = 1;
	cp.lc = 1;
	cp.has_liddbmigrated = 1;
	cp.liddbmigrated = 1;
	pack_into(&cp.base, out);
	return 0;
}
