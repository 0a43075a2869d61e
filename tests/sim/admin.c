/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/admin.c -- the simulator's control interface: JSON over
 * loopback HTTP (the routes are listed in wachat-sim --help and in
 * tests/sim/README.md).
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cert.pb-c.h"
#include "base/err.h"
#include "http.h"
#include "nodes.h"
#include "proto/pb.h"
#include "session.h"
#include "sim.h"
#include "route.h"
#include "tokens.h"

int
sim_json_reply(struct buf *out, struct json_object *o, int status)
{
	const char	*txt = json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	buf_append(out, txt, strlen(txt));
	buf_push(out, '\n');
	json_object_put(o);
	return status;
}

int
sim_json_error(struct buf *out, int status, const char *msg)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "error", json_object_new_string(msg));
	return sim_json_reply(out, o, status);
}

const char *
sim_json_str(struct json_object *o, const char *key)
{
	struct json_object	*v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return json_object_get_string(v);
}

static bool
jint(struct json_object *o, const char *key, int64_t *out)
{
	struct json_object	*v;
	const char		*str;
	char			*end;
	long long		 n;

	if (o == NULL || !json_object_object_get_ex(o, key, &v))
		return false;
	if (json_object_is_type(v, json_type_int)) {
		/* json-c keeps values past INT64_MAX as unsigned and clamps
		 * them when read as signed: refuse those. */
		*out = json_object_get_int64(v);
		return *out != INT64_MAX && *out != INT64_MIN;
	}
	if (!json_object_is_type(v, json_type_string))
		return false;
	/* A string must be a whole decimal number. */
	str = json_object_get_string(v);
	errno = 0;
	n = strtoll(str, &end, 10);
	if (errno != 0 || end == str || *end != '\0')
		return false;
	*out = n;
	return true;
}

/* The value of name in the query string q ("a=1&b=2"), copied to val. */
static bool
query(const char *q, const char *name, char *val, size_t len)
{
	size_t	 nl = strlen(name);

	while (*q != '\0') {
		const char	*end = strchr(q, '&');
		size_t		 n = end != NULL ? (size_t)(end - q) : strlen(q);

		if (n > nl && strncmp(q, name, nl) == 0 && q[nl] == '=') {
			size_t	 vl = n - nl - 1;

			if (vl >= len)
				vl = len - 1;
			memcpy(val, q + nl + 1, vl);
			val[vl] = '\0';
			return true;
		}
		if (end == NULL)
			break;
		q = end + 1;
	}
	return false;
}

static struct json_object *
knobs_json(const struct sim *s)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "malformed_next",
	    json_object_new_string(sim_bad_name(s->bad_next)));
	json_object_object_add(o, "cert_fault",
	    json_object_new_string(sim_cert_fault_name(s->cert_fault)));
	json_object_object_add(o, "min_version",
	    json_object_new_int64(s->min_revision));
	json_object_object_add(o, "sw_revision",
	    json_object_new_int64(s->sw_revision));
	json_object_object_add(o, "reg_refresh_pct",
	    json_object_new_int64(s->refresh_pct));
	json_object_object_add(o, "group_flip",
	    json_object_new_int64(s->group_flip));
	json_object_object_add(o, "silent_next", json_object_new_string(
	    s->silent_next == 1 ? "handshake" : s->silent_next == 2 ?
	    "login" : "none"));
	json_object_object_add(o, "drop_pair_sign",
	    json_object_new_boolean(s->drop_pair_sign));
	json_object_object_add(o, "clock_ms",
	    json_object_new_int64(route_clock_ms));
	return o;
}

static int
status(struct sim *s, struct buf *out)
{
	struct json_object	*o = json_object_new_object();
	struct sim_account	*a;
	struct sim_conn		*c;
	char			 hex[2 * SIM_KEY_LEN + 1];
	int64_t			 na = 0, nc = 0;

	for (a = s->accounts; a != NULL; a = a->next)
		na++;
	for (c = s->conns; c != NULL; c = c->next)
		nc++;
	json_object_object_add(o, "port", json_object_new_int(s->port));
	json_object_object_add(o, "admin_port",
	    json_object_new_int(s->admin_port));
	sim_hex(s->root_pub, SIM_KEY_LEN, hex);
	json_object_object_add(o, "root_pub", json_object_new_string(hex));
	sim_hex(s->static_pub, SIM_KEY_LEN, hex);
	json_object_object_add(o, "static_pub", json_object_new_string(hex));
	json_object_object_add(o, "handshakes",
	    json_object_new_int64((int64_t)s->nhandshakes));
	json_object_object_add(o, "connections", json_object_new_int64(nc));
	json_object_object_add(o, "accounts", json_object_new_int64(na));
	json_object_object_add(o, "unanswered_queries",
	    json_object_new_int64((int64_t)s->unanswered));
	json_object_object_add(o, "routed",
	    json_object_new_int64((int64_t)s->nroutes));
	json_object_object_add(o, "chatstates",
	    json_object_new_int64((int64_t)s->chatstates));
	json_object_object_add(o, "presences",
	    json_object_new_int64((int64_t)s->presences));
	json_object_object_add(o, "device_notifications",
	    json_object_new_int64((int64_t)s->device_notifications));
	json_object_object_add(o, "unmatched_acks",
	    json_object_new_int64((int64_t)s->unmatched_acks));
	json_object_object_add(o, "redeliveries",
	    json_object_new_int64((int64_t)s->redeliveries));
	json_object_object_add(o, "calls",
	    json_object_new_int64((int64_t)s->calls));
	json_object_object_add(o, "call_rejects",
	    json_object_new_int64((int64_t)s->call_rejects));
	json_object_object_add(o, "call_rejects_bad",
	    json_object_new_int64((int64_t)s->call_rejects_bad));
	json_object_object_add(o, "groups",
	    json_object_new_int64((int64_t)s->ngroups));
	json_object_object_add(o, "group_addressing",
	    json_object_new_string(s->opt.group_pn ? "pn" : "lid"));
	json_object_object_add(o, "knobs", knobs_json(s));
	json_object_object_add(o, "history", sim_hist_status_json(s));
	json_object_object_add(o, "appstate", sim_as_status_json(s));
	json_object_object_add(o, "tokens", sim_tok_status_json(s));
	sim_offline_status_json(s, o);
	/* issue 16's loops (loops.c): its own block */
	json_object_object_add(o, "attempts", sim_loops_status_json(s));
	return sim_json_reply(out, o, 200);
}

