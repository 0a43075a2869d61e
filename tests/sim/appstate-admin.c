/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/appstate-admin.c -- the admin routes of app state under
 * /admin/appstate (tests/sim/README.md): what an account's collections
 * hold (version, LTHash, the patches, the live records decoded), the
 * phone renaming a contact and muting, pinning, archiving or marking a
 * chat read (each a patch it authors, server_sync to the companions), the
 * faults (a spoiled patch or snapshot MAC, a key not yet shared, a
 * conflict, a snapshot over 1 MB) and the page and inline sizes.  Loop
 * thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "appstate.h"
#include "base/arena.h"
#include "base/err.h"
#include "nodes.h"
#include "sim.h"

static const char *const kind_names[WA_AS_ACT_NKIND] = {
	[WA_AS_ACT_UNKNOWN] = "unknown",
	[WA_AS_ACT_CONTACT] = "contact",
	[WA_AS_ACT_LID_CONTACT] = "lid_contact",
	[WA_AS_ACT_PUSH_NAME] = "push_name",
	[WA_AS_ACT_MUTE] = "mute",
	[WA_AS_ACT_PIN] = "pin",
	[WA_AS_ACT_ARCHIVE] = "archive",
	[WA_AS_ACT_MARK_READ] = "mark_read",
	[WA_AS_ACT_STAR] = "star",
	[WA_AS_ACT_DELETE_MSG_FOR_ME] = "delete_message_for_me",
	[WA_AS_ACT_CLEAR_CHAT] = "clear_chat",
	[WA_AS_ACT_DELETE_CHAT] = "delete_chat",
	[WA_AS_ACT_LOCK] = "lock",
	[WA_AS_ACT_UNARCHIVE_SETTING] = "unarchive_setting",
	[WA_AS_ACT_PN_FOR_LID] = "pn_for_lid",
	[WA_AS_ACT_USER_STATUS_MUTE] = "user_status_mute",
	[WA_AS_ACT_IGNORED] = "ignored",
};

static void
put_str(struct json_object *o, const char *key, const char *v)
{
	if (v != NULL)
		json_object_object_add(o, key, json_object_new_string(v));
}

struct json_object *
as_action_json(const struct wa_as_action *x)
{
	struct json_object	*o = json_object_new_object();
	enum wa_as_action_kind	 k = x->kind;

	put_str(o, "kind", k < WA_AS_ACT_NKIND ? kind_names[k] : "unknown");
	json_object_object_add(o, "ts_ms", json_object_new_int64(x->ts_ms));
	put_str(o, "chat", x->chat);
	put_str(o, "msg_id", x->msg_id);
	if (k == WA_AS_ACT_MUTE || k == WA_AS_ACT_PIN || k == WA_AS_ACT_ARCHIVE ||
	    k == WA_AS_ACT_MARK_READ || k == WA_AS_ACT_STAR ||
	    k == WA_AS_ACT_LOCK || k == WA_AS_ACT_UNARCHIVE_SETTING ||
	    k == WA_AS_ACT_USER_STATUS_MUTE)
		json_object_object_add(o, "flag",
		    json_object_new_boolean(x->flag));
	if (k == WA_AS_ACT_MUTE)
		json_object_object_add(o, "mute_end_ms",
		    json_object_new_int64(x->mute_end_ms));
	put_str(o, "full_name", x->full_name);
	put_str(o, "first_name", x->first_name);
	put_str(o, "lid", x->lid);
	put_str(o, "pn", x->pn);
	put_str(o, "push_name", x->push_name);
	if (x->range_last_s != 0)
		json_object_object_add(o, "range_last_s",
		    json_object_new_int64(x->range_last_s));
	return o;
}

/* --- the status --- */

static struct json_object *
hex_json(const uint8_t *p, size_t len)
{
	char	 h[2 * WA_AS_HASH_LEN + 1];

	sim_hex(p, len, h);
	return json_object_new_string(h);
}

