/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/wa-eng-driver.c -- runs the engine (proto/eng.c) with a real store
 * (store/ through src/app-store.c) and no UI, for tests/sim-eng.sh.  Prints
 * each engine event as a line on stdout and stops at the awaited one:
 *   connecting N KIND | qr IDX SECS TEXT | paired JID | connected JID
 *   prekeys-stored N first=ID | prekeys-sent N first=ID
 *   prekeys-uploaded N first=ID | prekey-count N first=0 | qr-refresh:
 *   pair-code XXXX-XXXX | version 2.3000.N
 *   disconnected err=E retry_ms=R: TEXT
 *   logged-out: TEXT | stopped: TEXT | error err=E: TEXT
 *   store-put n=N first=ID   (the store committed a prekey batch)
 *   timeout
 * then, on exit, "store jid=JID prekeys=N pending=M" (or "store none").
 * With --messaging the engine also sends and receives 1:1 messages
 * (proto/dm.h) and prints each messaging event:
 *   dm-message CHAT ID from_me=0|1 state=S notice=0|1 note=N quoted=ID|-:
 *       TEXT   (N what a notice says: text, identity, not-sent:DEVICE, call-in,
 *       call-missed, call-elsewhere, call-declined;
 *       - for a message; a location, contact card, link preview,
 *       view-once or kind not shown: "rich: " and its words, " | "
 *       between their lines)
 *   dm-state CHAT ID STATE | dm-changed CHAT ID: TEXT | dm-deleted CHAT ID
 *   dm-reaction CHAT ID SENDER: EMOJI | dm-typing CHAT on|off
 *   dm-presence CHAT online|offline last=S | dm-send-failed CHAT ID err=E: WHY
 *   appstate changed actions=N names=0|1 chats=0|1 | appstate store-failed
 *       err=E   (app state sync, proto/appsync.h)
 * (STATE: queued sent delivered read failed received); with --commands it
 * reads one command a line from standard input (a pipe):
 *   send CHAT TEXT... | reply CHAT QUOTED-ID QUOTED-SENDER|- TEXT...
 *   react CHAT TARGET-ID me|them EMOJI|- | read CHAT | typing CHAT on|off
 *   edit CHAT OUR-ID TEXT... | revoke CHAT OUR-ID
 *   subscribe CHAT | retry CHAT ID | quit
 * and answers "queued ID" to send and reply, "error: ..." to a bad one.
 * --retry-cap-ms caps the wait between reconnects; --wait-ms is the
 * engine's deadline for each awaited answer, --handshake-timeout-ms the
 * transport's for each state before the handshake ends.
 * --crash-after-receive ends the process with _exit(9) right after the
 * transaction that stored an incoming message commits (before its
 * receipt and ack leave).
 * --show only prints that line.  --crash-after-store ends the process
 * with _exit(9) right after the first prekey batch is committed (before
 * the upload leaves).  --pair-code PN pairs by phone-number code instead
 * of QR; --version pins the version, --version-url is where it is looked
 * up after failure 405, --ca-file the extra CA file.  Exit status: 0 when the awaited event came (and
 * --linger-ms passed), 1 on a set-up error, 2 on timeout, 4 when libuv
 * handles were left open.
 */
#include "base/compat.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include "src/app-appstate.h"
#include "src/app-dm.h"
#include "src/app-hist.h"
#include "src/app-store.h"
#include "proto/crypto.h"
#include "proto/eng.h"
#include "base/err.h"
#include "base/notice.h"
#include "base/rich.h"
#include "base/buf.h"
#include "base/sysrand.h"
#include "store/store.h"

struct drv {
	uv_loop_t		 loop;
	uv_timer_t		 deadline, linger;
	struct wa_eng		*e;
	struct store		*s;
	struct wa_store_ops	 real, ops;
	struct wa_signal_store_ops sig_ops;
	struct wa_dm_store_ops	 dm_ops, dm_real;
	struct wa_hsync_store_ops hs_ops;
	struct wa_appsync_store_ops as_ops;
	bool			 crash_after_receive;
	bool			 received;	/* in the open transaction */
	uv_poll_t		 in;
	bool			 reading;
	char			 line[70000];
	size_t			 line_len;
	const char		*until;
	uint64_t		 linger_ms;
	bool			 crash_after_store;
	bool			 done;
	int			 status;
};

static void
finish(struct drv *d, int status)
{
	if (d->done)
		return;
	d->done = true;
	d->status = status;
	fflush(stdout);
	if (d->reading) {
		uv_poll_stop(&d->in);
		uv_close((uv_handle_t *)&d->in, NULL);
		d->reading = false;
	}
	wa_eng_free(d->e);
	d->e = NULL;
	uv_close((uv_handle_t *)&d->deadline, NULL);
	uv_close((uv_handle_t *)&d->linger, NULL);
}