static void
put_cert(struct json_object *o, const char *name,
    const Wa__CertChain__NoiseCertificate *nc)
{
	struct json_object	*c = json_object_new_object();
	char			*hex;

	if (nc == NULL)
		return;
	if (nc->has_details) {
		hex = malloc(2 * nc->details.len + 1);
		if (hex == NULL)
			abort();
		sim_hex(nc->details.data, nc->details.len, hex);
		json_object_object_add(c, "details", json_object_new_string(hex));
		free(hex);
	}
	if (nc->has_signature && nc->signature.len == 64) {
		char	 sig[129];

		sim_hex(nc->signature.data, 64, sig);
		json_object_object_add(c, "signature",
		    json_object_new_string(sig));
	}
	json_object_object_add(o, name, c);
}

/* GET /admin/cert-chain[?fault=F]: the chain the sim sends, in parts. */
static int
cert_chain(struct sim *s, const char *q, struct buf *out)
{
	struct json_object	*o;
	struct buf		 chain = BUF_INIT;
	ProtobufCMessage	*m = NULL;
	enum sim_cert_fault	 f = SIM_CERT_OK;
	char			 v[32], *hex;
	int			 rc;

	if (query(q, "fault", v, sizeof(v)) && sim_cert_fault_parse(v, &f) != 0)
		return sim_json_error(out, 400, "unknown fault");
	if (f == SIM_CERT_OK)
		buf_append(&chain, s->chain.p, s->chain.len);
	else if ((rc = sim_ws_chain(s, f, &chain)) != 0) {
		buf_release(&chain);
		return sim_json_error(out, 500, wc_strerror(rc));
	}
	if (wa_pb_unpack(&wa__cert_chain__descriptor, chain.p, chain.len, &m)
	    != 0) {
		buf_release(&chain);
		return sim_json_error(out, 500, "own chain does not unpack");
	}
	o = json_object_new_object();
	hex = malloc(2 * chain.len + 1);
	if (hex == NULL)
		abort();
	sim_hex(chain.p, chain.len, hex);
	json_object_object_add(o, "chain", json_object_new_string(hex));
	free(hex);
	{
		char	 k[2 * SIM_KEY_LEN + 1];

		sim_hex(s->root_pub, SIM_KEY_LEN, k);
		json_object_object_add(o, "root_pub",
		    json_object_new_string(k));
		sim_hex(s->inter_pub, SIM_KEY_LEN, k);
		json_object_object_add(o, "intermediate_pub",
		    json_object_new_string(k));
		sim_hex(s->static_pub, SIM_KEY_LEN, k);
		json_object_object_add(o, "static_pub",
		    json_object_new_string(k));
	}
	json_object_object_add(o, "fault",
	    json_object_new_string(sim_cert_fault_name(f)));
	put_cert(o, "intermediate",
	    ((Wa__CertChain *)m)->intermediate);
	put_cert(o, "leaf", ((Wa__CertChain *)m)->leaf);
	protobuf_c_message_free_unpacked(m, NULL);
	buf_release(&chain);
	return sim_json_reply(out, o, 200);
}

static int
add_account(struct sim *s, struct json_object *in, bool contact,
    struct buf *out)
{
	struct sim_account	*a;
	struct json_object	*v;
	int64_t			 chatty = 0;
	int			 rc;

	if (json_object_object_get_ex(in, "chatty_s", &v) && (!contact ||
	    !jint(in, "chatty_s", &chatty) || chatty < 0 || chatty > 86400 ||
	    (chatty > 0 && sim_json_str(in, "of") == NULL)))
		return sim_json_error(out, 400, "chatty_s: 0-86400 seconds, for a "
		    "contact with an owner (of)");
	rc = sim_account_add(s, sim_json_str(in, "pn"), sim_json_str(in, "lid"),
	    sim_json_str(in, "name"), contact, sim_json_str(in, "of"), &a);
	if (rc == -EINVAL)
		return sim_json_error(out, 400, "pn, lid and of must be 1-20 digits");
	if (rc == -EEXIST)
		return sim_json_error(out, 409, "an account has this pn or lid");
	if (rc != 0)
		return sim_json_error(out, 500, wc_strerror(rc));
	if (json_object_object_get_ex(in, "echo", &v))
		a->echo = json_object_get_boolean(v);
	if (chatty > 0 && (rc = sim_phone_chatty(s, a, (unsigned)chatty)) !=
	    0)
		return sim_json_error(out, 500, wc_strerror(rc));
	return sim_json_reply(out, sim_account_json(a, true), 200);
}

