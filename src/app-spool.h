/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-spool.h -- the hand-over of `wachat send` (src/cli-send.c) to
 * the wachat that runs on the data dir (src/app-spool.c; doc/wachat.1,
 * SUBCOMMANDS): a spool directory DATA_DIR/spool (0700, ours) where the
 * sender puts one file per message, TOKEN.msg (0600, written as
 * .TOKEN.tmp and renamed, so it is whole when seen):
 *
 *	wachat-send 1\n
 *	CHAT-JID\n
 *	TEXT (every byte to the end of the file)
 *
 * or, for wachat send --file, a file to send as a media message:
 *
 *	wachat-file 1\n
 *	CHAT-JID\n
 *	ptt\n or -\n		(a voice note, or as its type says)
 *	/ABSOLUTE/PATH\n
 *	CAPTION (every byte to the end of the file; may be empty)
 *
 * The running wachat's engine thread watches the directory (inotify
 * through uv_fs_event, and a timer), renames each TOKEN.msg to
 * TOKEN.taken, queues the text in its outbox (wa_dm_send_text(): stored
 * before it is sent), answers in TOKEN.ack (written as .TOKEN.tmp-ack
 * and renamed), "ok ID\n" or "error WORDS\n", and removes TOKEN.taken.
 * The sender reads the answer, removes it, and waits for the message's
 * ack in the database (read-only).  Until the socket of a session that
 * outlives the terminal carries this.
 */
#ifndef WC_APP_SPOOL_H
#define WC_APP_SPOOL_H

#include <stdbool.h>
#include <stddef.h>

#define APP_SPOOL_NAME		"spool"	/* in the data dir */
#define APP_SPOOL_TOKEN_MAX	64	/* bytes of a token, with the NUL */
#define APP_SPOOL_FILE_MAX	(65536 + 512) /* bytes of a TOKEN.msg */
#define APP_SPOOL_MAGIC		"wachat-send 1\n"
#define APP_SPOOL_FILE_MAGIC	"wachat-file 1\n"

/*
 * The spool directory of data_dir into out[size]; with make, created
 * (0700) when missing.  It must be a directory (not a link) owned by us
 * and open to nobody else.  Returns 0, -EPERM (another owner, or open to
 * group or others), -ENOTDIR, -ENAMETOOLONG, or the -errno of lstat or
 * mkdir (-ENOENT without make).  Any thread.
 */
int	app_spool_dir(const char *data_dir, bool make, char *out,
	    size_t size);

/*
 * Put a message for chat (a JID) with text[0..len) into spool (a
 * directory app_spool_dir() gave): written to .TOKEN.tmp (0600, O_EXCL,
 * no link followed), synced, renamed to TOKEN.msg.  The new token
 * (letters, digits and '-') in token.  Returns 0, or the -errno of the
 * write (nothing left behind).  Any thread.
 */
int	app_spool_put(const char *spool, const char *chat, const char *text,
	    size_t len, char token[APP_SPOOL_TOKEN_MAX]);

/*
 * Put a file for chat into spool as app_spool_put() puts a text: path
 * absolute, without a newline; caption (may be "") a NUL-terminated
 * string; ptt: as a voice note.  Returns 0, -EINVAL (a relative path,
 * a newline in it, a caption too long), or the -errno of the write.
 * Any thread.
 */
int	app_spool_put_file(const char *spool, const char *chat,
	    const char *path, const char *caption, bool ptt,
	    char token[APP_SPOOL_TOKEN_MAX]);

/*
 * The answer to token in spool: 0 when there is none yet; 1 with the
 * message id in id[idsize] ("ok"); -1 with the running wachat's words in
 * why[whysize] ("error").  An answer read is removed.  Any thread.
 */
int	app_spool_answer(const char *spool, const char *token, char *id,
	    size_t idsize, char *why, size_t whysize);

/* Take TOKEN.msg back: 0 when removed (it was not taken, nothing goes
 * out), -ENOENT when the running wachat took it already.  Any thread. */
int	app_spool_withdraw(const char *spool, const char *token);

/*
 * Whether a wachat runs on data_dir: true when another process holds the
 * data dir's lock (src/app-db.c), its pid in *pid (0 when it cannot be
 * told).  Any thread.
 */
bool	app_spool_busy(const char *data_dir, long *pid);

#endif
