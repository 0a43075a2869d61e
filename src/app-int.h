/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-int.h -- the insides of the composition root (src/app.h),
 * shared by its files: struct app, the state of both threads, and what
 * each file gives the others.
 *
 *	src/app.c	app_run(): the loops, the queues, the threads
 *	src/app-ui.c	the main thread: the events, the curses screen
 *	src/app-print.c	the main thread without a screen: one line per event
 *	src/app-eng.c	the engine thread: store, engine, their events
 *	src/app-db.c	the engine thread: the data dir's lock, the
 *			database opened and checked in the background
 *	src/app-cmd.c	the engine thread: the command table
 *	src/app-read.c	the engine thread: events read from the store
 *	src/app-send.c	the engine thread: events sent to the main thread
 *	src/app-disk.c	the engine thread: a full disk, offline until a
 *			probe write commits
 *	src/app-spool.c	the engine thread: messages handed over by
 *			wachat send (src/app-spool.h)
 *	src/app-chatact.c the engine thread: the user's mute, pin,
 *			archive, ... queued as app state of ours
 *	src/app-upload.c the engine thread: a file sent as a media
 *			message (CMD_SEND_FILE), its upload
 *	src/app-mget.c	the engine thread: media downloads
 *			(proto/media-get.h) over the store, their events
 *	src/app-forward.c the engine thread: a message forwarded
 *			(CMD_FORWARD)
 *	src/app-msginfo.c the engine thread: our message's receipts per
 *			recipient (CMD_MSG_INFO)
 *
 * Which file calls which (nm of libroot.a; a file calls only files
 * below it, so there is no circle):
 *
 *	app.o      -> app-cmd.o, app-eng.o, app-ui.o, evq.o
 *	app-cmd.o  -> app-chatact.o, app-disk.o, app-eng.o, app-forward.o,
 *		      app-mget.o, app-msginfo.o, app-read.o, app-send.o,
 *		      app-upload.o, evq.o
 *	app-forward.o -> app-disk.o, app-send.o
 *	app-msginfo.o -> app-read.o, app-send.o
 *	app-mget.o -> app-send.o
 *	app-chatact.o -> app-send.o
 *	app-eng.o  -> app-chatact.o, app-db.o, app-disk.o, app-mget.o,
 *		      app-read.o,
 *		      app-send.o,
 *		      app-spool.o, evq.o
 *	app-spool.o -> app-db.o, app-disk.o, app-upload.o
 *	app-upload.o -> app-disk.o, app-send.o
 *	app-db.o   -> app-send.o
 *	app-disk.o -> (none of these)
 *	app-read.o -> app-send.o
 *	app-send.o -> evq.o
 *	app-ui.o   -> app-print.o, conf.o, evq.o
 *
 * Each function says which thread calls it.
 */
#ifndef WC_APP_INT_H
#define WC_APP_INT_H

#include <stdbool.h>

#include <uv.h>

#include "base/event.h"
#include "proto/dm.h"
#include "proto/eng.h"
#include "src/app.h"
#include "src/conf.h"
#include "src/evq.h"
#include "ui/view.h"

struct store;
struct ui_screen;

/* The engine thread's groups already described to the UI (EV_GROUP
 * before the first EV_CHATS that lists them), sorted. */
struct app_told {
	char			**v;
	size_t			 n;
};

#define APP_NOTIFY_MAX	4	/* notify-commands running at once */

struct app_notify_proc;

struct app {
	const struct conf	*conf;
	struct ui_view_opts	 view;		/* the chat screen's settings */