static void
add_oldest_first(struct json_object *arr, const struct sim_account *a)
{
	if (a == NULL)
		return;
	add_oldest_first(arr, a->next);
	json_object_array_add(arr, sim_account_json(a, false));
}

static int
list_accounts(struct sim *s, struct buf *out)
{
	struct json_object	*arr = json_object_new_array();

	add_oldest_first(arr, s->accounts);
	return sim_json_reply(out, arr, 200);
}

/*
 * GET /admin/devices/JID: what the sim holds for a device; POST
 * /admin/devices/JID/use-prekeys {n}: hand n one-time prekeys out; POST
 * /admin/devices/JID/remove: unlink a companion.
 */
static int
device(struct sim *s, const char *path, struct json_object *in, bool post,
    struct buf *out)
{
	char			 jid[128];
	const char		*slash = strchr(path, '/');
	int64_t			 nuse = 0;
	char			 user[SIM_PN_MAX];
	const char		*at, *colon;
	struct sim_account	*a;
	struct sim_device	*d;
	unsigned long		 dev = 0;
	size_t			 ul;
	bool			 remove = false;

	if (slash != NULL && post && strcmp(slash, "/remove") == 0)
		remove = true;
	else if (slash != NULL) {
		if (!post || strcmp(slash, "/use-prekeys") != 0)
			return sim_json_error(out, 404, "no such route");
		if (!jint(in, "n", &nuse) || nuse < 0)
			return sim_json_error(out, 400, "give {\"n\": N}");
	} else if (post)
		return sim_json_error(out, 404, "no such route");
	snprintf(jid, sizeof(jid), "%.*s", slash != NULL ?
	    (int)(slash - path) : (int)strlen(path), path);
	at = strchr(jid, '@');
	colon = strchr(jid, ':');
	if (at == NULL)
		at = jid + strlen(jid);
	if (colon != NULL && colon < at) {
		char	*end;

		dev = strtoul(colon + 1, &end, 10);
		if (end != at)
			return sim_json_error(out, 400, "bad device number");
		ul = (size_t)(colon - jid);
	} else
		ul = (size_t)(at - jid);
	if (ul == 0 || ul >= sizeof(user))
		return sim_json_error(out, 400, "bad JID");
	memcpy(user, jid, ul);
	user[ul] = '\0';
	if (*at == '@' && strcmp(at + 1, "lid") == 0)
		a = sim_account_by_lid(s, user);
	else
		a = sim_account_by_pn(s, user);
	if (a == NULL)
		return sim_json_error(out, 404, "no such user");
	if (dev == 0 && slash == NULL)
		return sim_json_reply(out, sim_account_json(a, true), 200);
	if ((d = sim_device_find(a, (uint32_t)dev)) == NULL)
		return sim_json_error(out, 404, "no such device");
	if (remove) {
		struct json_object	*o = json_object_new_object();

		if (d->removed || !d->signed_back)
			return sim_json_error(out, 409, "the device is not linked");
		json_object_object_add(o, "notified", json_object_new_int64(
		    sim_route_remove_device(s, a, d)));
		return sim_json_reply(out, o, 200);
	}
	if (slash != NULL) {
		struct json_object	*o = json_object_new_object();
		unsigned		 notified = 0;
		size_t			 used;

		used = sim_prekeys_use(s, a, d, (size_t)nuse, &notified);
		json_object_object_add(o, "used",
		    json_object_new_int64((int64_t)used));
		json_object_object_add(o, "left",
		    json_object_new_int64((int64_t)d->notks));
		json_object_object_add(o, "notified",
		    json_object_new_int64(notified));
		return sim_json_reply(out, o, 200);
	}
	return sim_json_reply(out, sim_device_json(a, d), 200);
}

static int
list_conns(struct sim *s, struct buf *out)
{
	struct json_object	*arr = json_object_new_array();
	struct sim_conn		*c;

	for (c = s->conns; c != NULL; c = c->next)
		json_object_array_add(arr, sim_conn_json(c));
	return sim_json_reply(out, arr, 200);
}

/* Whether connection c is the logged-in device jid ("PN:DEV@s.whatsapp.net"). */
static bool
conn_is(const struct sim_conn *c, const char *jid)
{
	char	 j[SIM_PN_MAX + 32];

	if (c->acct == NULL || c->dev == NULL)
		return false;
	if (c->dev->id == 0)
		snprintf(j, sizeof(j), "%s@s.whatsapp.net", c->acct->pn);
	else
		snprintf(j, sizeof(j), "%s:%u@s.whatsapp.net", c->acct->pn,
		    (unsigned)c->dev->id);
	return strcmp(j, jid) == 0;
}

/* What an action on connections was given (conn_action()). */
struct conn_arg {
	int64_t		 v;		/* code, reason, bytes */
	enum sim_bad	 bad;		/* malformed */
	const char	*child;		/* reg-refresh, or NULL */
};

static int
check_stream_error(struct json_object *in, struct conn_arg *a,
    struct buf *out)
{
	if (!jint(in, "code", &a->v) || a->v < 0 || a->v > 65535)
		return sim_json_error(out, 400, "give {\"code\": N}, 0-65535");
	return 0;
}

