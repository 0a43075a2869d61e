/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/ctl.c -- `wachat-sim ctl`: the admin interface from the
 * command line, through libcurl.  Prints the JSON answer on stdout; exits
 * 0 on a 2xx answer, 1 on another answer, 2 on a usage error and 3 when
 * the sim cannot be reached.
 */
#include "base/compat.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "base/buf.h"
#include "sim.h"

static void
ctl_usage(FILE *f)
{
	fputs(
"Usage: wachat-sim ctl [--admin URL] COMMAND [ARG]...\n"
"Talk to a running wachat-sim's admin interface (URL: http://127.0.0.1:PORT,\n"
"or $WACHAT_SIM_ADMIN).  Commands:\n"
"  status                          ports, keys and counters\n"
"  accounts                        accounts and contacts\n"
"  account PN [LID [NAME]]         create an account\n"
"  contact PN [LID [NAME [OF]]] [--echo] [--chatty S]\n"
"                                  create a contact (of the account OF); with\n"
"                                  --echo (or named Echo) its phone answers\n"
"                                  every text with \"echo: TEXT\"; with\n"
"                                  --chatty S it writes to OF every S seconds\n"
"                                  while OF has a linked companion\n"
"  device JID                      what the sim holds for a device\n"
"  connections                     live connections\n"
"  drop ID                         close a connection (ID: number, last, all)\n"
"  stream-error ID CODE            send <stream:error code=CODE/>, close\n"
"  failure ID REASON               send <failure reason=REASON/>, close\n"
"  reg-refresh ID [CHILD]          send companion_reg_refresh to an unpaired\n"
"                                  client (CHILD: companion_reg_refresh or\n"
"                                  pair-device-rotate-qr)\n"
"  use-prekeys JID N               hand N one-time prekeys of a device out\n"
"  remove-device JID               unlink a companion (devices notification)\n"
"  messages                        every stanza routed (messages, receipts)\n"
"  phone-receipt PN TO ID [TYPE]   PN's phone sends a receipt for message ID\n"
"                                  to TO (a JID), e.g. TYPE read\n"
"  phone-send PN TO TEXT [QUOTED-ID]  PN's phone sends TEXT (a reply to\n"
"                                  QUOTED-ID) to the user JID TO\n"
"  phone-react PN TO ID EMOJI      PN's phone reacts to message ID of TO\n"
"  phone-inbox PN                  what PN's phone received and sent\n"
"  phone-forget PN                 PN's phone drops its Signal sessions\n"
"  group-create SUBJECT [--pn] [--creator PN] MEMBER...\n"
"                                  create a group (MEMBER: a PN, or sim:N for\n"
"                                  N new simulated contacts; LID-addressed\n"
"                                  unless --pn); the creator's phone acts\n"
"  groups                          every group\n"
"  group-info GROUP                a group (GROUP: its id or JID)\n"
"  group-add GROUP MEMBER...       the creator adds members (notified)\n"
"  group-remove GROUP PN...        the creator removes members (notified)\n"
"  group-promote GROUP PN...       the creator makes them admins\n"
"  group-demote GROUP PN...        ... or not\n"
"  group-subject GROUP SUBJECT     the creator sets the subject\n"
"  group-delivery GROUP ID         which member phones read message ID\n"
"  phone-group-send PN GROUP TEXT  PN's phone sends TEXT to the group\n"
"  group-inbox PN [GROUP]          the group messages PN's phone read\n"
"  phone-reinstall PN              PN's phone gets a new identity and keys\n"
"  phone-reinstall PN pn|lid       ... and the server tells the others\n"
"  cut ID BYTES                    send only BYTES bytes of the next\n"
"                                  <message> frame to connection ID (a\n"
"                                  number or the device JID), then close\n"
"  malformed ID KIND               send a malformed frame: truncated,\n"
"                                  oversized, garbage, undecryptable\n"
"  knobs [NAME=VALUE]...           show or set malformed_next, cert_fault,\n"
"                                  min_version, sw_revision, reg_refresh_pct,\n"
"                                  group_flip (the next N group messages name\n"
"                                  their sender in the other namespace),\n"
"                                  clock_ms (the server's clock, ms ahead of\n"
"                                  the real one, negative: behind; stamps t)\n"
"                                  silent_next (none, handshake: the next\n"
"                                  connection answers nothing after its\n"
"                                  handshake, login: after its <success>),\n"
"                                  drop_pair_sign (1: the next answer to\n"
"                                  pair-success drops its connection, the\n"
"                                  device not accepted)\n"
"  cert-chain [FAULT]              the certificate chain, in parts\n"
"  scan-qr QR|- [PN]               scan a QR code as PN's phone (- = stdin)\n"
"  dry-scan-qr QR|- [PN]           check a QR code, pair nothing\n"
"  enter-code CODE [PN]            enter a link code on the phone (6.7)\n"
"  sw-js                           the /sw.js page (the current version)\n"
"  history-set PN CHATS MESSAGES [SEED [CHUNK]]\n"
"                                  give PN's phone a generated history\n"
"  history PN                      its summary and chat list\n"
"  history-chat PN CHAT [OFFSET [LIMIT]]  a chat's messages, oldest first\n"
"  history-send PN [DEVICE]        send the history (again) to PN's\n"
"                                  companions (or DEVICE) now\n"
"  history-fault PN KIND [DEVICE]  send a faulty blob: corrupt, bomb, nest,\n"
"                                  gone\n"
"  history-blobs                   every blob on the media host\n"
"  history-status                  the history counters\n"
"  history-media-delay MS          the media host waits MS ms before each\n"
"                                  answer\n"
"  media-send PN TO TYPE [FILE] [--KEY VALUE]...\n"
"                                  PN's phone sends TYPE (image, video,\n"
"                                  ptv, audio, document, sticker) from FILE\n"
"                                  (a document: made when none) to TO; KEYs:\n"
"                                  caption, width, height, seconds, pages,\n"
"                                  file_name, mimetype, thumbnail (a JPEG\n"
"                                  file), ptt, gif (a video: true or false)\n"
"  media                           uploads, media messages, media blobs\n"
"  media-expire PATH|ID [404|410]  the blob (of media message ID) answers\n"
"                                  404 (or 410) from now on\n"
"  media-settings AUTH_TTL [MAX_BYTES [UPLOAD_DELAY_MS]]  the media_conn\n"
"                                  auth's lifetime in s, the upload cap in\n"
"                                  bytes, the wait before an upload's answer\n"
"  appstate PN                     PN's app state: keys, collections (version,\n"
"                                  hash, patches, decoded actions)\n"
"  appstate-contact PN JID NAME    the phone renames a contact\n"
"  appstate-mute PN CHAT [always|off|+SECONDS|END_MS]\n"
"                                  the phone mutes a chat (always)\n"
"  appstate-pin PN CHAT [on|off]   the phone pins a chat (on)\n"
"  appstate-archive PN CHAT [on|off]  ... archives it\n"
"  appstate-read PN CHAT [on|off]  ... marks it read (off: unread)\n"
"  appstate-star PN CHAT ID [on|off]  ... stars chat's message ID (not\n"
"                                  ours, in a 1:1 chat)\n"
"  appstate-fault PN KIND          patch-mac, snapshot-mac, new-key,\n"
"                                  conflict or big-snapshot\n"
"  appstate-settings PAGE [INLINE_MAX]  patches per answer, bytes of\n"
"                                  mutations served inline\n"
"  appstate-status                 the app-state counters\n"
"  call FROM TO [--video] [--group G] [--end REASON] [--after MS]\n"
"       [--malformed]              FROM's phone calls TO's companions;\n"
"                                  after MS ms (2000) the call ends: REASON\n"
"                                  timeout (default), accepted_elsewhere,\n"
"                                  rejected_elsewhere, hangup or none\n"
"  shutdown                        stop the sim\n", f);
}