	/* Main thread. */
	uv_loop_t		 ui_loop;
	uv_signal_t		 sigint, sigterm, sighup;
	struct ui_screen	*screen;	/* curses, or NULL: lines */
	uv_poll_t		 keys;		/* stdin, with screen */
	uv_signal_t		 sigwinch;	/* with screen */
	uv_signal_t		 sigtstp;	/* Ctrl-z, with screen */
	uv_timer_t		 tick;		/* countdowns, with screen */
	int			 saved_err;	/* stderr under the screen,
						 * or -1 */
	int			 stdin_flags;	/* stdin's F_GETFL before the
						 * screen (uv_poll_init() sets
						 * O_NONBLOCK on the terminal
						 * the shell shares), or -1 */
	struct evq		 events;	/* engine -> main */
	uv_thread_t		 thread;
	bool			 quit_sent;	/* CMD_QUIT pushed */
	bool			 stopped;	/* EV_STOPPED seen */
	bool			 draw_qr;	/* stdout is a terminal */
	bool			 lines;		/* no screen (set before the
						 * engine thread starts, read
						 * by it): the engine's idle
						 * end stops wachat */
	int			 status;	/* exit status */
	struct app_notify_proc	*notify_procs[APP_NOTIFY_MAX];
						/* notify-commands running */
	char			*last_words;	/* said on stderr once the
						 * screen is gone: why wachat
						 * stopped by itself, or NULL */
	struct app_job		*job;		/* app_run_job(), or NULL */
	uv_timer_t		 job_timer;	/* its poll, with job */

	/* Engine thread (set up by the main thread before it starts). */
	uv_loop_t		 eng_loop;
	struct evq		 cmds;		/* main -> engine */
	struct store		*store;
	struct wa_store_ops	 ops;
	struct wa_signal_store_ops sig_ops;
	struct wa_dm_store_ops	 dm_ops;
	struct wa_hsync_store_ops hs_ops;
	struct wa_appsync_store_ops as_ops;
	struct wa_mget_store_ops mg_ops;
	struct wa_eng		*eng;
	char			 own_user[128];	/* our PN user JID, once
						 * connected */
	int			 lock_fd;	/* the data dir's lock, or -1 */
	bool			 fresh_db;	/* --fresh-db (src/app-db.c) */
	int			 db_status;	/* exit status for a store that
						 * did not open, or 0 (read
						 * by the main thread after
						 * EV_STOPPED) */
	uv_work_t		 check_req;	/* the background check */
	uv_mutex_t		 check_mu;	/* guards check_store and
						 * check_cancel */
	bool			 check_mu_ok;	/* check_mu initialized */
	bool			 check_started;
	bool			 check_cancel;
	struct store		*check_store;	/* its connection, or NULL */
	int			 check_rc;	/* its result (worker, then
						 * engine thread) */
	char			 check_why[256];
	bool			 stopping;	/* the engine is being shut */
	char			*stop_text;	/* EV_STOPPED's why, or NULL */
	int			 stop_err;	/* EV_STOPPED's err */
	struct app_told		 told;
	uv_timer_t		 disk_timer;	/* src/app-disk.c */
	bool			 disk_timer_on;	/* disk_timer made */
	bool			 disk_full;	/* a write got ENOSPC */
	bool			 disk_held;	/* ... engine held */
	bool			 io_failed;	/* a write got EIO */
	unsigned		 io_delay_ms;	/* its wait, doubling */
	char			 spool[4096 + 16]; /* src/app-spool.c */
	uv_fs_event_t		 spool_ev;	/* the spool dir watched */
	uv_timer_t		 spool_timer;	/* ... and looked at */
	bool			 spool_on;	/* spool_timer made */
	bool			 spool_ev_on;	/* spool_ev made */
	uv_timer_t		 expire_timer;	/* src/app-expire.c */
	bool			 expire_on;	/* expire_timer made */
};

/* ---- src/app-expire.c: the engine thread ---- */

/* Arm the disappearing messages' timer for the store's earliest expiry
 * (stopped when none): after a message is stored, at start. */
void	app_expire_kick(struct app *a);
/* Stop and close the timer (at shutdown). */
void	app_expire_stop(struct app *a);

/* ---- src/app-chatact.c: the engine thread ---- */

struct wa_as_action;
struct wa_appsync_ev;

/* CMD_CHAT_ACT: the change encoded and kept in the store's outbox, then
 * handed to app state sync (sent when online; EV_APP_STATE QUEUED when
 * not).  A store failure is said as EV_ERROR. */
