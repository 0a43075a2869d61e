/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/offline.c -- what a companion's connection gets and says in
 * <ib> stanzas (protocol.md 7.2, 11.6), and what the sim, playing the
 * phone, records of a registration's DeviceProps (3.4).
 *
 * The offline backlog, as strict as the real server is documented to be
 * ([RS] offline_resume.rs, mirroring WA Web: without <offline_batch>
 * requests the backlog stops after a primer of about five stanzas):
 * after <active/> (or at a login that is not passive) a connection with
 * stanzas queued gets <ib><offline_preview count message notification
 * receipt appdata/></ib> and SIM_OFFLINE_PRIMER of them; after that only
 * as many as each <ib><offline_batch count=N/> asks for.  When the last
 * has gone, <ib><offline count=sent/> ends the backlog.  When the client
 * has asked for no more within SIM_OFFLINE_HOLD_MS while some are left,
 * the sim ends the backlog all the same (so no client waits for an end
 * that never comes) and counts those it held back: they stay queued (no
 * test loses data) for the next login, where the same rules apply.
 * Whether the real server then drops them is not known ([RS] says
 * dropped; [WM] sends no batch requests and is not reported to lose
 * messages).  Loop thread only.
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "adv.pb-c.h"
#include "base/xmalloc.h"
#include "nodes.h"
#include "route.h"
#include "session.h"
#include "sim.h"

#define SIM_OFFLINE_PRIMER	5	/* unasked, after the preview ([RS]) */
#define SIM_OFFLINE_HOLD_MS	2000	/* then the end, without a request */
#define SIM_OFFLINE_ASK_MAX	10000	/* one request's count, at most */
#define NITEMS(a)		(sizeof(a) / sizeof((a)[0]))
#define US_WEEK_MS		(7LL * 24 * 60 * 60 * 1000)	/* 7.2 */

/* Whether r belongs to c's backlog: for its device, not acked, not sent
 * on c already (a stanza routed live between the login and <active/>). */
static bool
in_backlog(const struct sim_conn *c, const struct sim_route *r)
{
	return !r->acked && r->acct == c->acct && r->device == c->dev->id &&
	    r->last_conn != c->id;
}

/* The next stanza of c's backlog, or NULL: queued for its device before
 * the backlog began, not acked, not yet sent on c. */
static struct sim_route *
next_route(struct sim_conn *c)
{
	struct sim_route	*r;

	for (r = c->s->routes; r != NULL && r->seq <= c->off_max; r = r->next)
		if (r->seq > c->off_seq && in_backlog(c, r))
			return r;
	return NULL;
}

static unsigned
left_routes(struct sim_conn *c)
{
	struct sim_route	*r;
	unsigned		 n = 0;

	for (r = c->s->routes; r != NULL && r->seq <= c->off_max; r = r->next)
		if (r->seq > c->off_seq && in_backlog(c, r))
			n++;
	return n;
}

static void
send_ib(struct sim_conn *c, const char *tag, const char *k1, unsigned v1)
{
	struct arena	 a;
	struct wa_node	*ib, *x;
	char		 v[16];

	arena_init(&a, 0);
	ib = sn_new(&a, "ib");
	x = sn_child(&a, ib, tag);
	snprintf(v, sizeof(v), "%u", v1);
	sn_attr(&a, x, k1, v);
	(void)sim_conn_send_node(c, ib);
	arena_release(&a);
}

static void
end_backlog(struct sim_conn *c, unsigned held)
{
	c->off_done = true;
	c->off_held = held;
	c->s->offline_held += held;
	if (held > 0)
		sim_conn_log(c, "offline backlog: %u stanzas held back (no "
		    "offline_batch asked for them in %d ms)", held,
		    SIM_OFFLINE_HOLD_MS);
	send_ib(c, "offline", "count", c->off_sent);
	sim_conn_log(c, "offline backlog done: %u sent in %u batch requests",
	    c->off_sent, c->off_batches);
}

/* --- the hold: a one-shot timer per pause, matched by connection id and
 * generation, so that a closed connection or a later request voids it */

struct hold {
	uv_timer_t	 t;
	struct sim	*s;
	uint64_t	 conn, gen;
};

static void
hold_closed(uv_handle_t *h)
{
	free(h->data);
}