static size_t
collect(char *p, size_t size, size_t n, void *arg)
{
	buf_append(arg, p, size * n);
	return size * n;
}

static int
request(const char *base, const char *method, const char *path,
    const char *body, const char *ctype)
{
	CURL			*curl;
	struct curl_slist	*hdrs = NULL;
	struct buf		 out = BUF_INIT, url = BUF_INIT;
	long			 status = 0;
	CURLcode		 cc;
	int			 rc;

	buf_append(&url, base, strlen(base));
	while (url.len > 0 && url.p[url.len - 1] == '/')
		url.len--;
	buf_append(&url, path, strlen(path) + 1);
	if ((curl = curl_easy_init()) == NULL)
		return 3;
	curl_easy_setopt(curl, CURLOPT_URL, (char *)url.p);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	if (strcmp(path, "/sw.js") == 0) {
		/* the version page as a browser gets it: the sim answers a
		 * bot check without Sec-Fetch-Site (loops.c) */
		hdrs = curl_slist_append(hdrs, "Sec-Fetch-Site: none");
		curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
		curl_easy_setopt(curl, CURLOPT_USERAGENT, "Mozilla/5.0 (X11; "
		    "Linux x86_64) wachat-sim-ctl");
	}
	if (strcmp(method, "POST") == 0) {
		char	 ct[64];

		snprintf(ct, sizeof(ct), "Content-Type: %s", ctype);
		hdrs = curl_slist_append(hdrs, ct);
		hdrs = curl_slist_append(hdrs, "Expect:");
		curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
		curl_easy_setopt(curl, CURLOPT_POST, 1L);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body != NULL ? body :
		    "");
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE,
		    (long)(body != NULL ? strlen(body) : 0));
	}
	cc = curl_easy_perform(curl);
	if (cc != CURLE_OK) {
		fprintf(stderr, "wachat-sim ctl: %s: %s\n", (char *)url.p,
		    curl_easy_strerror(cc));
		rc = 3;
	} else {
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
		fwrite(out.p, 1, out.len, stdout);
		rc = status >= 200 && status < 300 ? 0 : 1;
		if (rc != 0)
			fprintf(stderr, "wachat-sim ctl: HTTP %ld\n", status);
	}
	curl_slist_free_all(hdrs);
	curl_easy_cleanup(curl);
	buf_release(&out);
	buf_release(&url);
	return rc;
}