static int
check_failure(struct json_object *in, struct conn_arg *a, struct buf *out)
{
	if (!jint(in, "reason", &a->v) || a->v < 0 || a->v > 65535)
		return sim_json_error(out, 400, "give {\"reason\": N}, 0-65535");
	return 0;
}

static int
check_malformed(struct json_object *in, struct conn_arg *a, struct buf *out)
{
	const char	*k = sim_json_str(in, "kind");

	if (k == NULL || sim_bad_parse(k, &a->bad) != 0 ||
	    a->bad == SIM_BAD_NONE)
		return sim_json_error(out, 400, "give {\"kind\": truncated|"
		    "oversized|garbage|undecryptable}");
	return 0;
}

static int
check_reg_refresh(struct json_object *in, struct conn_arg *a,
    struct buf *out)
{
	a->child = sim_json_str(in, "child");
	if (a->child != NULL && strcmp(a->child, "companion_reg_refresh") !=
	    0 && strcmp(a->child, "pair-device-rotate-qr") != 0)
		return sim_json_error(out, 400, "child: companion_reg_refresh|"
		    "pair-device-rotate-qr");
	return 0;
}

static int
check_cut(struct json_object *in, struct conn_arg *a, struct buf *out)
{
	if (!jint(in, "bytes", &a->v) || a->v < 1 || a->v > 0xFFFFFF)
		return sim_json_error(out, 400, "give {\"bytes\": N}, 1 or more");
	return 0;
}

static int
check_nothing(struct json_object *in, struct conn_arg *a, struct buf *out)
{
	(void)in;
	(void)a;
	(void)out;
	return 0;
}

static int
do_drop(struct sim_conn *c, const struct conn_arg *a)
{
	(void)a;
	sim_conn_drop(c);
	return 0;
}

static int
do_cut(struct sim_conn *c, const struct conn_arg *a)
{
	c->cut_next = (size_t)a->v;
	return 0;
}

static int
do_stream_error(struct sim_conn *c, const struct conn_arg *a)
{
	return sim_conn_stream_error(c, (int)a->v);
}

static int
do_failure(struct sim_conn *c, const struct conn_arg *a)
{
	return sim_conn_failure(c, (int)a->v);
}

static int
do_reg_refresh(struct sim_conn *c, const struct conn_arg *a)
{
	return sim_pair_reg_refresh(c, a->child);
}

static int
do_malformed(struct sim_conn *c, const struct conn_arg *a)
{
	return sim_conn_bad(c, a->bad);
}

#define NOT_READY	"the connection has not finished its handshake"

/*
 * An action on connections: its name, the check of its body (0, or the
 * status of the error it wrote), what it does to each connection (0 or
 * an error), and what 409 says when that is WC_ESTATE.
 */
static const struct conn_act {
	const char	*name;
	int		(*check)(struct json_object *, struct conn_arg *,
			    struct buf *);
	int		(*apply)(struct sim_conn *, const struct conn_arg *);
	const char	*estate;
} conn_acts[] = {
	{ "stream-error", check_stream_error, do_stream_error, NOT_READY },
	{ "failure", check_failure, do_failure, NOT_READY },
	{ "malformed", check_malformed, do_malformed, NOT_READY },
	{ "reg-refresh", check_reg_refresh, do_reg_refresh,
	    "not an unpaired registration connection" },
	{ "cut", check_cut, do_cut, NOT_READY },
	{ "drop", check_nothing, do_drop, NOT_READY },
};

/* Whether c is what id names: a number, "all", "last" (last: the newest
 * connection) or a device JID logged in on a connection not closing. */
static bool
conn_named(const struct sim_conn *c, const char *id,
    const struct sim_conn *last)
{
	if (strchr(id, '@') != NULL)
		return conn_is(c, id) && c->st != SIM_C_CLOSING;
	return strcmp(id, "all") == 0 || (strcmp(id, "last") == 0 &&
	    c == last) || strtoull(id, NULL, 10) == c->id;
}

/* POST /admin/connections/ID/ACTION, ID a number, "all", "last" or the
 * device JID logged in on it. */
static int
conn_action(struct sim *s, const char *rest, struct json_object *in,
    struct buf *out)
{
	const char		*slash = strchr(rest, '/');
	const struct conn_act	*act = NULL;
	struct conn_arg		 arg;
	struct sim_conn		*c, *next, *last = NULL;
	struct json_object	*o;
	char			 id[SIM_PN_MAX + 32];
	size_t			 i;
	int			 n = 0, rc;

	if (slash == NULL || (size_t)(slash - rest) >= sizeof(id))
		return sim_json_error(out, 404, "no such route");
	memcpy(id, rest, (size_t)(slash - rest));
	id[slash - rest] = '\0';
	for (i = 0; i < sizeof(conn_acts) / sizeof(conn_acts[0]); i++)
		if (strcmp(slash + 1, conn_acts[i].name) == 0)
			act = &conn_acts[i];
	if (act == NULL)
		return sim_json_error(out, 404, "no such action");
	memset(&arg, 0, sizeof(arg));
	if ((rc = act->check(in, &arg, out)) != 0)
		return rc;
	for (c = s->conns; c != NULL; c = c->next)
		if (last == NULL || c->id > last->id)
			last = c;
	for (c = s->conns; c != NULL; c = next) {
		next = c->next;
		if (!conn_named(c, id, last))
			continue;
		n++;
		if ((rc = act->apply(c, &arg)) != 0)
			return sim_json_error(out, 409, rc != WC_ESTATE ?
			    wc_strerror(rc) : act->estate);
	}
	if (n == 0)
		return sim_json_error(out, 404, "no such connection");
	o = json_object_new_object();
	json_object_object_add(o, "ok", json_object_new_boolean(1));
	json_object_object_add(o, "connections", json_object_new_int(n));
	return sim_json_reply(out, o, 200);
}