static void
on_linger(uv_timer_t *t)
{
	finish(t->data, 0);
}

static const char *
kind_name(enum wa_eng_ev_kind k)
{
	switch (k) {
	case WA_ENG_EV_CONNECTING:	return "connecting";
	case WA_ENG_EV_QR:		return "qr";
	case WA_ENG_EV_PAIRED:		return "paired";
	case WA_ENG_EV_CONNECTED:	return "connected";
	case WA_ENG_EV_PREKEYS_STORED:	return "prekeys-stored";
	case WA_ENG_EV_PREKEYS_SENT:	return "prekeys-sent";
	case WA_ENG_EV_PREKEYS_UPLOADED: return "prekeys-uploaded";
	case WA_ENG_EV_PREKEY_COUNT:	return "prekey-count";
	case WA_ENG_EV_QR_REFRESH:	return "qr-refresh";
	case WA_ENG_EV_PAIR_CODE:	return "pair-code";
	case WA_ENG_EV_VERSION:		return "version";
	case WA_ENG_EV_DISCONNECTED:	return "disconnected";
	case WA_ENG_EV_LOGGED_OUT:	return "logged-out";
	case WA_ENG_EV_STOPPED:		return "stopped";
	case WA_ENG_EV_IDLE:		return "idle";
	case WA_ENG_EV_ERROR:		return "error";
	case WA_ENG_EV_STORE_FAILED:	return "store-failed";
	case WA_ENG_EV_PUSH_NAME:	return "push-name";
	case WA_ENG_EV_LINKED:		return "linked";
	}
	return "?";
}

static void
on_event(void *arg, const struct wa_eng_ev *ev)
{
	struct drv	*d = arg;
	const char	*k = kind_name(ev->kind);

	switch (ev->kind) {
	case WA_ENG_EV_CONNECTING:
		printf("%s %" PRIu32 " %s\n", k, ev->num, ev->text);
		break;
	case WA_ENG_EV_QR:
		printf("%s %" PRIu32 " %" PRIu32 " %s\n", k, ev->num, ev->secs,
		    ev->text);
		break;
	case WA_ENG_EV_PAIRED:
	case WA_ENG_EV_CONNECTED:
	case WA_ENG_EV_LINKED:
	case WA_ENG_EV_PAIR_CODE:
	case WA_ENG_EV_VERSION:
		printf("%s %s\n", k, ev->text);
		break;
	case WA_ENG_EV_PREKEYS_STORED:
	case WA_ENG_EV_PREKEYS_SENT:
	case WA_ENG_EV_PREKEYS_UPLOADED:
	case WA_ENG_EV_PREKEY_COUNT:
		printf("%s %" PRIu32 " first=%" PRIu32 "\n", k, ev->num,
		    ev->id);
		break;
	case WA_ENG_EV_DISCONNECTED:
		printf("%s err=%d retry_ms=%" PRIu32 ": %s\n", k, ev->err,
		    ev->retry_ms, ev->text);
		break;
	case WA_ENG_EV_QR_REFRESH:
	case WA_ENG_EV_LOGGED_OUT:
	case WA_ENG_EV_STOPPED:
		printf("%s: %s\n", k, ev->text);
		break;
	case WA_ENG_EV_IDLE:
		printf("%s reason=%" PRIu32 " err=%d: %s\n", k, ev->num,
		    ev->err, ev->text);
		break;
	case WA_ENG_EV_ERROR:
	case WA_ENG_EV_STORE_FAILED:
		printf("%s err=%d: %s\n", k, ev->err, ev->text);
		break;
	case WA_ENG_EV_PUSH_NAME:
		printf("%s %s\n", k, ev->name);
		break;
	}
	fflush(stdout);
	if (d->done || d->until == NULL || strcmp(d->until, k) != 0)
		return;
	if (d->linger_ms > 0) {
		d->until = NULL;
		uv_timer_start(&d->linger, on_linger, d->linger_ms, 0);
	} else
		finish(d, 0);
}

static const char *
state_name(int st)
{
	switch (st) {
	case WA_DM_QUEUED:	return "queued";
	case WA_DM_SENT:	return "sent";
	case WA_DM_DELIVERED:	return "delivered";
	case WA_DM_READ:	return "read";
	case WA_DM_FAILED:	return "failed";
	case WA_DM_RECEIVED:	return "received";
	}
	return "?";
}