static int
post_json(const char *base, const char *path, struct json_object *o)
{
	int	 rc = request(base, "POST", path,
	    json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
	    "application/json");

	json_object_put(o);
	return rc;
}

static void
add_str(struct json_object *o, const char *key, const char *v)
{
	if (v != NULL)
		json_object_object_add(o, key, json_object_new_string(v));
}

static int
int_arg(const char *s, long long *out)
{
	char	*end;

	*out = strtoll(s, &end, 10);
	return end != s && *end == '\0' ? 0 : -1;
}

/* Read all of stdin into a NUL-terminated string (caller frees). */
static char *
read_stdin(void)
{
	struct buf	 b = BUF_INIT;
	char		 tmp[4096];
	size_t		 n;

	while ((n = fread(tmp, 1, sizeof(tmp), stdin)) > 0)
		buf_append(&b, tmp, n);
	buf_push(&b, '\0');
	return (char *)b.p;
}

/*
 * One command of `wachat-sim ctl`: its name, how many words it takes
 * (the name counted; max -1: no bound), its handler, and what a shared
 * handler needs: the route (path, then argv[1] and suffix when suffix is
 * not NULL) and the JSON members the following words go to.
 */
struct ctl_cmd {
	const char	*name;
	int		 min, max;
	int		(*fn)(const struct ctl_cmd *, const char *, int,
			    char **);
	const char	*path;
	const char	*suffix;
	const char	*keys[4];
};

/* The route of c for argv: c->path, or c->path argv[1] c->suffix. */
static void
route(const struct ctl_cmd *c, char **argv, char *out, size_t len)
{
	if (c->suffix != NULL)
		snprintf(out, len, "%s%s%s", c->path, argv[1], c->suffix);
	else
		snprintf(out, len, "%s", c->path);
}

/* GET the route. */
static int
get_route(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	char	 path[512];

	(void)argc;
	route(c, argv, path, sizeof(path));
	return request(base, "GET", path, NULL, NULL);
}

/* POST {keys[0]: word, keys[1]: word, ...} to the route: the words after
 * the name (after argv[1] when it is part of the route). */
static int
post_words(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	struct json_object	*o = json_object_new_object();
	char			 path[512];
	int			 i, first = c->suffix != NULL ? 2 : 1;

	for (i = first; i < argc; i++)
		add_str(o, c->keys[i - first], argv[i]);
	route(c, argv, path, sizeof(path));
	return post_json(base, path, o);
}

