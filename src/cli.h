/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli.h -- the read-only subcommands: wachat chats, history, search,
 * export, backup (doc/wachat.1, SUBCOMMANDS; features.md D3, D4).  They open the
 * database with store_open_ro(), so they work while another wachat runs
 * on the same data dir, and print plain text (every string from the
 * network through wc_sanitize()) or JSON lines (valid UTF-8, controls
 * escaped).  Part of the composition root with src/main.c; main thread,
 * before anything else starts.
 */
#ifndef WC_CLI_H
#define WC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses of the subcommands (doc/wachat.1, EXIT STATUS). */
enum cli_exit {
	CLI_OK = 0,
	CLI_USAGE = 1,		/* bad arguments or settings */
	CLI_NOT_FOUND = 2,	/* no such chat, no hit, no message */
	CLI_DB = 3,		/* no database, unreadable, other schema */
	CLI_AMBIGUOUS = 4,	/* a chat name names several chats */
	CLI_WRITE = 5,		/* the output could not be written */
	CLI_DAMAGED = 6,	/* the database is damaged or empty */
	CLI_LOCKED = 7,		/* (wachat itself: another one runs) */
	CLI_NOT_SENT = 8,	/* send: not acked in time; it stays in the
				 * outbox and goes when wachat connects */
	CLI_REFUSED = 9,	/* send: the server refused it, or it could
				 * not be queued */
	CLI_MEDIA_FAILED = 10,	/* media: not downloaded (the network, the
				 * disk, or not in time); may be asked again */
	CLI_MEDIA_CORRUPT = 11,	/* media: the file did not match its hashes
				 * or its length: nothing kept */
	CLI_MEDIA_EXPIRED = 12,	/* media: gone from the server, and the phone
				 * did not upload it again */
	CLI_MEDIA_TOOBIG = 13,	/* media: over max-media-size: not asked for */
	CLI_MEDIA_VIEWONCE = 14, /* media: a view-once message: opened only
				 * on the chat screen, never saved
				 * (protocol-features.md 3.4) */
};

/* Whether arg (argv[1]) names a subcommand. */
bool	cli_is_command(const char *arg);

/*
 * Run subcommand argv[0] with its arguments argv[1..argc); returns an
 * enum cli_exit status.  Reads settings (the data dir) as wachat does:
 * --config FILE and --data-dir DIR are taken here too.  Prints to stdout
 * and stderr only.
 */
int	cli_main(int argc, char **argv);

/*
 * DATE as the subcommands take it (doc/wachat.1, SUBCOMMANDS):
 * YYYY-MM-DD, or YYYY-MM-DD[T ]HH:MM[:SS[.fff]][Z|+HH:MM|-HH:MM] (local
 * time without a zone), as ms since the epoch in *ms.  Returns false
 * when s is not one.  Pure but for the time zone (mktime()).
 */
bool	cli_parse_date(const char *s, int64_t *ms);

/* A phone number as people write it (+, spaces, '-', '(' and ')'; 5 or
 * more digits, country code first) as its PN user JID in out[size]:
 * true, or false when s is not one.  Pure. */
bool	cli_phone_jid(const char *s, char *out, size_t size);

struct store;

/*
 * The chat arg names (CHAT as the subcommands take it: a JID, a phone
 * number, a unique part of a name), its JID in out[size] (129 bytes
 * hold any): CLI_OK, or CLI_NOT_FOUND, CLI_AMBIGUOUS (the chats listed)
 * or CLI_DB, said on stderr.  s: a store_open_ro() connection.
 */
int	cli_chat_jid(struct store *s, const char *arg, char *out, size_t size);

/*
 * wachat send CHAT TEXT... (src/cli-send.c; doc/wachat.1): argv[0] is
 * "send".  Returns an exit status (enum cli_exit).
 */
int	cli_send_main(int argc, char **argv);

/*
 * wachat media CHAT MESSAGE-ID [--out PATH] (src/cli-get.c;
 * doc/wachat.1): argv[0] is "media".  Returns an exit status (enum
 * cli_exit).
 */
int	cli_get_main(int argc, char **argv);

/* Append the subcommands' part of --help to f. */
void	cli_usage(FILE *f);

#endif