/* "history progress|failed|idle type=T chunk=C progress=P count=N: why" */
static void
on_hsync_event(void *arg, const struct wa_hsync_ev *ev)
{
	struct drv	*d = arg;
	const char	*k = ev->kind == WA_HSYNC_EV_PROGRESS ? "progress" :
			    ev->kind == WA_HSYNC_EV_FAILED ? "failed" : "idle";

	printf("history %s type=%d chunk=%u progress=%u count=%zu err=%d: %s\n",
	    k, ev->sync_type, ev->chunk, ev->progress, ev->count, ev->err,
	    ev->why != NULL ? ev->why : "");
	fflush(stdout);
	if (!d->done && d->until != NULL && strncmp(d->until, "history-",
	    8) == 0 && strcmp(d->until + 8, k) == 0)
		finish(d, 0);
}

/* "appstate changed actions=N names=0|1 chats=0|1" or "appstate
 * store-failed err=E" */
static void
on_appsync_event(void *arg, const struct wa_appsync_ev *ev)
{
	(void)arg;
	if (ev->kind == WA_APPSYNC_EV_CHANGED)
		printf("appstate changed actions=%u names=%d chats=%d\n",
		    ev->actions, ev->names, ev->chats);
	else
		printf("appstate store-failed err=%d\n", ev->err);
	fflush(stdout);
}

/* "dm-group JID left=0|1 subject=S members=J1,J2 (sorted)" from the
 * store, as the UI would read it. */
static void
group_line(struct drv *d, const char *group, int left)
{
	struct store_group	 g;
	size_t			 i;

	if (store_group_get(d->s, group, &g) != 1) {
		printf("dm-group %s unknown\n", group);
		return;
	}
	printf("dm-group %s left=%d stored_left=%d mode=%s subject=%s "
	    "members=", group, left, g.left, g.mode, g.subject);
	for (i = 0; i < g.n; i++)
		printf("%s%s", i > 0 ? "," : "", g.members[i].jid);
	printf("\n");
	store_group_release(&g);
}

/* What a notice says, typed: "text", "identity", "not-sent:DEVICE",
 * "call-in", "call-missed", "call-elsewhere", "call-declined"; "-" for a
 * message. */
static void
note_name(const struct wa_dm_ev *ev, char *out, size_t len)
{
	if (!ev->notice)
		snprintf(out, len, "-");
	else if (ev->notice_kind == WA_DM_NOTE_IDENTITY)
		snprintf(out, len, "identity");
	else if (ev->notice_kind == WA_DM_NOTE_NOT_SENT)
		snprintf(out, len, "not-sent:%u", (unsigned)ev->notice_device);
	else if (ev->notice_kind == WA_DM_NOTE_CALL_IN)
		snprintf(out, len, "call-in");
	else if (ev->notice_kind == WA_DM_NOTE_CALL_MISSED)
		snprintf(out, len, "call-missed");
	else if (ev->notice_kind == WA_DM_NOTE_CALL_ELSEWHERE)
		snprintf(out, len, "call-elsewhere");
	else if (ev->notice_kind == WA_DM_NOTE_CALL_DECLINED)
		snprintf(out, len, "call-declined");
	else
		snprintf(out, len, "text");
}

/* A rich record (base/rich.h) in its words on one line: " | " between
 * its lines, "rich: " first. */
static void
rich_line(const char *rec, char *out, size_t len)
{
	struct buf	 b = BUF_INIT;
	size_t		 i, o;

	o = (size_t)snprintf(out, len, "rich: ");
	if (rec != NULL && rich_describe(rec, strlen(rec), true, true, &b) ==
	    0)
		for (i = 0; i < b.len && o + 4 < len; i++) {
			if (b.p[i] == '\n') {
				memcpy(out + o, " | ", 3);
				o += 3;
			} else
				out[o++] = (char)b.p[i];
		}
	out[o < len ? o : len - 1] = '\0';
	buf_release(&b);
}

