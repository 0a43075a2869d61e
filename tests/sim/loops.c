/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/loops.c -- what shows a client's endless loops (issue 16,
 * tests/sim/README.md): the count of registrations and logins, the
 * <failure>s sent, a switch that answers the next logins with a
 * <failure reason> the sim does not otherwise send, and the version page
 * (GET / and GET /sw.js on the admin port) that answers like a bot check
 * when the request lacks what a browser sends ([BL] generics
 * fetchLatestWaWebVersion: sec-fetch-site and a browser's User-Agent are
 * "the minimal headers required to bypass anti-bot detection"), keeping
 * the last requests' headers for the tests.  Loop thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "http.h"
#include "sim.h"

#define RING	(sizeof(((struct sim *)0)->version_reqs) / \
	sizeof(((struct sim *)0)->version_reqs[0]))

uint32_t
sim_loops_payload(struct sim *s, bool reg)
{
	if (reg) {
		s->nregistrations++;
		return 0;
	}
	s->nlogins++;
	if (s->fail_left == 0)
		return 0;
	s->fail_left--;
	return s->fail_reason;
}

void
sim_loops_failure(struct sim *s, int reason)
{
	s->nfailures++;
	if (reason == 405)
		s->nfail_405++;
	else if (reason == 500)
		s->nfail_500++;
}

/* --- the version page --- */

static void
hdr(const struct sim_http_req *req, const char *name, char *val, size_t len)
{
	if (sim_http_header(req, name, val, len) == NULL)
		val[0] = '\0';
}

int
sim_loops_version_page(struct sim *s, const struct sim_http_req *req,
    struct buf *out)
{
	struct sim_version_req	*r = &s->version_reqs[s->nversion_reqs %
				    RING];
	bool			 sw = strcmp(req->path, "/sw.js") == 0;
	char			 txt[768];
	int			 n;

	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", req->path);
	hdr(req, "User-Agent", r->ua, sizeof(r->ua));
	hdr(req, "Sec-Fetch-Dest", r->sf_dest, sizeof(r->sf_dest));
	hdr(req, "Sec-Fetch-Mode", r->sf_mode, sizeof(r->sf_mode));
	hdr(req, "Sec-Fetch-Site", r->sf_site, sizeof(r->sf_site));
	hdr(req, "Sec-Fetch-User", r->sf_user, sizeof(r->sf_user));
	hdr(req, "Accept", r->accept, sizeof(r->accept));
	hdr(req, "Accept-Language", r->accept_lang, sizeof(r->accept_lang));
	r->bot_check = r->sf_site[0] == '\0' ||
	    strncmp(r->ua, "Mozilla/5.0 ", 12) != 0;
	s->nversion_reqs++;
	s->nversion_pages++;
	sim_log(s, "version page %s: %s (Sec-Fetch-Site %s)", r->path,
	    r->bot_check ? "bot check" : "the version",
	    r->sf_site[0] != '\0' ? r->sf_site : "absent");
	if (r->bot_check) {
		/* what a bot check answers: a page, but no version in it */
		s->nbot_checks++;
		n = snprintf(txt, sizeof(txt), "<!DOCTYPE html><html><head>"
		    "<title>WhatsApp</title></head><body><p>Checking your "
		    "browser (wachat-sim: a request without a browser's "
		    "Sec-Fetch-Site and User-Agent)</p></body></html>\n");
		buf_append(out, txt, (size_t)n);
		return 200 | (sw ? SIM_HTTP_JS : SIM_HTTP_HTML);
	}
	if (sw)
		n = snprintf(txt, sizeof(txt),
		    "/* wachat-sim: the current WhatsApp Web version */\n"
		    "self.__swData=JSON.parse(/*BTDS*/\"{\\\"dynamic_data\\\":"
		    "{\\\"SiteData\\\":{\\\"server_revision\\\":%u,"
		    "\\\"client_revision\\\":%u}}}\");\n"
		    "var config={\"client_revision\":%u,\"version\":"
		    "\"2.3000.%u\"};\n", s->sw_revision, s->sw_revision,
		    s->sw_revision, s->sw_revision);
	else	/* the page: the form [WM]'s "client_revision":(\d+), reads */
		n = snprintf(txt, sizeof(txt), "<!DOCTYPE html><html><head>"
		    "<title>WhatsApp</title><script>window.__wa={"
		    "\"server_revision\":%u,\"client_revision\":%u,"
		    "\"hsdp\":0};</script></head><body></body></html>\n",
		    s->sw_revision, s->sw_revision);
	buf_append(out, txt, (size_t)n);
	return 200 | (sw ? SIM_HTTP_JS : SIM_HTTP_HTML);
}