static void
hold_fire(uv_timer_t *t)
{
	struct hold	*h = t->data;
	struct sim_conn	*c;

	for (c = h->s->conns; c != NULL; c = c->next)
		if (c->id == h->conn)
			break;
	if (c != NULL && c->off_gen == h->gen && c->off_started &&
	    !c->off_done && c->authed && c->dev != NULL)
		end_backlog(c, left_routes(c));
	uv_close((uv_handle_t *)t, hold_closed);
}

static void
hold_start(struct sim_conn *c)
{
	struct hold	*h = xcalloc(1, sizeof(*h));

	h->s = c->s;
	h->conn = c->id;
	h->gen = ++c->off_gen;
	uv_timer_init(&c->s->loop, &h->t);
	h->t.data = h;
	uv_timer_start(&h->t, hold_fire, SIM_OFFLINE_HOLD_MS, 0);
}

/* Send what the client may have; then the end, or a hold. */
static void
pump(struct sim_conn *c)
{
	struct sim_route	*r;
	unsigned		 n = 0;

	while (c->off_credit > 0 && (r = next_route(c)) != NULL) {
		c->off_seq = r->seq;
		if (sim_route_offline_send(c, r)) {
			n++;
			c->off_sent++;
			c->off_credit--;
		}
	}
	if (n > 0)
		sim_conn_log(c, "offline queue: %u stanzas sent", n);
	if (next_route(c) == NULL)
		end_backlog(c, 0);
	else
		hold_start(c);
}

void
sim_offline_start(struct sim_conn *c)
{
	struct arena		 a;
	struct wa_node		*ib, *p;
	struct sim_route	*r;
	unsigned		 k[3] = { 0, 0, 0 }, total;
	char			 v[16];

	if (c->off_started || !c->authed || c->dev == NULL)
		return;
	c->off_started = true;
	c->off_max = c->s->nroutes;
	c->off_seq = 0;
	for (r = c->s->routes; r != NULL; r = r->next)
		if (in_backlog(c, r))
			k[r->kind == SIM_ROUTE_MESSAGE ? 0 :
			    r->kind == SIM_ROUTE_RECEIPT ? 2 : 1]++;
	total = k[0] + k[1] + k[2];
	if (total == 0) {
		end_backlog(c, 0);
		return;
	}
	arena_init(&a, 0);
	ib = sn_new(&a, "ib");
	p = sn_child(&a, ib, "offline_preview");
	snprintf(v, sizeof(v), "%u", total);
	sn_attr(&a, p, "count", v);
	snprintf(v, sizeof(v), "%u", k[0]);
	sn_attr(&a, p, "message", v);
	snprintf(v, sizeof(v), "%u", k[1]);
	sn_attr(&a, p, "notification", v);
	snprintf(v, sizeof(v), "%u", k[2]);
	sn_attr(&a, p, "receipt", v);
	sn_attr(&a, p, "appdata", "0");
	(void)sim_conn_send_node(c, ib);
	arena_release(&a);
	sim_conn_log(c, "offline preview: %u stanzas (%u messages, %u "
	    "notifications, %u receipts)", total, k[0], k[1], k[2]);
	c->off_credit = SIM_OFFLINE_PRIMER;
	pump(c);
}

static void
on_batch(struct sim_conn *c, const struct wa_node *b)
{
	struct wa_str	 v = sn_get(b, "count");
	char		 tmp[16];
	unsigned long	 n;

	c->off_batches++;
	c->s->offline_batches++;
	snprintf(tmp, sizeof(tmp), "%.*s", (int)v.len, v.p != NULL ? v.p :
	    "");
	n = strtoul(tmp, NULL, 10);
	sim_conn_log(c, "offline_batch count=%s", tmp);
	if (!c->off_started || c->off_done || n == 0)
		return;		/* nothing left to batch */
	if (n > SIM_OFFLINE_ASK_MAX)
		n = SIM_OFFLINE_ASK_MAX;
	c->off_gen++;		/* the hold is off */
	c->off_credit += (unsigned)n;
	pump(c);
}

static void
on_unified(struct sim_conn *c, const struct wa_node *u)
{
	struct sim		*s = c->s;
	struct sim_us		*e = &s->us_log[s->unified_sessions %
				    SIM_US_LOG];
	struct wa_str		 v = sn_get(u, "id");
	char			 tmp[24], *end;
	long long		 id;

	snprintf(tmp, sizeof(tmp), "%.*s", (int)v.len, v.p != NULL ? v.p :
	    "");
	id = strtoll(tmp, &end, 10);
	s->unified_sessions++;
	memset(e, 0, sizeof(*e));
	e->conn = c->id;
	e->id = id;
	e->after_pairing = c->registration;
	e->plausible = tmp[0] != '\0' && *end == '\0' && id >= 0 &&
	    id < US_WEEK_MS;
	sim_conn_log(c, "unified_session id=%s (%s, %s)", tmp,
	    c->registration ? "after pairing" : "after login",
	    e->plausible ? "within 7 days in ms" : "NOT within 7 days in ms");
}