void	app_chat_act(struct app *a, const struct cmd *c);

/* App state sync's events about our own changes (SENDING, SENT,
 * SEND_FAILED, NO_KEY) as EV_APP_STATE steps; the others are not its. */
void	app_chat_act_event(struct app *a, const struct wa_appsync_ev *e);

/* What action x (a mute, pin, ... of ours) is, for the screen; NONE for
 * NULL or a kind wachat does not send. */
enum ev_chat_act app_chat_act_of(const struct wa_as_action *x);

/* ---- src/app-mget.c: the engine thread ---- */

struct wa_mget_ev;
struct wa_msg_media;

/* Fill *ops with the media row's look-up (a received message first, then
 * ours; a group's author from its message), the download state and the
 * direct path a media retry gave over s (borrowed for the life of the
 * ops). */
void	app_mget_ops(struct store *s, struct wa_mget_store_ops *ops);

/* The download module's events (arg: struct app) as EV_MEDIA_DL. */
void	app_mget_event(void *arg, const struct wa_mget_ev *e);

/* At a start, before the engine: the downloads a killed wachat left
 * "downloading" in the store are set back to not fetched
 * (store_media_dl_reset(); logged). */
void	app_mget_reset(struct app *a);

/* CMD_MEDIA_GET: the download started (EV_MEDIA_DL says how it goes); a
 * refusal (no engine, too many waiting) said as an EV_MEDIA_DL FAILED. */
void	app_media_get(struct app *a, const struct cmd *c);

/* ---- src/app-viewonce.c (protocol-features.md 3.4; engine thread but
 * for app_viewonce_path() and app_viewonce_sweep(), any thread) ---- */

/* Whether path is a file of DATA-DIR/runtime/tmp, the view-once folder. */
bool	app_viewonce_path(const char *data_dir, const char *path);
/* Remove every file of the view-once folder (at a start and at quit:
 * what a killed wachat or a running opener left); logged by count. */
void	app_viewonce_sweep(const char *data_dir);
/* CMD_MEDIA_GET of (chat, id): 1 when it is a view-once message not yet
 * opened, with out[len] a new path in the view-once folder (made 0700)
 * to download it to; 0 when it is no view-once message (download as
 * usual); -EACCES when it was opened already; -ENAMETOOLONG, -errno (the
 * folder), -EINVAL, -EIO. */
int	app_viewonce_get(struct app *a, const char *chat, const char *id,
	    char *out, size_t len);
/* A download ended (e of kind WA_MGET_EV_DONE): for a view-once message
 * not yet opened, when it is OK the message is marked opened
 * (store_viewonce_opened(); its new record to the screen as an
 * EV_MSG_CHANGED), else its download state set back so that it may be
 * tried again.  Nothing for other messages. */
void	app_viewonce_done(struct app *a, const struct wa_mget_ev *e);

/* ---- src/app-forward.c ---- */

/* CMD_FORWARD: message (chat, from_me, id) sent to each target as a
 * forward (protocol-features.md 3.7): each copy stored QUEUED, shown as
 * EV_MESSAGE and left to the outbox; a message that cannot be forwarded
 * (not stored, revoked, a kind not forwarded, media without its upload's
 * keys) or a store refusal is said as EV_ERROR.  Engine thread. */
void	app_forward(struct app *a, const struct cmd *c);

/* ---- src/app-prof.c: profiles and the blocklist (issue 20) ---- */

struct wa_prof_ev;

/* The profile module's events (arg: struct app) as EV_PROFILE and
 * EV_BLOCKLIST; a block the server refused as EV_ERROR. */
void	app_prof_event(void *arg, const struct wa_prof_ev *e);

/* CMD_PROFILE: the chat's about text and picture asked for (EV_PROFILE
 * answers; offline: an EV_PROFILE saying the picture failed). */
void	app_profile(struct app *a, const struct cmd *c);