/* The knobs that are numbers in a range but the revisions: 0, or the
 * error's reply. */
static int
knob_ints(struct sim *s, struct json_object *in, struct buf *out)
{
	int64_t	 iv;

	if (json_object_object_get_ex(in, "reg_refresh_pct", NULL)) {
		if (!jint(in, "reg_refresh_pct", &iv) || iv < 0 || iv > 100)
			return sim_json_error(out, 400, "reg_refresh_pct: 0-100");
		s->refresh_pct = (unsigned)iv;
	}
	if (json_object_object_get_ex(in, "group_flip", NULL)) {
		if (!jint(in, "group_flip", &iv) || iv < 0 || iv > 1000)
			return sim_json_error(out, 400, "group_flip: 0-1000");
		s->group_flip = (unsigned)iv;
	}
	if (json_object_object_get_ex(in, "clock_ms", NULL)) {
		if (!jint(in, "clock_ms", &iv) || iv < -86400000 ||
		    iv > 86400000)
			return sim_json_error(out, 400, "clock_ms: -86400000 to "
			    "86400000");
		route_clock_ms = iv;
	}
	return 0;
}

static int
knobs(struct sim *s, struct json_object *in, struct buf *out)
{
	static const char *const known[] = { "malformed_next", "cert_fault",
	    "min_version", "sw_revision", "reg_refresh_pct", "group_flip",
	    "silent_next", "drop_pair_sign", "clock_ms" };
	const char	*v;
	int64_t		 iv;
	size_t		 i;
	int		 rc;

	if (in != NULL && json_object_is_type(in, json_type_object)) {
		json_object_object_foreach(in, key, val) {
			(void)val;
			for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
				if (strcmp(key, known[i]) == 0)
					break;
			if (i == sizeof(known) / sizeof(known[0]))
				return sim_json_error(out, 400, "unknown knob (known: "
				    "malformed_next, cert_fault, min_version, "
				    "sw_revision, reg_refresh_pct, group_flip, "
				    "silent_next, drop_pair_sign, clock_ms)");
		}
	}
	if ((v = sim_json_str(in, "malformed_next")) != NULL &&
	    sim_bad_parse(v, &s->bad_next) != 0)
		return sim_json_error(out, 400, "malformed_next: none|truncated|"
		    "oversized|garbage|undecryptable");
	if ((v = sim_json_str(in, "cert_fault")) != NULL &&
	    sim_cert_fault_parse(v, &s->cert_fault) != 0)
		return sim_json_error(out, 400, "cert_fault: none|other-root|leaf-key|"
		    "expired|issuer-serial");
	if (json_object_object_get_ex(in, "min_version", NULL)) {
		if (!jint(in, "min_version", &iv) || iv < 0 || iv > UINT32_MAX)
			return sim_json_error(out, 400, "min_version: a revision, 0 = off");
		s->min_revision = (uint32_t)iv;
	}
	if (json_object_object_get_ex(in, "sw_revision", NULL)) {
		if (!jint(in, "sw_revision", &iv) || iv <= 0 ||
		    iv > UINT32_MAX)
			return sim_json_error(out, 400, "sw_revision: a revision");
		s->sw_revision = (uint32_t)iv;
	}
	if ((v = sim_json_str(in, "silent_next")) != NULL) {
		if (strcmp(v, "none") == 0)
			s->silent_next = 0;
		else if (strcmp(v, "handshake") == 0)
			s->silent_next = 1;
		else if (strcmp(v, "login") == 0)
			s->silent_next = 2;
		else
			return sim_json_error(out, 400, "silent_next: none|handshake|"
			    "login");
	}
	if ((v = sim_json_str(in, "drop_pair_sign")) != NULL)
		s->drop_pair_sign = strcmp(v, "1") == 0 ||
		    strcmp(v, "yes") == 0 || strcmp(v, "true") == 0;
	if ((rc = knob_ints(s, in, out)) != 0)
		return rc;
	sim_log(s, "knobs: malformed_next %s, cert_fault %s, min_version %u, "
	    "sw_revision %u, reg_refresh_pct %u", sim_bad_name(s->bad_next),
	    sim_cert_fault_name(s->cert_fault), s->min_revision,
	    s->sw_revision, s->refresh_pct);
	return sim_json_reply(out, knobs_json(s), 200);
}