static void
on_dm_event(void *arg, const struct wa_dm_ev *ev)
{
	struct drv	*d = arg;
	const char	*k = "?";
	char		 note[32], words[1024];

	switch (ev->kind) {
	case WA_DM_EV_MESSAGE:
		k = "dm-message";
		note_name(ev, note, sizeof(note));
		/* a group's line in words, its people by number */
		if (ev->rich)
			rich_line(ev->text, words, sizeof(words));
		else if (!ev->notice || notice_group_words(ev->text, NULL,
		    NULL, words, sizeof(words)) != 1)
			snprintf(words, sizeof(words), "%s", ev->text != NULL ?
			    ev->text : "");
		printf("%s %s %s from_me=%d state=%s notice=%d note=%s "
		    "quoted=%s: %s\n", k, ev->chat, ev->id, ev->from_me,
		    state_name(ev->state), ev->notice, note,
		    ev->quoted_id != NULL ?
		    ev->quoted_id : "-", words);
		break;
	case WA_DM_EV_STATE:
		k = "dm-state";
		printf("%s %s %s %s\n", k, ev->chat, ev->id,
		    state_name(ev->state));
		break;
	case WA_DM_EV_CHANGED:
		k = ev->text != NULL ? "dm-changed" : "dm-deleted";
		if (ev->text != NULL)
			printf("%s %s %s: %s\n", k, ev->chat, ev->id, ev->text);
		else
			printf("%s %s %s\n", k, ev->chat, ev->id);
		break;
	case WA_DM_EV_REACTION:
		k = "dm-reaction";
		printf("%s %s %s %s: %s\n", k, ev->chat, ev->id,
		    ev->sender[0] != '\0' ? ev->sender : "me", ev->text);
		break;
	case WA_DM_EV_TYPING:
		k = "dm-typing";
		printf("%s %s %s\n", k, ev->chat, ev->state ? "on" : "off");
		break;
	case WA_DM_EV_PRESENCE:
		k = "dm-presence";
		printf("%s %s %s last=%" PRId64 "\n", k, ev->chat,
		    ev->state ? "online" : "offline", ev->ts_ms / 1000);
		break;
	case WA_DM_EV_SEND_FAILED:
		k = "dm-send-failed";
		printf("%s %s %s err=%d: %s\n", k, ev->chat, ev->id, ev->err,
		    ev->text);
		break;
	case WA_DM_EV_GROUP:
		k = "dm-group";
		group_line(d, ev->chat, ev->state);
		break;
	case WA_DM_EV_ERROR:
		k = "dm-error";
		printf("%s %s err=%d: %s\n", k, ev->chat != NULL ? ev->chat :
		    "-", ev->err, ev->text);
		break;
	case WA_DM_EV_DISK_FULL:
		k = "dm-disk-full";
		printf("%s err=%d\n", k, ev->err);
		break;
	case WA_DM_EV_STORE_FAILED:
		k = "dm-store-failed";
		printf("%s err=%d\n", k, ev->err);
		break;
	}
	fflush(stdout);
	if (d->done || d->until == NULL || strcmp(d->until, k) != 0)
		return;
	finish(d, 0);
}

/*
 * The store's in_insert, tx_begin and tx_commit, for
 * --crash-after-receive; the ops keep the store as their argument, so the
 * driver is found here (one per process).
 */
static struct drv	*the_drv;

static int
in_wrap(void *arg, const struct wa_dm_msg *m)
{
	struct drv	*d = the_drv;
	int		 rc = d->dm_real.in_insert(arg, m);

	if (rc == 0 && !m->from_me)
		d->received = true;
	return rc;
}

static int
commit_wrap(void *arg)
{
	struct drv	*d = the_drv;
	int		 rc = d->dm_real.tx_commit(arg);

	if (rc == 0 && d->received && d->crash_after_receive) {
		printf("crash after receive\n");
		fflush(stdout);
		_exit(9);
	}
	return rc;
}

static int
begin_wrap(void *arg)
{
	the_drv->received = false;
	return the_drv->dm_real.tx_begin(arg);
}

/* The next space-separated word of *p, NUL-terminated in place. */
static char *
word(char **p)
{
	char	*w;

	while (**p == ' ')
		(*p)++;
	if (**p == '\0')
		return NULL;
	w = *p;
	while (**p != '\0' && **p != ' ')
		(*p)++;
	if (**p == ' ')
		*(*p)++ = '\0';
	return w;
}

/* One command of --commands, after its chat: the rest of the line in
 * *p.  Returns 0, or an error (-EINVAL when the words are wrong). */
typedef int (*cmd_fn)(struct drv *, struct wa_dm *, const char *,
    const char *, char **);

/* send CHAT TEXT... */
static int
cmd_send(struct drv *d, struct wa_dm *dm, const char *cmd, const char *chat,
    char **p)
{
	char	 id[WA_DM_ID_MAX];
	int	 rc;

	(void)d;
	(void)cmd;
	if (**p == '\0')
		return -EINVAL;
	if ((rc = wa_dm_send_text(dm, chat, *p, NULL, NULL, NULL, id)) == 0)
		printf("queued %s\n", id);
	return rc;
}

/* reply CHAT QUOTED-ID QUOTED-SENDER|- TEXT... */
static int
cmd_reply(struct drv *d, struct wa_dm *dm, const char *cmd,
    const char *chat, char **p)
{
	char	 id[WA_DM_ID_MAX], *a1, *a2;
	int	 rc;

	(void)d;
	(void)cmd;
	if ((a1 = word(p)) == NULL || (a2 = word(p)) == NULL || **p == '\0')
		return -EINVAL;
	if ((rc = wa_dm_send_text(dm, chat, *p, a1, strcmp(a2, "-") == 0 ?
	    NULL : a2, NULL, id)) == 0)
		printf("queued %s\n", id);
	return rc;
}