int
sim_offline_ib(struct sim_conn *c, const struct wa_node *n)
{
	const struct wa_node	*x;
	int			 done = 0;

	if ((x = sn_find(n, "unified_session")) != NULL) {
		on_unified(c, x);
		done = 1;
	}
	if ((x = sn_find(n, "offline_batch")) != NULL) {
		on_batch(c, x);
		done = 1;
	}
	return done;
}

/* --- DeviceProps, as the phone sees them (3.4) --- */

/*
 * The phone's Linked devices list: a browser platform names the browser
 * with the os in brackets ("Google Chrome (Ubuntu)"), DESKTOP the os
 * alone, UNKNOWN "Other device" (the os dropped), ANDROID_PHONE
 * "Android (<os>)"; as users of the references report it
 * (tulir/whatsmeow issues 133 and 289, discussion 469;
 * devlikeapro/waha 2152; asternic/wuzapi 218; whatsapp-rust 233/234;
 * WhiskeySockets/Baileys 2393).
 */
void
sim_phone_name(const char *os, int platform_type, char *out, size_t len)
{
	static const char *const browsers[] = {
		NULL, "Google Chrome", "Mozilla Firefox", "Internet Explorer",
		"Opera", "Safari", "Microsoft Edge",
	};

	if (platform_type >= 1 && platform_type <= 6)
		snprintf(out, len, "%s (%s)", browsers[platform_type], os);
	else if (platform_type == 7 && os[0] != '\0')
		snprintf(out, len, "%s", os);
	else if (platform_type == 16)
		snprintf(out, len, "Android (%s)", os);
	else if (platform_type == 8)
		snprintf(out, len, "iPad");
	else
		snprintf(out, len, "Other device");
}

/* The support* flags of HistorySyncConfig, by field number. */
static const struct {
	int		 field;
	const char	*name;
} flags[] = {
	{ 6, "supportCallLogHistory" },
	{ 7, "supportBotUserAgentChatHistory" },
	{ 8, "supportCagReactionsAndPolls" },
	{ 9, "supportBizHostedMsg" },
	{ 10, "supportRecentSyncChunkMessageCountTuning" },
	{ 11, "supportHostedGroupMsg" },
	{ 12, "supportFbidBotChatHistory" },
	{ 13, "supportAddOnHistorySyncMigration" },
	{ 14, "supportMessageAssociation" },
	{ 15, "supportGroupHistory" },
	{ 21, "supportManusHistory" },
	{ 22, "supportHatchHistory" },
	{ 24, "supportInlineContacts" },
};

static uint32_t
flag_bits(const Wa__DeviceProps__HistorySyncConfig *h)
{
	const protobuf_c_boolean v[] = {
		h->has_supportcallloghistory && h->supportcallloghistory,
		h->has_supportbotuseragentchathistory &&
		    h->supportbotuseragentchathistory,
		h->has_supportcagreactionsandpolls &&
		    h->supportcagreactionsandpolls,
		h->has_supportbizhostedmsg && h->supportbizhostedmsg,
		h->has_supportrecentsyncchunkmessagecounttuning &&
		    h->supportrecentsyncchunkmessagecounttuning,
		h->has_supporthostedgroupmsg && h->supporthostedgroupmsg,
		h->has_supportfbidbotchathistory &&
		    h->supportfbidbotchathistory,
		h->has_supportaddonhistorysyncmigration &&
		    h->supportaddonhistorysyncmigration,
		h->has_supportmessageassociation &&
		    h->supportmessageassociation,
		h->has_supportgrouphistory && h->supportgrouphistory,
		h->has_supportmanushistory && h->supportmanushistory,
		h->has_supporthatchhistory && h->supporthatchhistory,
		h->has_supportinlinecontacts && h->supportinlinecontacts,
	};
	uint32_t	 bits = 0;
	size_t		 i;

	for (i = 0; i < NITEMS(v); i++)
		if (v[i])
			bits |= 1u << i;
	return bits;
}