static struct json_object *
coll_json(const struct as_coll *col, enum wa_as_coll c)
{
	struct json_object	*o = json_object_new_object(), *arr;
	size_t			 i;

	put_str(o, "name", wa_as_coll_name(c));
	json_object_object_add(o, "version",
	    json_object_new_int64((int64_t)col->st.version));
	json_object_object_add(o, "hash", hex_json(col->st.hash,
	    WA_AS_HASH_LEN));
	json_object_object_add(o, "snapshots",
	    json_object_new_int64((int64_t)col->snapshots));
	arr = json_object_new_array();
	for (i = 0; i < col->np; i++) {
		const struct as_patch	*p = &col->p[i];
		struct json_object	*x = json_object_new_object();

		json_object_object_add(x, "version",
		    json_object_new_int64((int64_t)p->version));
		put_str(x, "by", p->by);
		json_object_object_add(x, "mutations",
		    json_object_new_int64((int64_t)p->nmut));
		json_object_object_add(x, "bytes",
		    json_object_new_int64((int64_t)p->bytes.len));
		json_object_object_add(x, "bad_mac",
		    json_object_new_boolean(p->bad_mac));
		json_object_object_add(x, "external",
		    json_object_new_boolean(p->ext != NULL));
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "patches", arr);
	arr = json_object_new_array();
	for (i = 0; i < col->nr; i++) {
		const struct as_rec	*r = &col->r[i];
		struct json_object	*x = json_object_new_object();

		put_str(x, "index", r->index_json);
		json_object_object_add(x, "version",
		    json_object_new_int64((int64_t)r->version));
		put_str(x, "by", r->by);
		json_object_object_add(x, "key_id", hex_json(r->key_id,
		    r->key_id_len));
		if (r->action != NULL)
			json_object_object_add(x, "action",
			    json_object_get(r->action));
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "actions", arr);
	return o;
}

static struct json_object *
account_json(struct sim_account *a)
{
	struct sim_as		*as = a->as;
	struct json_object	*o = json_object_new_object(), *arr;
	size_t			 i;

	put_str(o, "pn", a->pn);
	arr = json_object_new_array();
	for (i = 0; i < as->nkeys; i++) {
		struct json_object	*x = json_object_new_object();

		json_object_object_add(x, "id", hex_json(as->keys[i].id,
		    AS_KEY_ID_LEN));
		json_object_object_add(x, "withheld",
		    json_object_new_boolean(as->keys[i].withheld));
		json_object_object_add(x, "asked",
		    json_object_new_int64(as->keys[i].asked));
		json_object_object_add(x, "current",
		    json_object_new_boolean(i + 1 == as->nkeys));
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "keys", arr);
	arr = json_object_new_array();
	for (i = 0; i < WA_AS_NCOLL; i++)
		json_object_array_add(arr, coll_json(&as->c[i],
		    (enum wa_as_coll)i));
	json_object_object_add(o, "collections", arr);
	json_object_object_add(o, "key_shares",
	    json_object_new_int64((int64_t)as->shares));
	json_object_object_add(o, "key_requests",
	    json_object_new_int64((int64_t)as->requests));
	json_object_object_add(o, "accepted",
	    json_object_new_int64((int64_t)as->accepted));
	json_object_object_add(o, "refused",
	    json_object_new_int64((int64_t)as->refused));
	json_object_object_add(o, "conflicts",
	    json_object_new_int64((int64_t)as->conflicts));
	json_object_object_add(o, "fetches",
	    json_object_new_int64((int64_t)as->fetches));
	json_object_object_add(o, "server_syncs",
	    json_object_new_int64((int64_t)as->notifications));
	arr = json_object_new_array();
	if (as->fault_patch_mac)
		json_object_array_add(arr, json_object_new_string("patch-mac"));
	if (as->fault_snapshot_mac)
		json_object_array_add(arr,
		    json_object_new_string("snapshot-mac"));
	if (as->fault_conflict)
		json_object_array_add(arr, json_object_new_string("conflict"));
	json_object_object_add(o, "faults_pending", arr);
	return o;
}

struct json_object *
sim_as_status_json(const struct sim *s)
{
	struct json_object	*o = json_object_new_object();
	const struct sim_account *a;
	uint64_t		 acc = 0, ref = 0, con = 0, sh = 0, ns = 0;

	for (a = s->accounts; a != NULL; a = a->next)
		if (a->as != NULL) {
			acc += a->as->accepted;
			ref += a->as->refused;
			con += a->as->conflicts;
			sh += a->as->shares;
			ns += a->as->notifications;
		}
	json_object_object_add(o, "page", json_object_new_int64(s->as_page > 0 ?
	    s->as_page : AS_PAGE_DEFAULT));
	json_object_object_add(o, "inline_max", json_object_new_int64(
	    (int64_t)(s->as_inline_max > 0 ? s->as_inline_max :
	    AS_INLINE_DEFAULT)));
	json_object_object_add(o, "accepted", json_object_new_int64((int64_t)acc));
	json_object_object_add(o, "refused", json_object_new_int64((int64_t)ref));
	json_object_object_add(o, "conflicts", json_object_new_int64((int64_t)con));
	json_object_object_add(o, "key_shares", json_object_new_int64((int64_t)sh));
	json_object_object_add(o, "server_syncs",
	    json_object_new_int64((int64_t)ns));
	return o;
}

/* --- what the phone does --- */