/* react CHAT TARGET-ID me|them EMOJI|- */
static int
cmd_react(struct drv *d, struct wa_dm *dm, const char *cmd,
    const char *chat, char **p)
{
	char	*a1, *a2;

	(void)d;
	(void)cmd;
	if ((a1 = word(p)) == NULL || (a2 = word(p)) == NULL || **p == '\0')
		return -EINVAL;
	return wa_dm_send_reaction(dm, chat, a1, strcmp(a2, "me") == 0,
	    strcmp(*p, "-") == 0 ? "" : *p);
}

/* edit CHAT OUR-ID TEXT... */
static int
cmd_edit(struct drv *d, struct wa_dm *dm, const char *cmd, const char *chat,
    char **p)
{
	char	*a1;

	(void)d;
	(void)cmd;
	if ((a1 = word(p)) == NULL || **p == '\0')
		return -EINVAL;
	return wa_dm_send_edit(dm, chat, a1, *p);
}

/* revoke CHAT OUR-ID */
static int
cmd_revoke(struct drv *d, struct wa_dm *dm, const char *cmd,
    const char *chat, char **p)
{
	char	*a1;

	(void)d;
	(void)cmd;
	if ((a1 = word(p)) == NULL)
		return -EINVAL;
	return wa_dm_send_revoke(dm, chat, a1);
}

/* read CHAT: "read N" */
static int
cmd_read(struct drv *d, struct wa_dm *dm, const char *cmd, const char *chat,
    char **p)
{
	int	 rc;

	(void)d;
	(void)cmd;
	(void)p;
	if ((rc = wa_dm_mark_read(dm, chat)) < 0)
		return rc;
	printf("read %d\n", rc);
	return 0;
}

/* typing CHAT on|off */
static int
cmd_typing(struct drv *d, struct wa_dm *dm, const char *cmd,
    const char *chat, char **p)
{
	char	*a1;

	(void)d;
	(void)cmd;
	if ((a1 = word(p)) == NULL)
		return -EINVAL;
	return wa_dm_typing(dm, chat, strcmp(a1, "on") == 0);
}

/* subscribe CHAT */
static int
cmd_subscribe(struct drv *d, struct wa_dm *dm, const char *cmd,
    const char *chat, char **p)
{
	(void)d;
	(void)cmd;
	(void)p;
	return wa_dm_subscribe(dm, chat);
}

/* group-create SUBJECT_WITHOUT_SPACES JID JID ... (chat is the subject
 * here) */
static int
cmd_group_create(struct drv *d, struct wa_dm *dm, const char *cmd,
    const char *chat, char **p)
{
	const char	*v[64];
	char		*a1;
	size_t		 n = 0;

	(void)d;
	(void)cmd;
	if (**p == '\0')
		return -EINVAL;
	while (n < 64 && (a1 = word(p)) != NULL)
		v[n++] = a1;
	return wa_dm_group_create(dm, chat, v, n);
}

/* group-subject GROUP SUBJECT... */
static int
cmd_group_subject(struct drv *d, struct wa_dm *dm, const char *cmd,
    const char *chat, char **p)
{
	(void)d;
	(void)cmd;
	if (**p == '\0')
		return -EINVAL;
	return wa_dm_group_subject(dm, chat, *p);
}

/* group-add GROUP JID, group-remove GROUP JID */
static int
cmd_group_member(struct drv *d, struct wa_dm *dm, const char *cmd,
    const char *chat, char **p)
{
	const char	*v[1];

	(void)d;
	if ((v[0] = word(p)) == NULL)
		return -EINVAL;
	return wa_dm_group_participants(dm, chat, cmd[6] == 'a' ?
	    WA_GROUP_ADD : WA_GROUP_REMOVE, v, 1);
}

/* group-leave GROUP */
static int
cmd_group_leave(struct drv *d, struct wa_dm *dm, const char *cmd,
    const char *chat, char **p)
{
	(void)d;
	(void)cmd;
	(void)p;
	return wa_dm_group_leave(dm, chat);
}

/* group-info GROUP */
static int
cmd_group_info(struct drv *d, struct wa_dm *dm, const char *cmd,
    const char *chat, char **p)
{
	(void)d;
	(void)cmd;
	(void)p;
	return wa_dm_group_info(dm, chat);
}

/* history-more CHAT */
static int
cmd_history_more(struct drv *d, struct wa_dm *dm, const char *cmd,
    const char *chat, char **p)
{
	(void)cmd;
	(void)p;
	return app_hist_request_older(d->s, dm, chat);
}

