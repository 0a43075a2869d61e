/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store-people.h -- the people known who have no chat yet
 * (store/people.c), for the chat picker: read-only, over the contact,
 * lid_map and chat tables of schema migration 3.  Same threads as the
 * rest of the store.
 */
#ifndef WC_STORE_PEOPLE_H
#define WC_STORE_PEOPLE_H

#include <stddef.h>

#include "store/store.h"

#define STORE_PEOPLE_MAX	5000	/* people in one answer at most */

/* One person: a user JID, its names ("" unknown). */
struct store_person {
	char		 jid[STORE_JID_MAX + 1];	/* the PN when the
						 * mapping has one */
	char		 name[STORE_NAME_MAX + 1];	/* address book */
	char		 push_name[STORE_NAME_MAX + 1];
};

/*
 * The users with an address-book or push name and no chat under their
 * PN or their LID (a LID known with a PN comes once, by its PN, with the
 * PN's names, else the LID's), ordered by the name shown (address-book
 * name, else push name; ASCII case ignored).  Up to max (1 ..
 * STORE_PEOPLE_MAX) into *out, a malloc'd array the caller frees, their
 * count in *n.  Returns 0 (*more: more than max), -EINVAL or -EIO (*out
 * NULL, *n 0).
 */
MUST_CHECK int	store_people_without_chat(struct store *s, size_t max,
		    struct store_person **out, size_t *n, bool *more);

#endif