/* POST {keys[0]: N} to the route, N the number argv[2]. */
static int
post_num(const struct ctl_cmd *c, const char *base, char **argv,
    long long v)
{
	struct json_object	*o = json_object_new_object();
	char			 path[512];

	route(c, argv, path, sizeof(path));
	json_object_object_add(o, c->keys[0], json_object_new_int64(v));
	return post_json(base, path, o);
}

/* stream-error ID CODE, failure ID REASON. */
static int
post_number(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	long long	 v;

	(void)argc;
	if (int_arg(argv[2], &v) != 0) {
		fprintf(stderr, "wachat-sim ctl: %s: not a number\n", argv[2]);
		return 2;
	}
	return post_num(c, base, argv, v);
}

/* use-prekeys JID N. */
static int
post_count(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	long long	 v;

	(void)argc;
	if (int_arg(argv[2], &v) != 0 || v < 0) {
		fprintf(stderr, "wachat-sim ctl: %s: not a count\n", argv[2]);
		return 2;
	}
	return post_num(c, base, argv, v);
}

/* cut ID BYTES: BYTES as strtoll reads it (the sim refuses bad ones). */
static int
post_bytes(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	(void)argc;
	return post_num(c, base, argv, strtoll(argv[2], NULL, 10));
}

/* shutdown: POST with an empty body. */
static int
post_empty(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return request(base, "POST", c->path, NULL, "application/json");
}

/* phone-react PN TO ID EMOJI ("-" takes the reaction back). */
static int
phone_react(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	struct json_object	*o = json_object_new_object();

	(void)argc;
	add_str(o, "from_pn", argv[1]);
	add_str(o, "to", argv[2]);
	add_str(o, "react_to", argv[3]);
	add_str(o, "emoji", strcmp(argv[4], "-") == 0 ? "" : argv[4]);
	return post_json(base, c->path, o);
}

/* POST an account or contact {echo?, chatty_s?, pn, lid?, name?, of?}. */
static int
post_person(const struct ctl_cmd *c, const char *base, int argc,
    char **argv, bool echo, long long chatty)
{
	struct json_object	*o = json_object_new_object();

	if (echo)
		json_object_object_add(o, "echo",
		    json_object_new_boolean(true));
	if (chatty > 0)
		json_object_object_add(o, "chatty_s",
		    json_object_new_int64(chatty));
	add_str(o, "pn", argv[1]);
	add_str(o, "lid", argc > 2 ? argv[2] : NULL);
	add_str(o, "name", argc > 3 ? argv[3] : NULL);
	add_str(o, "of", argc > 4 ? argv[4] : NULL);
	return post_json(base, c->path, o);
}

/* account PN [LID [NAME]]. */
static int
account(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	return post_person(c, base, argc, argv, false, 0);
}

/* contact PN [LID [NAME [OF]]] [--echo] [--chatty S]. */
static int
contact(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	long long	 chatty = 0;
	bool		 echo = false;

	if (argc >= 3 && strcmp(argv[argc - 2], "--chatty") == 0) {
		if (int_arg(argv[argc - 1], &chatty) != 0 || chatty < 1) {
			fprintf(stderr, "wachat-sim ctl: --chatty %s: not a "
			    "number of seconds\n", argv[argc - 1]);
			return 2;
		}
		argc -= 2;
	}
	if (argc >= 2 && strcmp(argv[argc - 1], "--echo") == 0) {
		echo = true;
		argc--;
	}
	if (argc < 2 || argc > 5) {
		ctl_usage(stderr);
		return 2;
	}
	return post_person(c, base, argc, argv, echo, chatty);
}

/* knobs [NAME=VALUE]...: GET without words, else POST them. */
static int
knobs(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	struct json_object	*o;
	int			 i;

	if (argc == 1)
		return request(base, "GET", c->path, NULL, NULL);
	o = json_object_new_object();
	for (i = 1; i < argc; i++) {
		char	*eq = strchr(argv[i], '=');

		if (eq == NULL) {
			json_object_put(o);
			ctl_usage(stderr);
			return 2;
		}
		*eq = '\0';
		add_str(o, argv[i], eq + 1);
	}
	return post_json(base, c->path, o);
}