/* retry CHAT ID: "retry N" */
static int
cmd_retry(struct drv *d, struct wa_dm *dm, const char *cmd,
    const char *chat, char **p)
{
	char	*a1;
	int	 rc;

	(void)d;
	(void)cmd;
	if ((a1 = word(p)) == NULL)
		return -EINVAL;
	if ((rc = wa_dm_retry(dm, chat, a1)) < 0)
		return rc;
	printf("retry %d\n", rc);
	return 0;
}

static const struct {
	const char	*name;
	cmd_fn		 fn;
} commands[] = {
	{ "send", cmd_send },
	{ "reply", cmd_reply },
	{ "react", cmd_react },
	{ "edit", cmd_edit },
	{ "revoke", cmd_revoke },
	{ "read", cmd_read },
	{ "typing", cmd_typing },
	{ "subscribe", cmd_subscribe },
	{ "group-create", cmd_group_create },
	{ "group-subject", cmd_group_subject },
	{ "group-add", cmd_group_member },
	{ "group-remove", cmd_group_member },
	{ "group-leave", cmd_group_leave },
	{ "group-info", cmd_group_info },
	{ "history-more", cmd_history_more },
	{ "retry", cmd_retry },
};

static void
command(struct drv *d, char *line)
{
	struct wa_dm	*dm = d->e != NULL ? wa_eng_dm(d->e) : NULL;
	char		*p = line, *cmd, *chat;
	size_t		 i;
	int		 rc = -EINVAL;

	if ((cmd = word(&p)) == NULL)
		return;
	if (strcmp(cmd, "quit") == 0) {
		finish(d, 0);
		return;
	}
	chat = word(&p);
	if (dm == NULL || chat == NULL) {
		printf("error: %s\n", dm == NULL ? "no messaging" : "no chat");
		fflush(stdout);
		return;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(cmd, commands[i].name) == 0) {
			rc = commands[i].fn(d, dm, cmd, chat, &p);
			break;
		}
	if (rc != 0)
		printf("error: %s: %s\n", cmd, wc_strerror(rc));
	fflush(stdout);
}