/* CMD_BLOCK: the change sent (EV_BLOCKLIST once taken); a refusal said
 * as EV_ERROR. */
void	app_block(struct app *a, const struct cmd *c);

/* Whether c is a send (text or file) to a contact the blocklist holds:
 * then it was refused with an EV_ERROR saying so, its text handed back. */
bool	app_prof_refuse_send(struct app *a, const struct cmd *c);

/* ---- src/app-msginfo.c ---- */

/* CMD_MSG_INFO: EV_MSG_INFO for our message (chat, id): each recipient
 * (a 1:1 chat's contact; a group's members but us) with its delivery
 * and read time (0 not yet); not ours or not stored: EV_ERROR.  Engine
 * thread. */
void	app_msg_info(struct app *a, const struct cmd *c);

/* A message (chat, id) with media md arrived: downloaded now when the
 * auto-download setting takes its kind at its size (and it is within
 * max-media-size). */
void	app_mget_auto(struct app *a, const char *chat, const char *id,
	    const struct wa_msg_media *md);

/* ---- src/app-eng.c: the engine thread ---- */

/* The engine thread's body (uv_thread_create): opens the store, runs the
 * engine until it stops, sends EV_STOPPED last. */
void	app_eng_thread(void *arg);

/*
 * Stop the engine: free it, close the command queue; the engine loop then
 * runs out of handles.  why and err go out with EV_STOPPED.  Engine
 * thread; the first call wins.
 */
void	app_eng_stop(struct app *a, const char *why, int err);

/* ---- src/app-disk.c: a full disk ---- */

#define APP_DISK_PROBE_MS	3000	/* between probe writes */

/*
 * A write failed with -ENOSPC: on the loop's next turn the engine goes
 * offline (wa_eng_hold(), its EV_DISCONNECTED saying "disk full: ..." with
 * the data dir, err -ENOSPC), then every APP_DISK_PROBE_MS a probe write
 * (store_tx_probe()); the first that commits resumes the engine.
 * Nothing while already so.  Engine thread; safe inside the engine's
 * callbacks.
 */
void	app_disk_full(struct app *a);

#define APP_DISK_IO_MAX_MS	300000	/* the longest wait after EIO */

/*
 * A write failed with -EIO (WA_DM_EV_STORE_FAILED): as app_disk_full(),
 * offline (EV_DISCONNECTED err -EIO, "cannot store in DIR (I/O error);
 * trying again in N s"), then a probe write after N s, N from
 * APP_DISK_PROBE_MS doubling with each failure up to APP_DISK_IO_MAX_MS;
 * the first probe that commits resumes the engine.  Nothing while held
 * already.  Engine thread; safe inside the engine's callbacks.
 */
void	app_disk_ioerr(struct app *a);

/* Close the probe's timer (at stop, so the loop runs out of handles).
 * Engine thread. */
void	app_disk_stop(struct app *a);
/* ---- src/app-db.c: the data dir and its database ---- */

/*
 * Take the data dir's lock, then open the store (a->store) and check its
 * device's keys; with a->fresh_db, move a damaged database aside first
 * (or fail when it is not damaged).  On failure why is said in words in
 * what (size bytes, for app_eng_stop()) and a->db_status set (src/app.h's
 * exit statuses).  Returns 0 or the error.  Engine thread, once, first.
 */
int	app_db_open(struct app *a, char *what, size_t size);

/* Start PRAGMA quick_check on a read-only connection of its own on
 * libuv's worker pool; its failure is logged and said as EV_ERROR on the
 * status line.  Engine thread, after app_db_open() succeeded. */
void	app_db_check_start(struct app *a);

/* Make the background check stop soon (the engine is stopping).  Engine
 * thread. */
void	app_db_check_stop(struct app *a);

/* Close the store, release the lock.  Engine thread, once its loop has
 * ended. */
void	app_db_close(struct app *a);

/* The pid holding the flock on the file of fd (the data dir's lock),
 * from /proc/locks; 0 when it cannot be told.  Any thread. */