/* cert-chain [FAULT]. */
static int
cert_chain(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	char	 path[512];

	snprintf(path, sizeof(path), "%s%s%s", c->path, argc == 2 ?
	    "?fault=" : "", argc == 2 ? argv[1] : "");
	return request(base, "GET", path, NULL, NULL);
}

/* scan-qr and dry-scan-qr QR|- [PN]. */
static int
scan(const char *base, int argc, char **argv, bool dry)
{
	char	 path[128];
	char	*qr = NULL;
	int	 rc;

	if (argc < 2 || argc > 3) {
		ctl_usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "-") == 0)
		qr = read_stdin();
	snprintf(path, sizeof(path), "/admin/mock-phone/scan-qr?pn=%s%s",
	    argc == 3 ? argv[2] : "", dry ? "&dry_run=1" : "");
	rc = request(base, "POST", path, qr != NULL ? qr : argv[1],
	    "text/plain");
	free(qr);
	return rc;
}

static int
scan_qr(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	(void)c;
	return scan(base, argc, argv, false);
}

static int
dry_scan_qr(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	(void)c;
	return scan(base, argc, argv, true);
}

/* group-delivery GROUP ID. */
static int
group_delivery(const struct ctl_cmd *c, const char *base, int argc,
    char **argv)
{
	char	 path[512];

	(void)c;
	(void)argc;
	snprintf(path, sizeof(path), "/admin/groups/%s/delivery?id=%s",
	    argv[1], argv[2]);
	return request(base, "GET", path, NULL, NULL);
}

/* group-inbox PN [GROUP]. */
static int
group_inbox(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	char	 path[512];

	(void)c;
	snprintf(path, sizeof(path), "/admin/mock-phone/group-inbox?pn=%s%s%s",
	    argv[1], argc == 3 ? "&group=" : "", argc == 3 ? argv[2] : "");
	return request(base, "GET", path, NULL, NULL);
}

/* group-create SUBJECT [--pn|--lid] [--creator PN] MEMBER... */
static int
group_create(const struct ctl_cmd *c, const char *base, int argc,
    char **argv)
{
	struct json_object	*o = json_object_new_object(), *arr;
	int			 i;

	add_str(o, "subject", argv[1]);
	arr = json_object_new_array();
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--pn") == 0)
			add_str(o, "addressing_mode", "pn");
		else if (strcmp(argv[i], "--lid") == 0)
			add_str(o, "addressing_mode", "lid");
		else if (strcmp(argv[i], "--creator") == 0 && i + 1 < argc)
			add_str(o, "creator", argv[++i]);
		else
			json_object_array_add(arr,
			    json_object_new_string(argv[i]));
	}
	json_object_object_add(o, "members", arr);
	return post_json(base, c->path, o);
}

/* group-add, -remove, -promote, -demote GROUP MEMBER... */
static int
group_change(const struct ctl_cmd *c, const char *base, int argc,
    char **argv)
{
	struct json_object	*o = json_object_new_object(), *arr;
	char			 path[512];
	int			 i;

	arr = json_object_new_array();
	for (i = 2; i < argc; i++)
		json_object_array_add(arr, json_object_new_string(argv[i]));
	json_object_object_add(o, "members", arr);
	route(c, argv, path, sizeof(path));
	return post_json(base, path, o);
}

/* history-set PN CHATS MESSAGES [SEED [CHUNK]]. */
static int
history_set(const struct ctl_cmd *c, const char *base, int argc,
    char **argv)
{
	static const char *const keys[] = { "chats", "messages", "seed",
	    "chunk" };
	struct json_object	*o = json_object_new_object();
	long long		 v;
	int			 i;

	add_str(o, "pn", argv[1]);
	for (i = 2; i < argc; i++) {
		if (int_arg(argv[i], &v) != 0) {
			json_object_put(o);
			fprintf(stderr, "wachat-sim ctl: %s: not a number\n",
			    argv[i]);
			return 2;
		}
		json_object_object_add(o, keys[i - 2],
		    json_object_new_int64(v));
	}
	return post_json(base, c->path, o);
}