static void
on_stdin(uv_poll_t *h, int status, int events)
{
	struct drv	*d = h->data;
	ssize_t		 k;
	char		*nl;

	(void)events;
	if (status < 0)
		return;
	k = read(STDIN_FILENO, d->line + d->line_len,
	    sizeof(d->line) - 1 - d->line_len);
	if (k <= 0) {
		if (k < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		uv_poll_stop(h);	/* end of the commands: keep running */
		return;
	}
	d->line_len += (size_t)k;
	d->line[d->line_len] = '\0';
	while ((nl = strchr(d->line, '\n')) != NULL) {
		*nl = '\0';
		command(d, d->line);
		if (d->done)
			return;
		d->line_len -= (size_t)(nl + 1 - d->line);
		memmove(d->line, nl + 1, d->line_len + 1);
	}
	if (d->line_len == sizeof(d->line) - 1)
		d->line_len = 0;	/* a line too long: dropped */
}

static void
on_deadline(uv_timer_t *t)
{
	printf("timeout\n");
	finish(t->data, 2);
}

/* The store's prekey_put, reported, and the crash point of the test. */
static int
put_wrap(void *arg, const struct wa_prekey *k, size_t n)
{
	struct drv	*d = arg;
	int		 rc = d->real.prekey_put(d->real.arg, k, n);

	printf("store-put n=%zu first=%" PRIu32 " rc=%d\n", n,
	    n > 0 ? k[0].id : 0, rc);
	fflush(stdout);
	if (rc == 0 && d->crash_after_store)
		_exit(9);
	return rc;
}

static int
w_load(void *a, struct wa_device *o)
{
	struct drv	*d = a;

	return d->real.device_load(d->real.arg, o);
}
static int
w_save(void *a, const struct wa_device *v)
{
	struct drv	*d = a;

	return d->real.device_save(d->real.arg, v);
}
static int
w_forget(void *a)
{
	struct drv	*d = a;

	return d->real.device_forget(d->real.arg);
}
static int
w_next(void *a, uint32_t *id)
{
	struct drv	*d = a;

	return d->real.prekey_next_id(d->real.arg, id);
}
static int
w_pend(void *a, struct wa_prekey *o, size_t m)
{
	struct drv	*d = a;

	return d->real.prekey_pending(d->real.arg, o,
	    m);
}
static int
w_mark(void *a, uint32_t f, uint32_t l)
{
	struct drv	*d = a;

	return d->real.prekey_mark_uploaded(d->real.arg, f,
	    l);
}
static int
w_count(void *a)
{
	struct drv	*d = a;

	return d->real.prekey_count(d->real.arg);
}

static void
show_store(struct store *s)
{
	struct store_device	 dev;
	struct store_prekey	*pk;
	int			 rc, count, pend;

	memset(&dev, 0, sizeof(dev));
	rc = store_device_load(s, &dev);
	count = store_prekey_count(s);
	pk = calloc(4096, sizeof(*pk));
	pend = pk != NULL ? store_prekey_pending(s, pk, 4096) : -ENOMEM;
	free(pk);
	if (rc == 1)
		printf("store jid=%s prekeys=%d pending=%d\n",
		    dev.jid[0] != '\0' ? dev.jid : "-", count, pend);
	else if (rc == 0)
		printf("store none prekeys=%d\n", count);
	else
		printf("store error %d\n", rc);
	store_device_release(&dev);
}

static int
parse_hex32(const char *s, uint8_t out[32])
{
	size_t	 i;

	if (strlen(s) != 64)
		return -1;
	for (i = 0; i < 32; i++) {
		unsigned	 v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	return 0;
}

/* What the options say beyond the engine's configuration. */
struct opts {
	const char	*dir;		/* --store */
	unsigned long	 deadline;	/* ms */
	bool		 show, messaging, commands;
	uint8_t		 root[32];	/* --root, for cfg->root_pub */
};

/* The options into d, cfg and o: -1 to go on, else the exit status. */
static int
parse_opts(int argc, char **argv, struct drv *d, struct wa_eng_cfg *cfg,
    struct opts *o)
{
	static const struct option	 longopts[] = {
		{ "url", required_argument, NULL, 'u' },
		{ "root", required_argument, NULL, 'r' },
		{ "store", required_argument, NULL, 's' },
		{ "qr-file", required_argument, NULL, 'f' },
		{ "qr-ms", required_argument, NULL, 'q' },
		{ "ping-ms", required_argument, NULL, 'p' },
		{ "ping-deadline-ms", required_argument, NULL, 'P' },
		{ "wait-ms", required_argument, NULL, 'W' },
		{ "handshake-timeout-ms", required_argument, NULL, 'H' },
		{ "until", required_argument, NULL, 't' },
		{ "linger-ms", required_argument, NULL, 'l' },
		{ "deadline-ms", required_argument, NULL, 'd' },
		{ "crash-after-store", no_argument, NULL, 'c' },
		{ "show", no_argument, NULL, 'S' },
		{ "pair-code", required_argument, NULL, 'C' },
		{ "version", required_argument, NULL, 'V' },
		{ "version-url", required_argument, NULL, 'U' },
		{ "ca-file", required_argument, NULL, 'A' },
		{ "full-history", no_argument, NULL, 'F' },
		{ "messaging", no_argument, NULL, 'M' },
		{ "commands", no_argument, NULL, 'K' },
		{ "crash-after-receive", no_argument, NULL, 'R' },
		{ "retry-cap-ms", required_argument, NULL, 'X' },
		{ NULL, 0, NULL, 0 },
	};
	int	 ch;

	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'u':
			cfg->url = optarg;
			break;
		case 'r':
			if (parse_hex32(optarg, o->root) != 0) {
				fprintf(stderr, "--root: 64 hex digits\n");
				return 1;
			}
			cfg->root_pub = o->root;
			break;
		case 's':
			o->dir = optarg;
			break;
		case 'f':
			cfg->qr_file = optarg;
			break;
		case 'q':
			cfg->qr_first_ms = cfg->qr_next_ms =
			    (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'p':
			cfg->ping_ms = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'P':
			cfg->ping_deadline_ms = (uint32_t)strtoul(optarg, NULL,
			    10);
			break;
		case 'W':
			cfg->wait_ms = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'H':
			cfg->handshake_timeout_ms = (uint32_t)strtoul(optarg,
			    NULL, 10);
			break;
		case 't':
			d->until = optarg;
			break;
		case 'l':
			d->linger_ms = strtoull(optarg, NULL, 10);
			break;
		case 'd':
			o->deadline = strtoul(optarg, NULL, 10);
			break;
		case 'c':
			d->crash_after_store = true;
			break;
		case 'S':
			o->show = true;
			break;
		case 'C':
			cfg->pair_pn = optarg;
			break;
		case 'V':
			cfg->version = optarg;
			break;
		case 'U':
			cfg->version_url = optarg;
			break;
		case 'A':
			cfg->ca_file = optarg;
			break;
		case 'F':
			cfg->full_history = true;
			break;
		case 'M':
			o->messaging = true;
			break;
		case 'K':
			o->commands = true;
			break;
		case 'R':
			d->crash_after_receive = true;
			break;
		case 'X':
			cfg->retry_cap_ms = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: wa-eng-driver --store DIR "
			    "[--url URL --root HEX --until EVENT ...]\n");
			return 1;
		}
	}
	return -1;
}