long	app_db_lock_holder(int fd);

/* ---- src/app-upload.c: a file sent as a media message ---- */

/*
 * CMD_SEND_FILE f: refused at once when the engine is gone (-ENOTCONN),
 * chat or path is empty (-EINVAL), the path does not resolve or stat
 * (-errno), is not a regular file (-EISDIR) or is larger than
 * max-media-size (-EFBIG): nothing read, nothing stored.  Else the new
 * message's id into id (may be NULL) and 0; the rest runs on its own
 * (src/app-upload.c), a later failure said as EV_ERROR and, once the
 * message is stored, as its FAILED state.  Engine thread.
 */
int	app_upload_file(struct app *a, const struct cmd_send_file *f,
	    char id[WA_DM_ID_MAX]);

/* Said once the message of app_upload_spool() is stored (rc 0, its id)
 * or refused (rc < 0: the file cannot be read, -EINVAL not for a voice
 * note, the store's error; id "").  Engine thread. */
typedef void	(*app_upload_fn)(struct app *a, const char *token, int rc,
		    const char *id);

/* app_upload_file() for wachat send --file's token: its answer, fn,
 * comes once the message is stored or refused (with rc when it is
 * refused at once, and then never again). */
void	app_upload_spool(struct app *a, const struct cmd_send_file *f,
	    const char *token, app_upload_fn fn);

/* CMD_RETRY for our message (chat, id) whose upload failed: uploaded
 * again.  Returns 1 when it was such a message, 0 when not (a plain
 * failed message: wa_dm_retry()'s), or the store's error.  Engine
 * thread. */
int	app_upload_retry(struct app *a, const char *chat, const char *id);

/* At a start, once the store is open and the engine made: every upload
 * a stop or a crash cut short done again (the same id, media key and
 * blob: the one kept in the data dir, or sealed anew when it is gone),
 * the data dir's other upload blobs removed; built without FFmpeg, the
 * log says that videos go without duration, size and thumbnail.
 * Engine thread. */
void	app_upload_resume(struct app *a);

/* Logged in: the uploads that wait for media_conn ask for it.  Engine
 * thread. */
void	app_upload_online(struct app *a);

/* Stop every upload (before the engine is freed): nothing more is said;
 * the messages stay UPLOADING for the next start.  Engine thread. */
void	app_upload_stop(struct app *a);

/* ---- src/app-spool.c: messages handed over by wachat send ---- */

/*
 * Watch the spool (src/app-spool.h), made when missing: every message
 * put there, now and while wachat runs, goes to the outbox and is
 * answered.  A spool that cannot be made or is open to others is
 * logged and not watched.  Engine thread, once the engine is made.
 */
void	app_spool_start(struct app *a);

/* Close the watch's handles (at stop).  Engine thread. */
void	app_spool_stop(struct app *a);

/* ---- src/app-send.c: events to the main thread ---- */

/* Send ev to the main thread, taking it.  Engine thread. */
void	app_eng_send(struct app *a, struct ev *ev);

/* EV_ERROR: what (copied) and err.  Engine thread. */
void	app_eng_error(struct app *a, const char *what, int err);

/* ---- src/app-cmd.c: the command table ---- */

/* The command queue's wakeup (evq_ready_fn): drain it, each command to
 * its handler.  Engine thread. */
void	app_cmd_ready(struct evq *q, void *arg);

/* ---- src/app-read.c: events from the store ---- */

/* EV_GROUP for group as stored, or NULL when the store does not know it.
 * Engine thread. */
struct ev *app_read_group(struct app *a, const char *group);

/* A person's name for the UI: contact, then push name of jid; "" when
 * none is known.  Returns an owned string.  Engine thread. */
char	*app_read_name(struct app *a, const char *jid);

/* The words of a group's event line stored as text (base/notice.h
 * notice_group_words()), its people named as the store knows them now,
 * in the user's language; NULL when text is not one.  Returns an owned
 * string.  Engine thread. */
char	*app_read_notice(struct app *a, const char *text);