int
as_conflict(struct sim *s, struct sim_account *a, enum wa_as_coll c)
{
	struct wa_as_action	 x;
	const char		*why;
	char			 jid[SIM_PN_MAX + 32];
	static char		 status_chat[] = "status@broadcast";

	memset(&x, 0, sizeof(x));
	snprintf(jid, sizeof(jid), "%s@s.whatsapp.net", a->pn);
	switch (c) {
	case WA_AS_CRITICAL_BLOCK:
		x.kind = WA_AS_ACT_PUSH_NAME;
		x.push_name = a->name[0] != '\0' ? a->name : a->pn;
		break;
	case WA_AS_CRITICAL_UNBLOCK_LOW:
		x.kind = WA_AS_ACT_CONTACT;
		x.chat = jid;
		x.full_name = a->name[0] != '\0' ? a->name : a->pn;
		break;
	case WA_AS_REGULAR_HIGH:
		x.kind = WA_AS_ACT_MUTE;
		x.chat = status_chat;
		break;
	case WA_AS_REGULAR_LOW:
		x.kind = WA_AS_ACT_PIN;
		x.chat = status_chat;
		break;
	default:
		return WC_ESTATE;
	}
	return as_author(s, a, c, &x, NULL, 1, &why);
}

/* The mute value v: "always", "off", "+SECONDS" from now, or an end
 * time in ms; into x.  false when v is none of them. */
static bool
mute_value(const char *v, struct wa_as_action *x)
{
	char		*end;
	long long	 n;

	if (v == NULL || strcmp(v, "always") == 0) {
		x->flag = true;
		x->mute_end_ms = -1;
		return true;
	}
	if (strcmp(v, "off") == 0) {
		x->flag = false;
		return true;
	}
	errno = 0;
	n = strtoll(v + (v[0] == '+'), &end, 10);
	if (errno != 0 || *end != '\0' || end == v + (v[0] == '+') || n <= 0)
		return false;
	x->flag = true;
	x->mute_end_ms = v[0] == '+' ? (long long)time(NULL) * 1000 + n * 1000 :
	    n;
	return true;
}

/* POST /admin/appstate/{contact,mute,pin,archive,read,star}: kind of
 * action (route what) for pn's chat (or contact jid), value or name (a
 * star's message id and from_me) from in. */
static int
phone_action(struct sim *s, struct sim_account *a, const char *what,
    struct json_object *in, struct buf *out)
{
	struct wa_as_action	 x;
	const char		*chat = sim_json_str(in, "chat");
	const char		*v = sim_json_str(in, "value");
	const char		*why;
	char			 first[SIM_NAME_MAX];
	int			 c;

	memset(&x, 0, sizeof(x));
	if (chat == NULL)
		chat = sim_json_str(in, "jid");
	if (chat == NULL || strchr(chat, '@') == NULL)
		return sim_json_error(out, 400, "give chat (a JID)");
	x.chat = (char *)chat;
	if (strcmp(what, "contact") == 0) {
		const char	*name = sim_json_str(in, "name");

		if (name == NULL || name[0] == '\0')
			return sim_json_error(out, 400, "give name");
		x.kind = WA_AS_ACT_CONTACT;
		x.full_name = (char *)name;
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(name, " "),
		    name);
		x.first_name = first;
	} else if (strcmp(what, "mute") == 0) {
		x.kind = WA_AS_ACT_MUTE;
		if (!mute_value(v, &x))
			return sim_json_error(out, 400, "value: always, off, "
			    "+SECONDS or an end time in ms");
	} else {
		x.kind = strcmp(what, "pin") == 0 ? WA_AS_ACT_PIN :
		    strcmp(what, "archive") == 0 ? WA_AS_ACT_ARCHIVE :
		    strcmp(what, "star") == 0 ? WA_AS_ACT_STAR :
		    WA_AS_ACT_MARK_READ;
		x.msg_id = sim_json_str(in, "id");
		x.from_me = sim_json_str(in, "from_me") != NULL &&
		    strcmp(sim_json_str(in, "from_me"), "1") == 0;
		if (x.kind == WA_AS_ACT_STAR && (x.msg_id == NULL ||
		    x.msg_id[0] == '\0'))
			return sim_json_error(out, 400, "give id");
		if (v != NULL && strcmp(v, "on") != 0 && strcmp(v, "off") != 0)
			return sim_json_error(out, 400, "value: on or off");
		x.flag = v == NULL || strcmp(v, "on") == 0;
	}
	c = wa_as_action_coll(x.kind);
	if (as_author(s, a, (enum wa_as_coll)c, &x, NULL, 1, &why) != 0)
		return sim_json_error(out, 500, why);
	return sim_json_reply(out, account_json(a), 200);
}

/* The big-snapshot fault: AS_BIG_CONTACTS address-book entries of
 * numbers no account has, in one patch. */