void
sim_offline_reg_props(struct sim *s, const void *props)
{
	const Wa__DeviceProps	*dp = props;
	struct sim_regprops	*p = &s->reg_log[s->nregprops %
				    SIM_REG_LOG];

	s->nregprops++;
	memset(p, 0, sizeof(*p));
	snprintf(p->os, sizeof(p->os), "%s", dp->os != NULL ? dp->os : "");
	p->platform_type = dp->has_platformtype ? (int)dp->platformtype : 0;
	if (dp->version != NULL)
		snprintf(p->version, sizeof(p->version), "%u.%u.%u",
		    dp->version->primary, dp->version->secondary,
		    dp->version->tertiary);
	p->full_sync = dp->has_requirefullsync && dp->requirefullsync;
	p->thumbnail_days = -1;
	if (dp->historysyncconfig != NULL) {
		p->flags = flag_bits(dp->historysyncconfig);
		if (dp->historysyncconfig->has_thumbnailsyncdayslimit)
			p->thumbnail_days = (int64_t)
			    dp->historysyncconfig->thumbnailsyncdayslimit;
	}
	sim_phone_name(p->os, p->platform_type, p->phone_name,
	    sizeof(p->phone_name));
	sim_log(s, "registration: DeviceProps os \"%s\", platformType %d: "
	    "the phone's Linked devices list shows \"%s\"", p->os,
	    p->platform_type, p->phone_name);
}

static struct json_object *
reg_json(const struct sim_regprops *p)
{
	struct json_object	*o = json_object_new_object();
	struct json_object	*f = json_object_new_array();
	size_t			 i;

	json_object_object_add(o, "os", json_object_new_string(p->os));
	json_object_object_add(o, "platform_type",
	    json_object_new_int(p->platform_type));
	json_object_object_add(o, "version",
	    json_object_new_string(p->version));
	json_object_object_add(o, "require_full_sync",
	    json_object_new_boolean(p->full_sync));
	for (i = 0; i < NITEMS(flags); i++)
		if (p->flags & (1u << i))
			json_object_array_add(f,
			    json_object_new_string(flags[i].name));
	json_object_object_add(o, "history_support", f);
	json_object_object_add(o, "thumbnail_sync_days_limit",
	    json_object_new_int64(p->thumbnail_days));
	json_object_object_add(o, "linked_devices_name",
	    json_object_new_string(p->phone_name));
	return o;
}

void
sim_offline_status_json(struct sim *s, struct json_object *o)
{
	struct json_object	*us = json_object_new_array();
	struct json_object	*rg = json_object_new_array();
	uint64_t		 i, from;

	json_object_object_add(o, "unified_sessions",
	    json_object_new_int64((int64_t)s->unified_sessions));
	json_object_object_add(o, "offline_batches",
	    json_object_new_int64((int64_t)s->offline_batches));
	json_object_object_add(o, "offline_held",
	    json_object_new_int64((int64_t)s->offline_held));
	from = s->unified_sessions > SIM_US_LOG ? s->unified_sessions -
	    SIM_US_LOG : 0;
	for (i = from; i < s->unified_sessions; i++) {
		const struct sim_us	*e = &s->us_log[i % SIM_US_LOG];
		struct json_object	*x = json_object_new_object();

		json_object_object_add(x, "id", json_object_new_int64(e->id));
		json_object_object_add(x, "after", json_object_new_string(
		    e->after_pairing ? "pairing" : "login"));
		json_object_object_add(x, "plausible",
		    json_object_new_boolean(e->plausible));
		json_object_object_add(x, "connection",
		    json_object_new_int64((int64_t)e->conn));
		json_object_array_add(us, x);
	}
	json_object_object_add(o, "unified_session_ids", us);
	from = s->nregprops > SIM_REG_LOG ? s->nregprops -
	    SIM_REG_LOG : 0;
	for (i = from; i < s->nregprops; i++)
		json_object_array_add(rg, reg_json(&s->reg_log[i %
		    SIM_REG_LOG]));
	json_object_object_add(o, "registration_props", rg);
}

void
sim_offline_conn_json(const struct sim_conn *c, struct json_object *o)
{
	if (!c->off_started)
		return;
	json_object_object_add(o, "offline_sent",
	    json_object_new_int64(c->off_sent));
	json_object_object_add(o, "offline_batches",
	    json_object_new_int64(c->off_batches));
	json_object_object_add(o, "offline_held",
	    json_object_new_int64(c->off_held));
	json_object_object_add(o, "offline_done",
	    json_object_new_boolean(c->off_done));
}
