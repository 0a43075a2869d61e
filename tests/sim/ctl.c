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
"  cut ID BYTES                    send only BYTES bytes of the next\n"
"                                  <message> frame to connection ID (a\n"
"                                  number or the device JID), then close\n"
"  malformed ID KIND               send a malformed frame: truncated,\n"
"                                  oversized, garbage, undecryptable\n"
"  knobs [NAME=VALUE]...           show or set malformed_next, cert_fault,\n"
"                                  min_version, sw_revision, reg_refresh_pct\n"
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

/* The group commands; -1 when argv is not one of them (usage). */
static int
group_cmd(const char *base, int argc, char **argv)
{
	const char		*cmd = argv[0];
	struct json_object	*o, *arr;
	char			 path[256];
	int			 i = 2;

	if (strcmp(cmd, "groups") == 0 && argc == 1)
		return request(base, "GET", "/admin/groups", NULL, NULL);
	if (strcmp(cmd, "group-info") == 0 && argc == 2) {
		snprintf(path, sizeof(path), "/admin/groups/%s", argv[1]);
		return request(base, "GET", path, NULL, NULL);
	}
	if (strcmp(cmd, "group-delivery") == 0 && argc == 3) {
		snprintf(path, sizeof(path), "/admin/groups/%s/delivery?id=%s",
		    argv[1], argv[2]);
		return request(base, "GET", path, NULL, NULL);
	}
	if (strcmp(cmd, "group-inbox") == 0 && (argc == 2 || argc == 3)) {
		snprintf(path, sizeof(path),
		    "/admin/mock-phone/group-inbox?pn=%s%s%s", argv[1],
		    argc == 3 ? "&group=" : "", argc == 3 ? argv[2] : "");
		return request(base, "GET", path, NULL, NULL);
	}
	if (strcmp(cmd, "phone-group-send") == 0 && argc == 4) {
		o = json_object_new_object();
		add_str(o, "from_pn", argv[1]);
		add_str(o, "group", argv[2]);
		add_str(o, "text", argv[3]);
		return post_json(base, "/admin/mock-phone/group-send", o);
	}
	if (strcmp(cmd, "group-subject") == 0 && argc == 3) {
		o = json_object_new_object();
		add_str(o, "subject", argv[2]);
		snprintf(path, sizeof(path), "/admin/groups/%s/subject",
		    argv[1]);
		return post_json(base, path, o);
	}
	if (strcmp(cmd, "group-create") == 0 && argc >= 2) {
		o = json_object_new_object();
		add_str(o, "subject", argv[1]);
		arr = json_object_new_array();
		for (; i < argc; i++) {
			if (strcmp(argv[i], "--pn") == 0)
				add_str(o, "addressing_mode", "pn");
			else if (strcmp(argv[i], "--lid") == 0)
				add_str(o, "addressing_mode", "lid");
			else if (strcmp(argv[i], "--creator") == 0 &&
			    i + 1 < argc)
				add_str(o, "creator", argv[++i]);
			else
				json_object_array_add(arr,
				    json_object_new_string(argv[i]));
		}
		json_object_object_add(o, "members", arr);
		return post_json(base, "/admin/groups", o);
	}
	if ((strcmp(cmd, "group-add") == 0 || strcmp(cmd, "group-remove") ==
	    0 || strcmp(cmd, "group-promote") == 0 ||
	    strcmp(cmd, "group-demote") == 0) && argc >= 3) {
		o = json_object_new_object();
		arr = json_object_new_array();
		for (; i < argc; i++)
			json_object_array_add(arr,
			    json_object_new_string(argv[i]));
		json_object_object_add(o, "members", arr);
		snprintf(path, sizeof(path), "/admin/groups/%s/%s", argv[1],
		    cmd + 6);
		return post_json(base, path, o);
	}
	return -1;
}