/* EV_CHATS answering c (CMD_LOAD_CHATS), after an EV_GROUP for each group
 * it lists that the UI was not told of yet; EV_ERROR when the store
 * fails.  Engine thread. */
void	app_read_chats(struct app *a, const struct cmd_load_chats *c);

/* EV_PAGE answering c (CMD_LOAD_PAGE); EV_ERROR when the store fails.
 * Engine thread. */
void	app_read_page(struct app *a, const struct cmd_load_page *c);

/* EV_SEARCH answering c (CMD_SEARCH); EV_ERROR when the store fails.
 * Engine thread. */
void	app_read_search(struct app *a, const struct cmd_search *c);

/* The stored reactions of message (chat, id) into r: counted, target's
 * sender and from_me and the tally (who reacted, named as known now)
 * when the store holds it.  Engine thread. */
void	app_read_tally(struct app *a, struct ev_reaction *r);

/* Forget the groups told (app_read_chats()).  Engine thread, at its
 * end. */
void	app_read_release(struct app *a);

/* ---- src/app-ui.c: the main thread ---- */

/* The event queue's wakeup (evq_ready_fn): each event to the screen or
 * the printer; EV_STOPPED closes the main thread's handles.  Main
 * thread. */
void	app_ui_ready(struct evq *q, void *arg);

/* Ask the engine to stop (CMD_QUIT, once).  Main thread. */
void	app_ui_quit(struct app *a);

/*
 * The chat screen's settings from c into o; the key bindings' names are
 * checked here (ui/keys.h), each wrong one said on stderr.  Returns 0 or
 * -EINVAL.  Main thread.
 */
int	app_ui_view_opts(const struct conf *c, struct ui_view_opts *o);

/*
 * notify-command (src/app-notify.c): run the command of a->conf (arg is
 * the struct app) with title and body (borrowed) as its last two
 * arguments, through a's main loop; nothing when none is set, or when
 * APP_NOTIFY_MAX still run (logged).  app_notify_stop(): SIGTERM to those
 * still running, at the end.  Main thread.
 */
void	app_notify_run(void *arg, const char *title, const char *body);

/* link-open-command: the command c sets, else "xdg-open" when there is a
 * display (DISPLAY or WAYLAND_DISPLAY set), else NULL (static or c's).
 * app_link_open(): run it with url (borrowed) as its last argument, as
 * app_notify_run() runs its command.  Main thread. */
const char *app_link_command(const struct conf *c);
void	app_link_open(void *arg, const char *url);
void	app_notify_stop(struct app *a);

/* open-command: the command c sets, else "xdg-open" with a display,
 * else NULL.  app_media_open(): run it detached with path (borrowed) as
 * its last argument (ui_view_opts.open_media); a path of the view-once
 * folder (app_viewonce_path()) is removed when it exits (at once when
 * it cannot start); 0, or -errno of the start (uv_spawn: -ENOENT no
 * such program, -EACCES not runnable).  app_media_save(): copy
 * the file from to the new file to ("~/" is $HOME's), 0600, never over a
 * file: 0, -EEXIST, -errno (ui_view_opts.save_media).  Main thread. */
const char *app_media_command(const struct conf *c);
int	app_media_open(void *arg, const char *path);
int	app_media_save(void *arg, const char *from, const char *to);

/* Take over the terminal when stdin and stdout are both one; else
 * a->screen stays NULL and events are printed as lines.  Main thread. */
void	app_ui_start_screen(struct app *a);

/* app_run_job(): the job's poll timer started on the main loop.  Main
 * thread. */
void	app_ui_start_job(struct app *a);

/* Give the terminal and stderr back (the handles closed when not yet).
 * Main thread. */
void	app_ui_stop_screen(struct app *a);

/* ---- src/app-print.c: the line-mode printer ---- */

/* ev as lines on stdout (a QR code drawn too when qr), flushed.  Main
 * thread. */
void	app_print_ev(const struct ev *ev, bool qr);

#endif