static int
scan_qr(struct sim *s, const struct sim_http_req *req, struct buf *out)
{
	struct json_object	*res = json_object_new_object();
	char			 pn[SIM_PN_MAX] = "", dry[8] = "";
	int			 st;

	(void)query(req->query, "pn", pn, sizeof(pn));
	(void)query(req->query, "dry_run", dry, sizeof(dry));
	st = sim_pair_scan(s, (const char *)req->body, pn,
	    dry[0] != '\0' && strcmp(dry, "0") != 0, res);
	sim_log(s, "scan-qr: %d %s", st, json_object_to_json_string_ext(res,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	return sim_json_reply(out, res, st);
}

static int
enter_code(struct sim *s, struct json_object *in, struct buf *out)
{
	struct json_object	*res = json_object_new_object();
	const char		*code = sim_json_str(in, "code");
	int			 st;

	if (code == NULL) {
		json_object_put(res);
		return sim_json_error(out, 400, "give {\"code\": \"XXXX-XXXX\"}");
	}
	st = sim_pair_enter_code(s, code, sim_json_str(in, "pn"), res);
	sim_log(s, "enter-code: %d %s", st, json_object_to_json_string_ext(res,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	return sim_json_reply(out, res, st);
}

/*
 * POST /admin/mock-phone/receipt {pn, to, id, type?, participant?}: the
 * phone (device 0) of account pn sends <receipt id to [type]
 * [participant]> (protocol.md 9.6; to a group: participant = the
 * message's author) through the router, as a phone that took or read a
 * message would.
 */
static int
phone_receipt(struct sim *s, struct json_object *in, struct buf *out)
{
	const char		*pn = sim_json_str(in, "pn"), *to = sim_json_str(in, "to");
	const char		*id = sim_json_str(in, "id"), *type = sim_json_str(in, "type");
	struct sim_account	*a;
	struct wa_node		*n;
	struct arena		 ar;
	int			 rc;

	if (pn == NULL || to == NULL || id == NULL || id[0] == '\0' ||
	    strchr(to, '@') == NULL)
		return sim_json_error(out, 400, "give {\"pn\", \"to\": JID, \"id\", "
		    "\"type\"?}");
	if ((a = sim_account_by_pn(s, pn)) == NULL)
		return sim_json_error(out, 404, "no such account");
	arena_init(&ar, 0);
	n = sn_new(&ar, "receipt");
	sn_attr(&ar, n, "id", id);
	sn_attr(&ar, n, "to", to);
	if (type != NULL && type[0] != '\0')
		sn_attr(&ar, n, "type", type);
	if (sim_json_str(in, "participant") != NULL)
		sn_attr(&ar, n, "participant", sim_json_str(in, "participant"));
	rc = sim_route_inject(s, a, 0, n);
	arena_release(&ar);
	if (rc != 0)
		return sim_json_error(out, 500, wc_strerror(rc));
	{
		struct json_object	*o = json_object_new_object();

		json_object_object_add(o, "routed",
		    json_object_new_int64((int64_t)s->nroutes));
		return sim_json_reply(out, o, 200);
	}
}

/*
 * POST /admin/mock-phone/send {from_pn, to, text | react_to + emoji,
 * quoted_id?, quoted_participant?, react_from_me?, nest?}: from_pn's phone
 * sends a text, reply or reaction to the user JID to (phone.c); nest N
 * sends a reply quoting a reply ... N deep instead.
 */
static int
phone_send(struct sim *s, struct json_object *in, struct buf *out)
{
	struct sim_phone_req	 req;
	struct json_object	*res, *v;
	const char		*why;
	int			 st;

	memset(&req, 0, sizeof(req));
	req.from_pn = sim_json_str(in, "from_pn");
	req.to = sim_json_str(in, "to");
	req.text = sim_json_str(in, "text");
	req.quoted_id = sim_json_str(in, "quoted_id");
	req.quoted_participant = sim_json_str(in, "quoted_participant");
	req.react_to = sim_json_str(in, "react_to");
	req.emoji = sim_json_str(in, "emoji");
	if (json_object_object_get_ex(in, "react_from_me", &v))
		req.react_from_me = json_object_get_boolean(v);
	if (json_object_object_get_ex(in, "nest", &v)) {
		int64_t	 n = json_object_get_int64(v);

		if (n < 1 || n > 100000)
			return sim_json_error(out, 400, "nest: 1 to 100000");
		req.nest = (unsigned)n;
	}
	res = json_object_new_object();
	st = sim_phone_send(s, &req, res, &why);
	if (st != 200) {
		json_object_put(res);
		return sim_json_error(out, st, why != NULL ? why : "not sent");
	}
	return sim_json_reply(out, res, 200);
}

/* POST /admin/mock-phone/reinstall {pn, notify}: PN's phone gets a new
 * identity and keys, and no session; with notify "pn" or "lid" every
 * other account's devices are told, as the server does, by an encrypt
 * <identity/> notification from PN's PN or LID (ident.c). */
static int
phone_reinstall(struct sim *s, struct json_object *in, struct buf *out)
{
	struct sim_account	*a;
	struct json_object	*o;
	const char		*pn = sim_json_str(in, "pn"), *nt = sim_json_str(in, "notify");
	unsigned		 told = 0;
	int			 rc;

	if (pn == NULL || (a = sim_account_by_pn(s, pn)) == NULL)
		return sim_json_error(out, 404, "no such account");
	if (nt != NULL && strcmp(nt, "pn") != 0 && strcmp(nt, "lid") != 0)
		return sim_json_error(out, 400, "notify: pn or lid");
	if ((rc = sim_phone_reinstall(s, a)) != 0)
		return sim_json_error(out, 409, wc_strerror(rc));
	if (nt != NULL)
		told = sim_ident_notify(s, a, strcmp(nt, "lid") == 0);
	o = json_object_new_object();
	json_object_object_add(o, "ok", json_object_new_boolean(1));
	json_object_object_add(o, "registration_id",
	    json_object_new_int64(a->keys.reg_id));
	json_object_object_add(o, "notified", json_object_new_int64(told));
	return sim_json_reply(out, o, 200);
}

/* POST /admin/mock-phone/forget-sessions {pn}: PN's phone drops its
 * Signal sessions. */
static int
phone_forget(struct sim *s, struct json_object *in, struct buf *out)
{
	const char		*pn = sim_json_str(in, "pn");
	struct sim_account	*a;
	struct json_object	*o;

	if (pn == NULL)
		return sim_json_error(out, 400, "give {\"pn\"}");
	if ((a = sim_account_by_pn(s, pn)) == NULL)
		return sim_json_error(out, 404, "no such account");
	o = json_object_new_object();
	json_object_object_add(o, "forgotten",
	    json_object_new_int64(sim_phone_forget(a)));
	return sim_json_reply(out, o, 200);
}

/* GET /admin/mock-phone/inbox?pn=PN: what PN's phone received and sent. */
static int
phone_inbox(struct sim *s, const char *q, struct buf *out)
{
	char			 pn[SIM_PN_MAX];
	struct sim_account	*a;

	if (q == NULL || !query(q, "pn", pn, sizeof(pn)))
		return sim_json_error(out, 400, "give ?pn=PN");
	if ((a = sim_account_by_pn(s, pn)) == NULL)
		return sim_json_error(out, 404, "no such account");
	return sim_json_reply(out, sim_phone_json(a), 200);
}

/* GET /sw.js: a service-worker-like page carrying the version the way
 * protocol.md 3.3 says clients scrape it. */
/* One admin request, for the handlers of admin_routes[]. */
struct admin_call {
	const struct sim_http_req *req;
	const char		*rest;	/* the path after the route */
	struct json_object	*in;	/* the JSON body, or NULL */
	bool			 post;
};

static int
r_status(struct sim *s, const struct admin_call *a, struct buf *out)
{
	(void)a;
	return status(s, out);
}

static int
r_accounts(struct sim *s, const struct admin_call *a, struct buf *out)
{
	(void)a;
	return list_accounts(s, out);
}

static int
r_account_add(struct sim *s, const struct admin_call *a, struct buf *out)
{
	return add_account(s, a->in, false, out);
}

static int
r_contact_add(struct sim *s, const struct admin_call *a, struct buf *out)
{
	return add_account(s, a->in, true, out);
}

static int
r_device(struct sim *s, const struct admin_call *a, struct buf *out)
{
	return device(s, a->rest, a->in, a->post, out);
}

static int
r_phone_receipt(struct sim *s, const struct admin_call *a, struct buf *out)
{
	return phone_receipt(s, a->in, out);
}

static int
r_phone_send(struct sim *s, const struct admin_call *a, struct buf *out)
{
	return phone_send(s, a->in, out);
}

static int
r_phone_reinstall(struct sim *s, const struct admin_call *a,
    struct buf *out)
{
	return phone_reinstall(s, a->in, out);
}

static int
r_phone_forget(struct sim *s, const struct admin_call *a, struct buf *out)
{
	return phone_forget(s, a->in, out);
}

static int
r_phone_inbox(struct sim *s, const struct admin_call *a, struct buf *out)
{
	return phone_inbox(s, a->req->query, out);
}

static int
r_enter_code(struct sim *s, const struct admin_call *a, struct buf *out)
{
	return enter_code(s, a->in, out);
}

static int
r_messages(struct sim *s, const struct admin_call *a, struct buf *out)
{
	(void)a;
	return sim_json_reply(out, sim_route_json(s), 200);
}

static int
r_conns(struct sim *s, const struct admin_call *a, struct buf *out)
{
	(void)a;
	return list_conns(s, out);
}

static int
r_conn_action(struct sim *s, const struct admin_call *a, struct buf *out)
{
	return conn_action(s, a->rest, a->in, out);
}

static int
r_knobs_set(struct sim *s, const struct admin_call *a, struct buf *out)
{
	return knobs(s, a->in, out);
}

static int
r_knobs(struct sim *s, const struct admin_call *a, struct buf *out)
{
	(void)a;
	return sim_json_reply(out, knobs_json(s), 200);
}

static int
r_cert_chain(struct sim *s, const struct admin_call *a, struct buf *out)
{
	return cert_chain(s, a->req->query, out);
}

static bool
jbool(struct json_object *o, const char *key)
{
	struct json_object	*v;

	return o != NULL && json_object_object_get_ex(o, key, &v) &&
	    json_object_get_boolean(v);
}

/* POST /admin/profile/presence, /admin/profile/picture (profile.c). */
static int
r_profile(struct sim *s, const struct admin_call *a, struct buf *out)
{
	return sim_prof_admin(s, a->rest, a->in, out);
}

/* POST /admin/call (call.c). */
static int
r_call(struct sim *s, const struct admin_call *a, struct buf *out)
{
	struct sim_call_req	 rq = { sim_json_str(a->in, "from"), sim_json_str(a->in, "to"),
		sim_json_str(a->in, "group"), sim_json_str(a->in, "end"),
		jbool(a->in, "video"), jbool(a->in, "malformed"), 2000 };
	struct sim_call_res	 res;
	struct json_object	*o;
	const char		*why = "";
	int			 st;

	if (sim_json_str(a->in, "after_ms") != NULL && !jint(a->in, "after_ms",
	    &rq.after_ms))
		return sim_json_error(out, 400, "after_ms: a number");
	memset(&res, 0, sizeof(res));
	if ((st = sim_call_start(s, &rq, &res, &why)) != 0)
		return sim_json_error(out, st, why);
	o = json_object_new_object();
	json_object_object_add(o, "call_id",
	    json_object_new_string(res.call_id));
	json_object_object_add(o, "id", json_object_new_string(res.id));
	json_object_object_add(o, "devices",
	    json_object_new_int64(res.devices));
	return sim_json_reply(out, o, 200);
}

static int
r_shutdown(struct sim *s, const struct admin_call *a, struct buf *out)
{
	(void)a;
	sim_log(s, "shutdown requested by admin");
	sim_stop(s);
	return sim_json_reply(out, json_object_new_object(), 200);
}

#define A_GET	0x1
#define A_POST	0x2

/*
 * The routes under /admin/ (but groups, group.c, and history,
 * history.c): the methods each takes, its path (a prefix when it ends
 * with '/': the rest of the path goes to the handler) and its handler.
 */
static const struct admin_route {
	int		 methods;
	const char	*path;
	int		(*fn)(struct sim *, const struct admin_call *,
			    struct buf *);
} admin_routes[] = {
	{ A_GET, "status", r_status },
	{ A_GET, "accounts", r_accounts },
	{ A_POST, "accounts", r_account_add },
	{ A_POST, "contacts", r_contact_add },
	{ A_GET | A_POST, "devices/", r_device },
	{ A_POST, "mock-phone/receipt", r_phone_receipt },
	{ A_POST, "mock-phone/send", r_phone_send },
	{ A_POST, "mock-phone/reinstall", r_phone_reinstall },
	{ A_POST, "mock-phone/forget-sessions", r_phone_forget },
	{ A_GET, "mock-phone/inbox", r_phone_inbox },
	{ A_POST, "mock-phone/enter-code", r_enter_code },
	{ A_GET, "messages", r_messages },
	{ A_GET, "connections", r_conns },
	{ A_POST, "connections/", r_conn_action },
	{ A_POST, "knobs", r_knobs_set },
	{ A_GET, "knobs", r_knobs },
	{ A_GET, "cert-chain", r_cert_chain },
	{ A_POST, "call", r_call },
	{ A_POST, "profile/", r_profile },
	{ A_POST, "shutdown", r_shutdown },
};

/* Path p (after /admin/) with method m (A_GET or A_POST): its route's
 * answer, or 404. */
static int
admin_route(struct sim *s, struct admin_call *a, const char *p, int m,
    struct buf *out)
{
	const struct admin_route	*r;
	size_t				 i, n;

	for (i = 0; i < sizeof(admin_routes) / sizeof(admin_routes[0]); i++) {
		r = &admin_routes[i];
		n = strlen(r->path);
		if ((r->methods & m) == 0)
			continue;
		if (r->path[n - 1] == '/' ? strncmp(p, r->path, n) != 0 :
		    strcmp(p, r->path) != 0)
			continue;
		a->rest = p + (r->path[n - 1] == '/' ? n : 0);
		return r->fn(s, a, out);
	}
	return sim_json_error(out, 404, "no such route");
}

/* The JSON object of a POST body into *in (NULL without a body): 0, or
 * the status of the error written. */
static int
admin_body(const struct sim_http_req *req, struct json_object **in,
    struct buf *out)
{
	*in = NULL;
	if (req->body_len == 0)
		return 0;
	*in = json_tokener_parse((const char *)req->body);
	if (*in == NULL || !json_object_is_type(*in, json_type_object)) {
		json_object_put(*in);
		*in = NULL;
		return sim_json_error(out, 400, "the body is not a JSON object");
	}
	return 0;
}

static int
handle(void *arg, const struct sim_http_req *req, struct buf *out)
{
	struct sim		*s = arg;
	struct admin_call	 a;
	const char		*p = req->path;
	bool			 get = strcmp(req->method, "GET") == 0;
	bool			 post = strcmp(req->method, "POST") == 0;
	int			 st;

	if (get && (strcmp(p, "/sw.js") == 0 || strcmp(p, "/") == 0))
		return sim_loops_version_page(s, req, out);
	if (strncmp(p, "/admin/", 7) != 0)
		return sim_json_error(out, 404, "no such route");
	p += 7;
	if (post && strcmp(p, "mock-phone/scan-qr") == 0)
		return scan_qr(s, req, out);
	if (!get && !post)
		return sim_json_error(out, 405, "GET or POST");
	memset(&a, 0, sizeof(a));
	a.req = req;
	a.post = post;
	if (post && (st = admin_body(req, &a.in, out)) != 0)
		return st;
	if ((st = sim_group_admin(s, p, req->query, a.in, post, out)) == 0 &&
	    (st = sim_hist_admin(s, p, req->query, a.in, post, out)) == 0 &&
	    (st = sim_as_admin(s, p, req->query, a.in, post, out)) == 0 &&
	    (st = sim_media_admin(s, p, a.in, post, out)) == 0 &&
	    (st = sim_tok_admin(s, p, a.in, post, out)) == 0 &&
	    (st = sim_phone_media_admin(s, p, a.in, post, out)) == 0 &&
	    (st = sim_phone_kinds_admin(s, p, a.in, post, out)) == 0 &&
	    (st = sim_phone_poll_admin(s, p, a.in, post, out)) == 0 &&
	    (st = sim_loops_admin(s, p, a.in, post, out)) == 0)
		st = admin_route(s, &a, p, post ? A_POST : A_GET, out);
	json_object_put(a.in);
	return st;
}

int
sim_admin_start(struct sim *s)
{
	return sim_http_start(&s->loop, s->opt.host, s->opt.admin_port,
	    handle, s, &s->admin, &s->admin_port);
}