/* The history commands; -1 when argv is not one of them (usage). */
static int
history_cmd(const char *base, int argc, char **argv)
{
	const char		*cmd = argv[0];
	struct json_object	*o;
	char			 path[512];
	long long		 v;
	int			 i;

	if (strcmp(cmd, "history-set") == 0 && argc >= 4 && argc <= 6) {
		static const char *const keys[] = { "chats", "messages", "seed",
		    "chunk" };

		o = json_object_new_object();
		add_str(o, "pn", argv[1]);
		for (i = 2; i < argc; i++) {
			if (int_arg(argv[i], &v) != 0) {
				json_object_put(o);
				fprintf(stderr, "wachat-sim ctl: %s: not a "
				    "number\n", argv[i]);
				return 2;
			}
			json_object_object_add(o, keys[i - 2],
			    json_object_new_int64(v));
		}
		return post_json(base, "/admin/history", o);
	}
	if (strcmp(cmd, "history") == 0 && argc == 2) {
		snprintf(path, sizeof(path), "/admin/history?pn=%s", argv[1]);
		return request(base, "GET", path, NULL, NULL);
	}
	if (strcmp(cmd, "history-chat") == 0 && argc >= 3 && argc <= 5) {
		snprintf(path, sizeof(path), "/admin/history/chat?pn=%s&jid=%s"
		    "%s%s%s%s", argv[1], argv[2], argc > 3 ? "&offset=" : "",
		    argc > 3 ? argv[3] : "", argc > 4 ? "&limit=" : "",
		    argc > 4 ? argv[4] : "");
		return request(base, "GET", path, NULL, NULL);
	}
	if ((strcmp(cmd, "history-send") == 0 && (argc == 2 || argc == 3)) ||
	    (strcmp(cmd, "history-fault") == 0 && (argc == 3 || argc == 4))) {
		bool	 fault = strcmp(cmd, "history-fault") == 0;
		int	 d = fault ? 3 : 2;

		o = json_object_new_object();
		add_str(o, "pn", argv[1]);
		if (fault)
			add_str(o, "kind", argv[2]);
		if (argc > d) {
			if (int_arg(argv[d], &v) != 0) {
				json_object_put(o);
				fprintf(stderr, "wachat-sim ctl: bad device "
				    "%s\n", argv[d]);
				return 2;
			}
			json_object_object_add(o, "device",
			    json_object_new_int64(v));
		}
		return post_json(base, fault ? "/admin/history/fault" :
		    "/admin/history/send", o);
	}
	if (strcmp(cmd, "history-blobs") == 0 && argc == 1)
		return request(base, "GET", "/admin/history/blobs", NULL, NULL);
	if (strcmp(cmd, "history-media-delay") == 0 && argc == 2) {
		if (int_arg(argv[1], &v) != 0) {
			fprintf(stderr, "wachat-sim ctl: bad delay %s\n",
			    argv[1]);
			return 2;
		}
		o = json_object_new_object();
		json_object_object_add(o, "delay_ms", json_object_new_int64(v));
		return post_json(base, "/admin/history/media", o);
	}
	if (strcmp(cmd, "history-status") == 0 && argc == 1)
		return request(base, "GET", "/admin/history/status", NULL, NULL);
	return -1;
}