static int
big_snapshot(struct sim *s, struct sim_account *a, const char **why)
{
	struct wa_as_action	*x = calloc(AS_BIG_CONTACTS, sizeof(*x));
	struct arena		 ar;
	char			 b[96];
	size_t			 i;
	int			 rc;

	if (x == NULL)
		return -ENOMEM;
	arena_init(&ar, 0);
	for (i = 0; i < AS_BIG_CONTACTS; i++) {
		x[i].kind = WA_AS_ACT_CONTACT;
		snprintf(b, sizeof(b), "1555800%04zu@s.whatsapp.net", i);
		x[i].chat = sn_strdup(&ar, b);
		snprintf(b, sizeof(b), "Bulk Contact %zu of the address book "
		    "imported from an old phone", i);
		x[i].full_name = sn_strdup(&ar, b);
		x[i].first_name = sn_strdup(&ar, "Bulk");
	}
	rc = as_author(s, a, WA_AS_CRITICAL_UNBLOCK_LOW, x, NULL,
	    AS_BIG_CONTACTS, why);
	arena_release(&ar);
	free(x);
	return rc;
}

/* POST /admin/appstate/fault {pn, kind}. */
static int
fault(struct sim *s, struct sim_account *a, struct json_object *in,
    struct buf *out)
{
	struct sim_as	*as = a->as;
	const char	*kind = sim_json_str(in, "kind");
	const char	*why = NULL;

	if (kind == NULL)
		kind = "";
	if (strcmp(kind, "patch-mac") == 0)
		as->fault_patch_mac = true;
	else if (strcmp(kind, "snapshot-mac") == 0)
		as->fault_snapshot_mac = true;
	else if (strcmp(kind, "conflict") == 0)
		as->fault_conflict = true;
	else if (strcmp(kind, "new-key") == 0) {
		if (as_key_new(as, true) == NULL)
			return sim_json_error(out, 409, "the phone holds as many "
			    "keys as it may");
	} else if (strcmp(kind, "big-snapshot") == 0) {
		if (big_snapshot(s, a, &why) != 0)
			return sim_json_error(out, 500, why != NULL ? why :
			    "out of memory");
	} else
		return sim_json_error(out, 400, "kind: patch-mac, snapshot-mac, "
		    "new-key, conflict or big-snapshot");
	sim_log(s, "appstate %s: fault %s", a->pn, kind);
	return sim_json_reply(out, account_json(a), 200);
}

/* POST /admin/appstate/settings {page?, inline_max?}. */
static int
settings(struct sim *s, struct json_object *in, struct buf *out)
{
	int64_t	 v;
	int	 rc;

	if ((rc = sim_json_num(in, "page", &v)) < 0 || (rc == 1 &&
	    (v < 1 || v > 10000)))
		return sim_json_error(out, 400, "page: 1-10000 patches");
	if (rc == 1)
		s->as_page = (unsigned)v;
	if ((rc = sim_json_num(in, "inline_max", &v)) < 0 || (rc == 1 &&
	    (v < 1 || v > (64 << 20))))
		return sim_json_error(out, 400, "inline_max: 1-67108864 bytes");
	if (rc == 1)
		s->as_inline_max = (size_t)v;
	return sim_json_reply(out, sim_as_status_json(s), 200);
}

int
sim_as_admin(struct sim *s, const char *path, const char *q,
    struct json_object *in, bool post, struct buf *out)
{
	struct sim_account	*a;
	const char		*p;
	char			 pn[SIM_PN_MAX];

	if (strncmp(path, "appstate", 8) != 0 || (path[8] != '\0' &&
	    path[8] != '/'))
		return 0;
	path += 8;
	if (!post && strcmp(path, "/status") == 0)
		return sim_json_reply(out, sim_as_status_json(s), 200);
	if (post && strcmp(path, "/settings") == 0)
		return settings(s, in, out);
	if (post) {
		p = sim_json_str(in, "pn");
		snprintf(pn, sizeof(pn), "%s", p != NULL ? p : "");
	} else if (!sim_query(q, "pn", pn, sizeof(pn)))
		return sim_json_error(out, 400, "give ?pn=PN");
	if ((a = sim_account_by_pn(s, pn)) == NULL || a->contact)
		return sim_json_error(out, 404, "no such account");
	(void)as_get(s, a);
	if (!post && path[0] == '\0')
		return sim_json_reply(out, account_json(a), 200);
	if (post && strcmp(path, "/fault") == 0)
		return fault(s, a, in, out);
	if (post && (strcmp(path, "/contact") == 0 ||
	    strcmp(path, "/mute") == 0 || strcmp(path, "/pin") == 0 ||
	    strcmp(path, "/archive") == 0 || strcmp(path, "/read") == 0 ||
	    strcmp(path, "/star") == 0))
		return phone_action(s, a, path + 1, in, out);
	return sim_json_error(out, 404, "no such route");
}