/* The engine's store (the real one, wrapped to report and to crash) and
 * its event callbacks into cfg; with messaging the Signal, messaging and
 * history stores too. */
static void
setup_engine(struct drv *d, struct wa_eng_cfg *cfg, bool messaging)
{
	app_store_ops(d->s, &d->real);
	d->ops.device_load = w_load;
	d->ops.device_save = w_save;
	d->ops.device_forget = w_forget;
	d->ops.prekey_next_id = w_next;
	d->ops.prekey_put = put_wrap;
	d->ops.prekey_pending = w_pend;
	d->ops.prekey_mark_uploaded = w_mark;
	d->ops.prekey_count = w_count;
	d->ops.arg = d;
	cfg->os = "wa-eng-driver";
	cfg->rng = sys_random;
	cfg->now_ms = sys_now_ms;
	cfg->store = &d->ops;
	cfg->on_event = on_event;
	cfg->ev_arg = d;
	if (!messaging)
		return;
	app_store_signal_ops(d->s, &d->sig_ops);
	app_dm_ops(d->s, &d->dm_real);
	d->dm_ops = d->dm_real;
	d->dm_ops.in_insert = in_wrap;
	d->dm_ops.tx_begin = begin_wrap;
	d->dm_ops.tx_commit = commit_wrap;
	app_hist_ops(d->s, &d->hs_ops);
	cfg->hsync_store = &d->hs_ops;
	cfg->on_hsync_event = on_hsync_event;
	cfg->hsync_ev_arg = d;
	app_as_ops(d->s, &d->as_ops);
	cfg->appsync_store = &d->as_ops;
	cfg->on_appsync_event = on_appsync_event;
	cfg->appsync_ev_arg = d;
	the_drv = d;
	cfg->signal_store = &d->sig_ops;
	cfg->dm_store = &d->dm_ops;
	cfg->on_dm_event = on_dm_event;
	cfg->dm_ev_arg = d;
	cfg->dm.send_read_receipts = true;
	cfg->dm.send_typing = true;
	cfg->dm.send_presence = true;
}

/* Run the engine until the awaited event, a deadline or an error; the
 * store is closed on return.  Returns the exit status. */
static int
run(struct drv *d, struct wa_eng_cfg *cfg, const struct opts *o)
{
	int	 rc;

	if (uv_loop_init(&d->loop) != 0)
		return 1;
	if ((rc = wa_eng_new(&d->loop, cfg, &d->e)) != 0) {
		fprintf(stderr, "wa_eng_new: %s\n", wc_strerror(rc));
		store_close(d->s);
		return 1;
	}
	uv_timer_init(&d->loop, &d->deadline);
	uv_timer_init(&d->loop, &d->linger);
	d->deadline.data = d->linger.data = d;
	uv_timer_start(&d->deadline, on_deadline, o->deadline, 0);
	if (o->commands && uv_poll_init(&d->loop, &d->in, STDIN_FILENO) == 0) {
		d->in.data = d;
		d->reading = true;
		uv_poll_start(&d->in, UV_READABLE, on_stdin);
	}
	if ((rc = wa_eng_start(d->e)) != 0) {
		fprintf(stderr, "wa_eng_start: %s\n", wc_strerror(rc));
		finish(d, 1);
	}
	uv_run(&d->loop, UV_RUN_DEFAULT);
	show_store(d->s);
	store_close(d->s);
	if (uv_loop_close(&d->loop) != 0) {
		printf("handles left open\n");
		return 4;
	}
	fflush(stdout);
	return d->status;
}

int
main(int argc, char **argv)
{
	struct drv		 d;
	struct wa_eng_cfg	 cfg;
	struct opts		 o;
	int			 rc;

	memset(&d, 0, sizeof(d));
	memset(&cfg, 0, sizeof(cfg));
	memset(&o, 0, sizeof(o));
	o.deadline = 20000;
	if ((rc = parse_opts(argc, argv, &d, &cfg, &o)) >= 0)
		return rc;
	if (o.dir == NULL) {
		fprintf(stderr, "--store DIR is required\n");
		return 1;
	}
	if (wa_crypto_init() != 0) {
		fprintf(stderr, "wa_crypto_init failed\n");
		return 1;
	}
	if ((rc = store_open(o.dir, &d.s)) != 0) {
		fprintf(stderr, "store_open %s: %s\n", o.dir, wc_strerror(rc));
		return 1;
	}
	if (o.show) {
		show_store(d.s);
		store_close(d.s);
		return 0;
	}
	setup_engine(&d, &cfg, o.messaging);
	return run(&d, &cfg, &o);
}