/* --- admin --- */

static struct json_object *
u64(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

struct json_object *
sim_loops_status_json(const struct sim *s)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "registrations", u64(s->nregistrations));
	json_object_object_add(o, "logins", u64(s->nlogins));
	json_object_object_add(o, "failures", u64(s->nfailures));
	json_object_object_add(o, "failures_405", u64(s->nfail_405));
	json_object_object_add(o, "failures_500", u64(s->nfail_500));
	json_object_object_add(o, "login_failure_left", u64(s->fail_left));
	json_object_object_add(o, "version_pages", u64(s->nversion_pages));
	json_object_object_add(o, "bot_checks", u64(s->nbot_checks));
	return o;
}

static struct json_object *
version_req_json(const struct sim_version_req *r)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "path", json_object_new_string(r->path));
	json_object_object_add(o, "user_agent", json_object_new_string(r->ua));
	json_object_object_add(o, "sec_fetch_dest",
	    json_object_new_string(r->sf_dest));
	json_object_object_add(o, "sec_fetch_mode",
	    json_object_new_string(r->sf_mode));
	json_object_object_add(o, "sec_fetch_site",
	    json_object_new_string(r->sf_site));
	json_object_object_add(o, "sec_fetch_user",
	    json_object_new_string(r->sf_user));
	json_object_object_add(o, "accept", json_object_new_string(r->accept));
	json_object_object_add(o, "accept_language",
	    json_object_new_string(r->accept_lang));
	json_object_object_add(o, "bot_check",
	    json_object_new_boolean(r->bot_check));
	return o;
}

/* GET version-lookups: the last requests of the version page, oldest
 * first. */
static int
version_lookups(struct sim *s, struct buf *out)
{
	struct json_object	*o = json_object_new_object();
	struct json_object	*a = json_object_new_array();
	unsigned		 n = s->nversion_reqs, i, first;

	first = n > RING ? n - (unsigned)RING : 0;
	for (i = first; i < n; i++)
		json_object_array_add(a,
		    version_req_json(&s->version_reqs[i % RING]));
	json_object_object_add(o, "requests", a);
	json_object_object_add(o, "count", u64(s->nversion_pages));
	return sim_json_reply(out, o, 200);
}

/* POST login-failure {reason, count?}: the next count logins (1 unless
 * given) get <failure reason/>; count 0 turns it off. */
static int
login_failure(struct sim *s, struct json_object *in, bool post,
    struct buf *out)
{
	struct json_object	*v, *o;
	int64_t			 reason = 0, count = 1;

	if (post) {
		if (in == NULL || !json_object_object_get_ex(in, "reason", &v))
			return sim_json_error(out, 400, "reason is required");
		reason = json_object_get_int64(v);
		if (json_object_object_get_ex(in, "count", &v))
			count = json_object_get_int64(v);
		if (reason < 1 || reason > 999 || count < 0 ||
		    count > 1000000)
			return sim_json_error(out, 400, "reason 1..999, count "
			    "0..1000000");
		s->fail_reason = (uint32_t)reason;
		s->fail_left = (uint32_t)count;
		sim_log(s, "the next %u logins get failure %u", s->fail_left,
		    s->fail_reason);
	}
	o = json_object_new_object();
	json_object_object_add(o, "reason", u64(s->fail_reason));
	json_object_object_add(o, "count", u64(s->fail_left));
	return sim_json_reply(out, o, 200);
}

int
sim_loops_admin(struct sim *s, const char *path, struct json_object *in,
    bool post, struct buf *out)
{
	if (strcmp(path, "login-failure") == 0)
		return login_failure(s, in, post, out);
	if (!post && strcmp(path, "version-lookups") == 0)
		return version_lookups(s, out);
	return 0;
}
