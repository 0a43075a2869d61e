/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/conf.h -- wachat's settings: compiled-in defaults, then the INI file
 * ($XDG_CONFIG_HOME/wachat/wachat.conf unless another is named), then the
 * command line, each overriding the one before.  (Named conf, not config,
 * so that it never shadows the build's config.h.)  Settings are read once
 * by the main thread before any other thread starts; the struct is then
 * read-only and may be read from any thread.
 */
#ifndef WC_CONF_H
#define WC_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/log.h"
#include "proto/media-name.h"

#define CONF_DEFAULT_URL	"wss://web.whatsapp.com/ws/chat"
#define CONF_DEFAULT_VERSION_URL "https://web.whatsapp.com/"
#define CONF_KEY_LEN		32	/* a Curve25519 public key */
#define CONF_FILE_NAME		"wachat.conf"
#define CONF_KEY_ACTIONS	50	/* key-ACTION settings */
#define CONF_KEY_MAX		32	/* bytes of a key name, NUL included */
#define CONF_MAX_MEDIA_DEFAULT	((uint64_t)2 << 30)	/* max-media-size:
							 * 2 GiB */
#define CONF_THUMB_ROWS_DEFAULT	6	/* thumbnail-rows (ui/thumb.h) */
#define CONF_THUMB_ROWS_MAX	40

/* notify-terminal: how a desktop notification goes through the terminal
 * (ui/notify.h: OSC 777, OSC 9, OSC 99). */
enum conf_notify_terminal {
	CONF_NOTIFY_NONE,
	CONF_NOTIFY_OSC777,
	CONF_NOTIFY_OSC9,
	CONF_NOTIFY_OSC99,
};

/* thumbnail-protocol: how thumbnails reach the terminal. */
enum conf_thumb_proto {
	CONF_THUMB_AUTO,	/* half-blocks in tmux, screen, over SSH;
				 * else by the terminal's variables */
	CONF_THUMB_HALFBLOCKS,
	CONF_THUMB_KITTY,
	CONF_THUMB_SIXEL,
	CONF_THUMB_ITERM2,
	CONF_THUMB_OFF,
};

/* The settings.  Strings are owned (freed by conf_release()). */
struct conf {
	char		*url;		/* the WebSocket URL; never NULL */
	uint8_t		 root_key[CONF_KEY_LEN]; /* when has_root_key */
	bool		 has_root_key;	/* false: WhatsApp's own root */
	char		*ca_file;	/* extra CA file (PEM), or NULL */
	char		*version_url;	/* version lookup URL; never NULL */
	char		*version;	/* pinned "2.3000.N", or NULL */
	char		*data_dir;	/* the store's directory; never NULL */
	char		*qr_file;	/* the QR text's file, or NULL */
	/* qr-times = FIRST,NEXT: the seconds the first QR code is shown and
	 * each next one (protocol.md 6.2); 0 = the engine's 60 and 20. */
	uint32_t	 qr_first_s, qr_next_s;
	char		*log_file;	/* never NULL */
	enum log_level	 log_level;
	/* Privacy and the input line (yes/no in the file; default yes). */
	bool		 read_receipts;	/* read receipts for chats shown */
	bool		 peek;		/* every chat peeks (no receipts,
					 * left unread) unless set otherwise
					 * there (default no) */
	bool		 send_typing;	/* "typing…" to the chat */
	bool		 send_presence;	/* online/offline to contacts */
	bool		 full_history;	/* all history at linking (12.1) */
	bool		 enter_sends;	/* Enter sends; no: Enter is a newline
					 * and key-send (Ctrl-x) sends */
	bool		 clipboard;	/* the copy key writes OSC 52 */
	/* Notifications (issue 17 point 3), for what comes while it is not
	 * on a focused screen. */
	bool		 bell;		/* BEL (default yes) */
	enum conf_notify_terminal notify_terminal; /* a desktop notification
					 * through the terminal (default
					 * none) */
	char		*notify_command; /* run with the title and the body
					 * as two more arguments, or NULL */
	bool		 notify_preview; /* ... saying the text (default yes) */
	bool		 title;		/* the window title counts the unread
					 * chats (default yes) */
	/* Links (issue 17 point 7). */
	bool		 hyperlinks;	/* URLs drawn as OSC 8 links (default
					 * yes) */
	bool		 mouse;		/* clicks and the wheel (default yes) */
	/* Media (issue 19). */
	uint32_t	 thumbnail_rows; /* a media message's thumbnail drawn
					 * this many rows high at most, 0
					 * none (default CONF_THUMB_ROWS_
					 * DEFAULT, at most ..._MAX) */
	enum conf_thumb_proto thumbnail_protocol; /* default auto */
	uint64_t	 max_media_size; /* bytes of a file sent or fetched,
					 * at most (default
					 * CONF_MAX_MEDIA_DEFAULT) */
	char		*file_picker_command; /* the attach key runs it (the
					 * terminal handed over), %f the
					 * file it writes the chosen path
					 * to; NULL: a path prompt */
	char		*link_open_command; /* the open-link key runs it with
					 * the URL, or NULL (xdg-open with a
					 * display) */
	char		*download_dir;	/* downloaded media; never NULL after
					 * conf_load() (default DATA-DIR/media,
					 * made 0700) */
	struct wa_media_auto auto_download; /* per kind, up to which size
					 * a file downloads as it arrives
					 * (default none) */
	char		*open_command;	/* the open-media key runs it with
					 * the file's path, or NULL (xdg-open
					 * with a display) */
	/* Key bindings, "key-ACTION = KEY": keys[i] for conf_key_actions[i],
	 * NULL for the default.  The key names are checked by the screen
	 * (ui/keys.h) when it starts. */
	char		*keys[CONF_KEY_ACTIONS];
};

/* The actions a key-ACTION setting may name, CONF_KEY_ACTIONS of them,
 * as ui/keys.h names them. */
extern const char *const conf_key_actions[];

/* The environment the defaults depend on; NULL or "" for an unset one. */
struct conf_env {
	const char	*home;			/* $HOME */
	const char	*xdg_config_home;
	const char	*xdg_data_home;
	const char	*xdg_state_home;
};

/* One setting given on the command line: name as in the file. */
struct conf_arg {
	const char	*name;		/* "url", "root-key", ... */
	const char	*value;
};

/*
 * Why conf_load() failed.  file is "" for a command-line setting (or one
 * about the environment); line 0 when no line applies.  why is an
 * English phrase, marked for translation with N_(), to print after
 * "FILE:LINE: NAME: " or "--NAME: ".
 */
struct conf_err {
	char		 file[1024];	/* the INI file's path, or "" */
	unsigned	 line;		/* from 1, or 0 */
	char		 name[32];	/* the setting, or "" */
	const char	*why;		/* static; never NULL */
};

/*
 * Fill *c from the defaults, the INI file and args[0..nargs), in that
 * order of precedence (lowest first).  file NULL reads the default file
 * when it exists; a named file must exist.  Keys are the names
 * conf_is_name() takes, outside any section; yes/no settings take yes,
 * no, true, false, on, off, 1 or 0; '#' and ';' start comments.  The
 * paths default from env: data dir $XDG_DATA_HOME/wachat (else
 * $HOME/.local/share/wachat), log file $XDG_STATE_HOME/wachat/wachat.log
 * (else $HOME/.local/state/...).  Returns 0 and *c, freed with
 * conf_release().  Errors: -EINVAL (a bad value, an unknown name, a
 * syntax error, or no $HOME for a default) and -ENOENT/-EACCES/... (the
 * file cannot be read), with *err set; *c untouched on error.
 */
MUST_CHECK int	conf_load(struct conf *c, const struct conf_env *env,
		    const char *file, const struct conf_arg *args,
		    size_t nargs, struct conf_err *err);

/*
 * The default file's path from env, or NULL when neither $XDG_CONFIG_HOME
 * nor $HOME is set.  The caller frees it with free().
 */
char		*conf_default_file(const struct conf_env *env);

/* Whether name is a setting conf_load() knows. */
bool		 conf_is_name(const char *name);

/* Free c's strings (c itself is the caller's).  Idempotent. */
void		 conf_release(struct conf *c);

#endif