static int
dispatch(const char *base, int argc, char **argv)
{
	const char		*cmd = argv[0];
	struct json_object	*o;
	char			 path[256];
	long long		 v;
	int			 i;
	long long		 chatty = 0;
	bool			 echo = false;

	if (strcmp(cmd, "status") == 0 && argc == 1)
		return request(base, "GET", "/admin/status", NULL, NULL);
	if (strcmp(cmd, "accounts") == 0 && argc == 1)
		return request(base, "GET", "/admin/accounts", NULL, NULL);
	if (strcmp(cmd, "messages") == 0 && argc == 1)
		return request(base, "GET", "/admin/messages", NULL, NULL);
	if (strcmp(cmd, "phone-receipt") == 0 && (argc == 4 || argc == 5)) {
		o = json_object_new_object();
		add_str(o, "pn", argv[1]);
		add_str(o, "to", argv[2]);
		add_str(o, "id", argv[3]);
		add_str(o, "type", argc == 5 ? argv[4] : NULL);
		return post_json(base, "/admin/mock-phone/receipt", o);
	}
	if (strcmp(cmd, "phone-send") == 0 && (argc == 4 || argc == 5)) {
		o = json_object_new_object();
		add_str(o, "from_pn", argv[1]);
		add_str(o, "to", argv[2]);
		add_str(o, "text", argv[3]);
		add_str(o, "quoted_id", argc == 5 ? argv[4] : NULL);
		return post_json(base, "/admin/mock-phone/send", o);
	}
	if (strcmp(cmd, "phone-react") == 0 && argc == 5) {
		o = json_object_new_object();
		add_str(o, "from_pn", argv[1]);
		add_str(o, "to", argv[2]);
		add_str(o, "react_to", argv[3]);
		add_str(o, "emoji", strcmp(argv[4], "-") == 0 ? "" : argv[4]);
		return post_json(base, "/admin/mock-phone/send", o);
	}
	if (strcmp(cmd, "phone-reinstall") == 0 && argc == 2) {
		o = json_object_new_object();
		add_str(o, "pn", argv[1]);
		return post_json(base, "/admin/mock-phone/reinstall", o);
	}
	if (strcmp(cmd, "phone-forget") == 0 && argc == 2) {
		o = json_object_new_object();
		add_str(o, "pn", argv[1]);
		return post_json(base, "/admin/mock-phone/forget-sessions", o);
	}
	if (strcmp(cmd, "phone-inbox") == 0 && argc == 2) {
		snprintf(path, sizeof(path), "/admin/mock-phone/inbox?pn=%s",
		    argv[1]);
		return request(base, "GET", path, NULL, NULL);
	}
	if (strncmp(cmd, "history", 7) == 0) {
		int	 rc = history_cmd(base, argc, argv);

		if (rc >= 0)
			return rc;
	}
	if (strncmp(cmd, "group", 5) == 0 || strcmp(cmd, "phone-group-send") ==
	    0) {
		int	 rc = group_cmd(base, argc, argv);

		if (rc >= 0)
			return rc;
	}
	if (strcmp(cmd, "remove-device") == 0 && argc == 2) {
		snprintf(path, sizeof(path), "/admin/devices/%s/remove",
		    argv[1]);
		return post_json(base, path, json_object_new_object());
	}
	if (strcmp(cmd, "connections") == 0 && argc == 1)
		return request(base, "GET", "/admin/connections", NULL, NULL);
	if (strcmp(cmd, "shutdown") == 0 && argc == 1)
		return request(base, "POST", "/admin/shutdown", NULL,
		    "application/json");
	if (strcmp(cmd, "contact") == 0 && argc >= 3 &&
	    strcmp(argv[argc - 2], "--chatty") == 0) {
		if (int_arg(argv[argc - 1], &chatty) != 0 || chatty < 1) {
			fprintf(stderr, "wachat-sim ctl: --chatty %s: not a "
			    "number of seconds\n", argv[argc - 1]);
			return 2;
		}
		argc -= 2;
	}
	if (strcmp(cmd, "contact") == 0 && argc >= 2 &&
	    strcmp(argv[argc - 1], "--echo") == 0) {
		echo = true;
		argc--;
	}
	if ((strcmp(cmd, "account") == 0 && argc >= 2 && argc <= 4) ||
	    (strcmp(cmd, "contact") == 0 && argc >= 2 && argc <= 5)) {
		o = json_object_new_object();
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
		return post_json(base, cmd[1] == 'c' ? "/admin/accounts" :
		    "/admin/contacts", o);
	}
	if (strcmp(cmd, "device") == 0 && argc == 2) {
		snprintf(path, sizeof(path), "/admin/devices/%s", argv[1]);
		return request(base, "GET", path, NULL, NULL);
	}
	if (strcmp(cmd, "drop") == 0 && argc == 2) {
		snprintf(path, sizeof(path), "/admin/connections/%s/drop",
		    argv[1]);
		return post_json(base, path, json_object_new_object());
	}
	if ((strcmp(cmd, "stream-error") == 0 || strcmp(cmd, "failure") ==
	    0) && argc == 3) {
		if (int_arg(argv[2], &v) != 0) {
			fprintf(stderr, "wachat-sim ctl: %s: not a number\n",
			    argv[2]);
			return 2;
		}
		snprintf(path, sizeof(path), "/admin/connections/%s/%s",
		    argv[1], cmd);
		o = json_object_new_object();
		json_object_object_add(o, cmd[0] == 's' ? "code" : "reason",
		    json_object_new_int64(v));
		return post_json(base, path, o);
	}
	if (strcmp(cmd, "reg-refresh") == 0 && (argc == 2 || argc == 3)) {
		snprintf(path, sizeof(path), "/admin/connections/%s/reg-refresh",
		    argv[1]);
		o = json_object_new_object();
		add_str(o, "child", argc == 3 ? argv[2] : NULL);
		return post_json(base, path, o);
	}
	if (strcmp(cmd, "use-prekeys") == 0 && argc == 3) {
		if (int_arg(argv[2], &v) != 0 || v < 0) {
			fprintf(stderr, "wachat-sim ctl: %s: not a count\n",
			    argv[2]);
			return 2;
		}
		snprintf(path, sizeof(path), "/admin/devices/%s/use-prekeys",
		    argv[1]);
		o = json_object_new_object();
		json_object_object_add(o, "n", json_object_new_int64(v));
		return post_json(base, path, o);
	}
	if (strcmp(cmd, "enter-code") == 0 && (argc == 2 || argc == 3)) {
		o = json_object_new_object();
		add_str(o, "code", argv[1]);
		add_str(o, "pn", argc == 3 ? argv[2] : NULL);
		return post_json(base, "/admin/mock-phone/enter-code", o);
	}
	if (strcmp(cmd, "sw-js") == 0 && argc == 1)
		return request(base, "GET", "/sw.js", NULL, NULL);
	if (strcmp(cmd, "cut") == 0 && argc == 3) {
		snprintf(path, sizeof(path), "/admin/connections/%s/cut",
		    argv[1]);
		o = json_object_new_object();
		json_object_object_add(o, "bytes",
		    json_object_new_int64(strtoll(argv[2], NULL, 10)));
		return post_json(base, path, o);
	}
	if (strcmp(cmd, "malformed") == 0 && argc == 3) {
		snprintf(path, sizeof(path), "/admin/connections/%s/malformed",
		    argv[1]);
		o = json_object_new_object();
		add_str(o, "kind", argv[2]);
		return post_json(base, path, o);
	}
	if (strcmp(cmd, "knobs") == 0) {
		if (argc == 1)
			return request(base, "GET", "/admin/knobs", NULL, NULL);
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
		return post_json(base, "/admin/knobs", o);
	}
	if (strcmp(cmd, "cert-chain") == 0 && argc <= 2) {
		snprintf(path, sizeof(path), "/admin/cert-chain%s%s",
		    argc == 2 ? "?fault=" : "", argc == 2 ? argv[1] : "");
		return request(base, "GET", path, NULL, NULL);
	}
	if (strcmp(cmd, "scan-qr") == 0)
		return scan(base, argc, argv, false);
	if (strcmp(cmd, "dry-scan-qr") == 0)
		return scan(base, argc, argv, true);
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