/* history-chat PN CHAT [OFFSET [LIMIT]]. */
static int
history_chat(const struct ctl_cmd *c, const char *base, int argc,
    char **argv)
{
	char	 path[512];

	(void)c;
	snprintf(path, sizeof(path), "/admin/history/chat?pn=%s&jid=%s"
	    "%s%s%s%s", argv[1], argv[2], argc > 3 ? "&offset=" : "",
	    argc > 3 ? argv[3] : "", argc > 4 ? "&limit=" : "",
	    argc > 4 ? argv[4] : "");
	return request(base, "GET", path, NULL, NULL);
}

/* history-send PN [DEVICE], history-fault PN KIND [DEVICE]: the words
 * after PN go to keys[], the last one (when there) is the device. */
static int
history_send(const struct ctl_cmd *c, const char *base, int argc,
    char **argv)
{
	struct json_object	*o = json_object_new_object();
	long long		 v;
	int			 d = c->keys[0] != NULL ? 3 : 2;

	add_str(o, "pn", argv[1]);
	if (c->keys[0] != NULL)
		add_str(o, c->keys[0], argv[2]);
	if (argc > d) {
		if (int_arg(argv[d], &v) != 0) {
			json_object_put(o);
			fprintf(stderr, "wachat-sim ctl: bad device %s\n",
			    argv[d]);
			return 2;
		}
		json_object_object_add(o, "device", json_object_new_int64(v));
	}
	return post_json(base, c->path, o);
}

/* history-media-delay MS. */
static int
history_media_delay(const struct ctl_cmd *c, const char *base, int argc,
    char **argv)
{
	struct json_object	*o;
	long long		 v;

	(void)argc;
	if (int_arg(argv[1], &v) != 0) {
		fprintf(stderr, "wachat-sim ctl: bad delay %s\n", argv[1]);
		return 2;
	}
	o = json_object_new_object();
	json_object_object_add(o, "delay_ms", json_object_new_int64(v));
	return post_json(base, c->path, o);
}

