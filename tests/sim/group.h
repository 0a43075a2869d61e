/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/group.h -- what group.c (the groups, their notifications,
 * the w:g2 iqs) shares with group-admin.c (the admin routes of groups):
 * making groups and changing them, each change notified as a client's
 * would be.  Loop thread only.
 */
#ifndef SIM_GROUP_H
#define SIM_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "sim.h"

struct json_object;

/* A change of participants (10.1). */
enum grp_change { CH_ADD, CH_REMOVE, CH_PROMOTE, CH_DEMOTE };

/* The user JID of a in namespace lid (no device), as text. */
void	grp_user_text(char *out, size_t len, const struct sim_account *a,
	    bool lid);
/* A new group (no members) with the next id, created now by creator;
 * lid: LID-addressed; key: the create notification's key attribute, or
 * NULL.  Owned by s. */
struct sim_group *grp_new(struct sim *s, const char *subject,
	    struct sim_account *creator, bool lid, const char *key);
/* Add a to g (no notification); false when a is already a member or the
 * group is full. */
bool	grp_member_add(struct sim_group *g, struct sim_account *a,
	    bool superadmin);
/* The create notification for every member device but the creator's
 * device actor_dev (nodes in ar). */
void	grp_notify_create(struct sim *s, struct sim_group *g,
	    uint32_t actor_dev, struct arena *ar);
/* actor (device actor_dev) sets g's subject to subject[0..len) (cut to
 * fit); notified to every member device but the actor's. */
void	grp_set_subject(struct sim *s, struct sim_group *g,
	    struct sim_account *actor, uint32_t actor_dev, const char *subject,
	    size_t len, struct arena *ar);
/* actor (device actor_dev) sets g's disappearing messages' timer to
 * secs (0 off; else 86400, 604800 or 7776000), notified (<ephemeral
 * expiration/> or <not_ephemeral/>) to every member device but the
 * actor's.  Returns false (nothing changed) for another value. */
bool	grp_set_ephemeral(struct sim *s, struct sim_group *g,
	    struct sim_account *actor, uint32_t actor_dev, uint32_t secs,
	    struct arena *ar);
/*
 * Apply change what of accounts v[0..n) (NULL: unknown user, named by
 * names[i] when names is not NULL) to g, acting as actor (device
 * actor_dev).  Fills res (the <add|...> answer child, with error= per
 * participant that failed) when not NULL, and the JSON array jres when
 * not NULL.  Queues the notification.  Returns how many participants
 * changed.
 */
size_t	grp_apply_change(struct sim *s, struct sim_group *g,
	    enum grp_change what, struct sim_account *actor, uint32_t actor_dev,
	    struct sim_account **v, const struct wa_val *const *names, size_t n,
	    struct arena *ar, struct wa_node *res, struct json_object *jres);

#endif
