/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/groups.h -- what the chat screen knows of groups (issue 8): each
 * group's subject, description and members from its last EV_GROUP
 * (base/event.h), members sorted creator and admins first, then by name;
 * whether we are still a member; the sender of a group's newest message
 * seen (for the chat list's "Alice: hi").  And the rules the screen
 * follows for people in groups: a sender's name (the message's own name,
 * else the member's, else +digits of a PN JID, else a short LID), a
 * colour per person from a hash of the JID (the same after a restart and
 * in every view; nchat hashes the user id into its usercolor palette,
 * features.md 1b), and "@<digits>" mentions of members shown as
 * "@Name".  All network text is sanitised (base/sanitize.h) when it comes
 * in.  Pure: no curses, no translated strings; main thread (one struct
 * ui_groups is used by one thread).
 */
#ifndef UI_GROUPS_H
#define UI_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/event.h"

struct buf;

#define UI_GROUP_COLOURS	8	/* sender colours (ui_view_colours()) */
#define UI_GROUP_PAIR0		3	/* their curses pairs: PAIR0 + 0..7 */
#define UI_GROUP_MEMBERS_MAX	5000	/* members kept of one EV_GROUP
					 * (WhatsApp's limit is 1024) */
#define UI_GROUP_MAX		10000	/* groups kept */
#define UI_GROUP_SPANS_MAX	64	/* mentions marked in one message */

/* Admin level of a member (struct ev_member admin). */
enum ui_group_role {
	UI_GROUP_MEMBER = 0,
	UI_GROUP_ADMIN = 1,
	UI_GROUP_CREATOR = 2,		/* superadmin */
};

/* One member; strings owned, never NULL. */
struct ui_member {
	char			*jid;	/* raw user JID (a key) */
	char			*alt;	/* the other JID (a LID), or "" */
	char			*name;	/* sanitised contact or push name; "" */
	char			*shown;	/* name, else +digits, else short LID */
	enum ui_group_role	 role;
	bool			 is_me;
};

/* One group; strings owned, never NULL. */
struct ui_group {
	char		*jid;		/* raw group JID */
	bool		 known;		/* an EV_GROUP came */
	char		*subject;	/* sanitised, one line; "" */
	char		*desc;		/* sanitised, may hold newlines */
	struct ui_member *v;		/* sorted: creator, admins, others;
					 * each by shown name */
	size_t		 n;
	bool		 left;		/* we are no longer a member */
	/* The newest message seen from events (for the chat list). */
	int64_t		 last_ms;	/* 0: none */
	char		*last_sender;	/* raw JID; "" ours */
	char		*last_name;	/* sanitised; "" unknown */
	bool		 last_from_me;
};

/* The groups known; each group stays at its address until released. */
struct ui_groups {
	struct ui_group	**v;
	size_t		 n;
};

/* A part of a text to highlight: bytes [off, off + len); colour is the
 * mentioned person's (ui_group_colour()). */
struct ui_span {
	size_t		 off, len;
	unsigned	 colour;
};

void		ui_groups_init(struct ui_groups *gs);
void		ui_groups_release(struct ui_groups *gs);

/* Whether jid is a group's ("...@g.us": its server, after the last '@',
 * JID_SERVER_GROUP of base/jid.h, something before it).  NULL: false. */
bool		ui_group_is_jid(const char *jid);

/* The group jid, or NULL.  Borrowed until ui_groups_release(). */
struct ui_group	*ui_groups_find(const struct ui_groups *gs, const char *jid);

/*
 * The group jid, added (unknown, no members) when not held.  Returns NULL
 * only when UI_GROUP_MAX groups are held already.
 */
struct ui_group	*ui_groups_get(struct ui_groups *gs, const char *jid);

/*
 * Take an EV_GROUP (ev borrowed; other kinds and events without a group
 * JID are ignored): the group's subject, description, members (at most
 * UI_GROUP_MEMBERS_MAX) and left flag (ev->u.group) replace what was
 * held.  Returns the group, or NULL when ignored.
 */
struct ui_group	*ui_groups_apply(struct ui_groups *gs, const struct ev *ev);

/*
 * Note the newest message of a group chat seen from an EV_MESSAGE (ev
 * borrowed; notices and other chats are ignored): who sent it, for the
 * chat list's preview.
 */
void		ui_groups_note(struct ui_groups *gs, const struct ev *ev);

/* The member with user JID jid (the device part ":N" ignored), or NULL. */
const struct ui_member *ui_group_member(const struct ui_group *g,
		    const char *jid);

/* The member that is us, or NULL. */
const struct ui_member *ui_group_me(const struct ui_group *g);

/*
 * "+digits" of a PN JID ("15550000001@s.whatsapp.net", with or without a
 * device ":N"; its user part all digits, its server after the last '@'
 * JID_SERVER_PN of base/jid.h), appended to out with a NUL, and true;
 * false, out untouched, for any other JID.
 */
bool		ui_group_phone_name(const char *jid, struct buf *out);

/*
 * A person's name as the screen shows it, appended to out with a NUL
 * (buf semantics as wc_sanitize()): name (sanitised; may be NULL or "")
 * when given, else the name of the member jid of g (g may be NULL), else
 * "+digits" for a PN JID, else "~…" and the last 6 characters of a
 * LID's user part, else the sanitised JID.
 */
void		ui_group_name(const struct ui_group *g, const char *jid,
		    const char *name, struct buf *out);

/*
 * The colour of the person jid, 0 to UI_GROUP_COLOURS - 1: FNV-1a of the
 * JID without its device part, so that one person has one colour on
 * every device, in every view and after a restart.
 */
unsigned	ui_group_colour(const char *jid);

/*
 * What we type, as it goes out: "@Name" of a member whose name is known
 * becomes "@DIGITS" of their JID (the longest name that fits wins), so
 * that the engine sends it as a mention and every client shows the name.
 * Returns a malloc'd copy (the same text when nothing changed); g may be
 * NULL.  Aborts on out-of-memory.
 */
char		*ui_group_mentions_out(const struct ui_group *g,
		    const char *text);

/*
 * text (sanitised) with each "@<digits>" naming a member of g (digits =
 * the user part of its JID, PN or LID) as "@Name" when the member's name
 * is known, appended to out with a NUL.  The mentions of members (named
 * or not) are stored in *spans (a new array the caller frees, NULL when
 * none; at most UI_GROUP_SPANS_MAX) and *nspans, offsets into the text
 * appended (from out->len at the call).  g NULL: the text as it is.
 */
void		ui_group_mentions(const struct ui_group *g, const char *text,
		    struct buf *out, struct ui_span **spans, size_t *nspans);

#endif