/* call FROM TO [--video] [--group G] [--end R] [--after MS] [--malformed] */
static int
call(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	struct json_object	*o = json_object_new_object();
	int			 i;

	add_str(o, "from", argv[1]);
	add_str(o, "to", argv[2]);
	for (i = 3; i < argc; i++) {
		if (strcmp(argv[i], "--video") == 0 ||
		    strcmp(argv[i], "--malformed") == 0) {
			json_object_object_add(o, argv[i] + 2,
			    json_object_new_boolean(1));
			continue;
		}
		if (i + 1 < argc && strcmp(argv[i], "--group") == 0)
			add_str(o, "group", argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--end") == 0)
			add_str(o, "end", argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--after") == 0)
			add_str(o, "after_ms", argv[++i]);
		else {
			fprintf(stderr, "wachat-sim ctl: call: bad %s\n",
			    argv[i]);
			json_object_put(o);
			return 2;
		}
	}
	return post_json(base, c->path, o);
}

/* media-send PN TO TYPE [FILE] [--KEY VALUE]... */
static int
media_send(const struct ctl_cmd *c, const char *base, int argc, char **argv)
{
	struct json_object	*o = json_object_new_object();
	int			 i = 4;

	add_str(o, "from_pn", argv[1]);
	add_str(o, "to", argv[2]);
	add_str(o, "type", argv[3]);
	if (argc > 4 && strncmp(argv[4], "--", 2) != 0)
		add_str(o, "file", argv[i++]);
	for (; i < argc; i += 2) {
		if (strncmp(argv[i], "--", 2) != 0 || i + 1 >= argc) {
			fprintf(stderr, "wachat-sim ctl: media-send: bad %s\n",
			    argv[i]);
			json_object_put(o);
			return 2;
		}
		add_str(o, argv[i] + 2, argv[i + 1]);
	}
	return post_json(base, c->path, o);
}

/* media-expire PATH|ID [CODE] */
static int
media_expire(const struct ctl_cmd *c, const char *base, int argc,
    char **argv)
{
	struct json_object	*o = json_object_new_object();

	add_str(o, argv[1][0] == '/' ? "path" : "id", argv[1]);
	if (argc > 2)
		add_str(o, "code", argv[2]);
	return post_json(base, c->path, o);
}

#define ARG1	""	/* as a suffix: argv[1] ends the route */

static const struct ctl_cmd ctl_cmds[] = {
	{ "status", 1, 1, get_route, "/admin/status", NULL, { NULL } },
	{ "accounts", 1, 1, get_route, "/admin/accounts", NULL, { NULL } },
	{ "messages", 1, 1, get_route, "/admin/messages", NULL, { NULL } },
	{ "phone-receipt", 4, 5, post_words, "/admin/mock-phone/receipt",
	    NULL, { "pn", "to", "id", "type" } },
	{ "phone-send", 4, 5, post_words, "/admin/mock-phone/send", NULL,
	    { "from_pn", "to", "text", "quoted_id" } },
	{ "phone-react", 5, 5, phone_react, "/admin/mock-phone/send", NULL,
	    { NULL } },
	{ "phone-reinstall", 2, 3, post_words, "/admin/mock-phone/reinstall",
	    NULL, { "pn", "notify" } },
	{ "phone-forget", 2, 2, post_words,
	    "/admin/mock-phone/forget-sessions", NULL, { "pn" } },
	{ "phone-inbox", 2, 2, get_route, "/admin/mock-phone/inbox?pn=", ARG1,
	    { NULL } },
	{ "history-set", 4, 6, history_set, "/admin/history", NULL,
	    { NULL } },
	{ "history", 2, 2, get_route, "/admin/history?pn=", ARG1, { NULL } },
	{ "history-chat", 3, 5, history_chat, NULL, NULL, { NULL } },
	{ "history-send", 2, 3, history_send, "/admin/history/send", NULL,
	    { NULL } },
	{ "history-fault", 3, 4, history_send, "/admin/history/fault", NULL,
	    { "kind" } },
	{ "history-blobs", 1, 1, get_route, "/admin/history/blobs", NULL,
	    { NULL } },
	{ "history-media-delay", 2, 2, history_media_delay,
	    "/admin/history/media", NULL, { NULL } },
	{ "history-status", 1, 1, get_route, "/admin/history/status", NULL,
	    { NULL } },
	{ "media-send", 4, 40, media_send, "/admin/media/send", NULL,
	    { NULL } },
	{ "media", 1, 1, get_route, "/admin/media", NULL, { NULL } },
	{ "media-expire", 2, 3, media_expire, "/admin/media/expire", NULL,
	    { NULL } },
	{ "media-settings", 2, 4, post_words, "/admin/media/settings", NULL,
	    { "auth_ttl", "max_bytes", "upload_delay_ms" } },
	{ "appstate", 2, 2, get_route, "/admin/appstate?pn=", ARG1,
	    { NULL } },
	{ "appstate-contact", 4, 4, post_words, "/admin/appstate/contact",
	    NULL, { "pn", "chat", "name" } },
	{ "appstate-mute", 3, 4, post_words, "/admin/appstate/mute", NULL,
	    { "pn", "chat", "value" } },
	{ "appstate-pin", 3, 4, post_words, "/admin/appstate/pin", NULL,
	    { "pn", "chat", "value" } },
	{ "appstate-archive", 3, 4, post_words, "/admin/appstate/archive",
	    NULL, { "pn", "chat", "value" } },
	{ "appstate-read", 3, 4, post_words, "/admin/appstate/read", NULL,
	    { "pn", "chat", "value" } },
	{ "appstate-star", 4, 5, post_words, "/admin/appstate/star", NULL,
	    { "pn", "chat", "id", "value" } },
	{ "appstate-fault", 3, 3, post_words, "/admin/appstate/fault", NULL,
	    { "pn", "kind" } },
	{ "appstate-settings", 2, 3, post_words, "/admin/appstate/settings",
	    NULL, { "page", "inline_max" } },
	{ "appstate-status", 1, 1, get_route, "/admin/appstate/status", NULL,
	    { NULL } },
	{ "groups", 1, 1, get_route, "/admin/groups", NULL, { NULL } },
	{ "group-info", 2, 2, get_route, "/admin/groups/", ARG1, { NULL } },
	{ "group-delivery", 3, 3, group_delivery, NULL, NULL, { NULL } },
	{ "group-inbox", 2, 3, group_inbox, NULL, NULL, { NULL } },
	{ "phone-group-send", 4, 4, post_words,
	    "/admin/mock-phone/group-send", NULL,
	    { "from_pn", "group", "text" } },
	{ "group-subject", 3, 3, post_words, "/admin/groups/", "/subject",
	    { "subject" } },
	{ "group-create", 2, -1, group_create, "/admin/groups", NULL,
	    { NULL } },
	{ "group-add", 3, -1, group_change, "/admin/groups/", "/add",
	    { NULL } },
	{ "group-remove", 3, -1, group_change, "/admin/groups/", "/remove",
	    { NULL } },
	{ "group-promote", 3, -1, group_change, "/admin/groups/", "/promote",
	    { NULL } },
	{ "group-demote", 3, -1, group_change, "/admin/groups/", "/demote",
	    { NULL } },
	{ "remove-device", 2, 2, post_words, "/admin/devices/", "/remove",
	    { NULL } },
	{ "connections", 1, 1, get_route, "/admin/connections", NULL,
	    { NULL } },
	{ "shutdown", 1, 1, post_empty, "/admin/shutdown", NULL, { NULL } },
	{ "call", 3, -1, call, "/admin/call", NULL, { NULL } },
	{ "account", 2, 4, account, "/admin/accounts", NULL, { NULL } },
	{ "contact", 1, -1, contact, "/admin/contacts", NULL, { NULL } },
	{ "device", 2, 2, get_route, "/admin/devices/", ARG1, { NULL } },
	{ "drop", 2, 2, post_words, "/admin/connections/", "/drop",
	    { NULL } },
	{ "stream-error", 3, 3, post_number, "/admin/connections/",
	    "/stream-error", { "code" } },
	{ "failure", 3, 3, post_number, "/admin/connections/", "/failure",
	    { "reason" } },
	{ "reg-refresh", 2, 3, post_words, "/admin/connections/",
	    "/reg-refresh", { "child" } },
	{ "use-prekeys", 3, 3, post_count, "/admin/devices/", "/use-prekeys",
	    { "n" } },
	{ "enter-code", 2, 3, post_words, "/admin/mock-phone/enter-code",
	    NULL, { "code", "pn" } },
	{ "sw-js", 1, 1, get_route, "/sw.js", NULL, { NULL } },
	{ "cut", 3, 3, post_bytes, "/admin/connections/", "/cut",
	    { "bytes" } },
	{ "malformed", 3, 3, post_words, "/admin/connections/", "/malformed",
	    { "kind" } },
	{ "knobs", 1, -1, knobs, "/admin/knobs", NULL, { NULL } },
	{ "cert-chain", 1, 2, cert_chain, "/admin/cert-chain", NULL,
	    { NULL } },
	{ "scan-qr", 1, -1, scan_qr, NULL, NULL, { NULL } },
	{ "dry-scan-qr", 1, -1, dry_scan_qr, NULL, NULL, { NULL } },
};

static int
dispatch(const char *base, int argc, char **argv)
{
	const struct ctl_cmd	*c;
	size_t			 i;

	for (i = 0; i < sizeof(ctl_cmds) / sizeof(ctl_cmds[0]); i++) {
		c = &ctl_cmds[i];
		if (strcmp(c->name, argv[0]) != 0)
			continue;
		if (argc < c->min || (c->max >= 0 && argc > c->max))
			break;
		return c->fn(c, base, argc, argv);
	}
	ctl_usage(stderr);
	return 2;
}

int
sim_ctl_main(int argc, char **argv)
{
	static const struct option	 longopts[] = {
		{ "admin", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char	*base = getenv("WACHAT_SIM_ADMIN");
	int		 ch, rc;

	while ((ch = getopt_long(argc, argv, "+a:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			base = optarg;
			break;
		case 'h':
			ctl_usage(stdout);
			return 0;
		default:
			ctl_usage(stderr);
			return 2;
		}
	}
	if (base == NULL || optind >= argc) {
		ctl_usage(stderr);
		return 2;
	}
	curl_global_init(CURL_GLOBAL_DEFAULT);
	rc = dispatch(base, argc - optind, argv + optind);
	curl_global_cleanup();
	return rc;
}
