/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/event-layout.h -- the shape of every payload of base/event.h, as
 * constant tables that a few generic walks read: making a payload (its
 * strings ""), freeing it, and its wire form (base/event-wire.c).  One
 * table per struct, one row per field in declaration order, so that
 * adding a field is one line here and every walk follows.  Internal to
 * base/event*.c and the tests.  Constant data and pure functions: any
 * thread.
 */
#ifndef WC_EVENT_LAYOUT_H
#define WC_EVENT_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/event.h"

enum ev_field_type {
	EV_F_BOOL,		/* bool */
	EV_F_ENUM,		/* an enum (stored as an int), 0..max */
	EV_F_I32,		/* int32_t */
	EV_F_U32,		/* uint32_t */
	EV_F_I64,		/* int64_t */
	EV_F_STR,		/* char *, owned, NUL-terminated */
	EV_F_STRUCT,		/* a struct of layout elem, inline */
	EV_F_ARRAY,		/* elem *, owned, with a uint32_t count at
				 * count_off; NULL when the count is 0 */
};

struct ev_layout;

struct ev_field {
	enum ev_field_type	 type;
	const char		*name;		/* the member's name */
	size_t			 off;		/* offsetof the member */
	size_t			 count_off;	/* EV_F_ARRAY: of its count */
	uint32_t		 max;		/* EV_F_ENUM: the largest */
	const struct ev_layout	*elem;		/* EV_F_STRUCT, EV_F_ARRAY */
};

struct ev_layout {
	const char		*name;		/* "ev_chat" */
	size_t			 size;		/* sizeof the struct */
	const struct ev_field	*fields;
	size_t			 nfields;
};

/* What one kind of event or command carries. */
struct ev_kind_info {
	const char		*name;		/* "EV_MESSAGE" */
	const struct ev_layout	*layout;	/* of its member of u */
	int			 chat_field;	/* the field of layout that
						 * names its chat, or -1 */
};

/* The pointer, or the count, stored at (any alignment: memcpy). */
static inline void *
ev_ptr_get(const void *at)
{
	void	*v;

	memcpy(&v, at, sizeof(v));
	return v;
}

static inline void
ev_ptr_set(void *at, const void *v)
{
	memcpy(at, &v, sizeof(v));
}

static inline uint32_t
ev_count_get(const void *at)
{
	uint32_t	 n;

	memcpy(&n, at, sizeof(n));
	return n;
}

static inline void
ev_count_set(void *at, uint32_t n)
{
	memcpy(at, &n, sizeof(n));
}

/* The kind's description; NULL above EV_KIND_MAX (CMD_KIND_MAX). */
const struct ev_kind_info *ev_kind_info(enum ev_kind kind);
const struct ev_kind_info *cmd_kind_info(enum cmd_kind kind);

/* Set every string of the payload p (of layout l) to an owned "",
 * nested structs included; arrays are left as they are.  Aborts on
 * out-of-memory. */
void	ev_layout_fill(const struct ev_layout *l, void *p);

/* Free every string and array of the payload p (of layout l), nested
 * ones included, and zero their pointers and counts; p itself is not
 * freed.  NULL strings and arrays are skipped. */
void	ev_layout_release(const struct ev_layout *l, void *p);

/* The fewest bytes a payload of layout l takes on the wire (empty
 * strings and arrays). */
size_t	ev_layout_wire_min(const struct ev_layout *l);

#endif
