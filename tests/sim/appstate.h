/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/appstate.h -- what the parts of the sim's app state ("syncd",
 * protocol-features.md 2) share: appstate.c (the server's collections,
 * the phone's keys and the patches it authors, the w:sync:app:state iq,
 * server_sync) and appstate-admin.c (the /admin/appstate routes, the
 * status, the faults).  The crypto is proto/appstate.h's; the sim keeps
 * one state per account and collection, which is both the server's (the
 * patches as stored, in order) and the phone's (the LTHash and the live
 * records it authors on).  Loop thread only.
 */
#ifndef SIM_APPSTATE_H
#define SIM_APPSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "proto/appstate.h"
#include "sim.h"

struct json_object;

#define AS_KEY_ID_LEN	6	/* bytes of the phone's key ids (seen: 6) */
#define AS_KEY_LEN	32	/* keyData */
#define AS_KEYS_MAX	16	/* keys per account */
#define AS_PAGE_DEFAULT	50	/* patches in one answer */
#define AS_INLINE_DEFAULT (64u << 10)	/* bytes of mutations served
					 * inline; more: externalMutations */
#define AS_BIG_CONTACTS	8000	/* the big-snapshot fault's contacts */
#define AS_BY_MAX	24

/* One app-state sync key of the phone (2.3). */
struct as_key {
	uint8_t		 id[AS_KEY_ID_LEN];
	uint8_t		 data[AS_KEY_LEN];
	int64_t		 ts_ms;
	uint32_t	 raw_id;	/* fingerprint rawId */
	bool		 withheld;	/* the new-key fault's: not in a
					 * share until a companion asks */
	unsigned	 asked;		/* key requests naming it */
	struct wa_as_keys k;		/* expanded */
};

/* One stored patch: as authored or received (no version field; it is
 * added when served). */
struct as_patch {
	uint64_t	 version;
	struct buf	 bytes;
	char		 by[AS_BY_MAX];	/* "phone" or "device N" */
	size_t		 nmut, mut_bytes;	/* its mutations, encoded */
	struct sim_blob	*ext;		/* its mutations on the media host
					 * (served as externalMutations) */
	bool		 bad_mac;	/* the patch-mac fault's */
};

/* One live record (index MAC -> value). */
struct as_rec {
	uint8_t		 index_mac[WA_AS_MAC_LEN];
	uint8_t		 value_mac[WA_AS_MAC_LEN];
	struct buf	 value;		/* SyncdValue.blob */
	uint8_t		 key_id[WA_AS_KEY_ID_MAX];
	size_t		 key_id_len;
	char		*index_json;	/* NULL when its content was bad */
	struct json_object *action;	/* decoded, for the status */
	uint64_t	 version;	/* set by that patch */
	char		 by[AS_BY_MAX];
};

struct as_coll {
	struct wa_as_state st;
	struct as_patch	*p;
	size_t		 np, pcap;
	struct as_rec	*r;
	size_t		 nr, rcap;
	uint64_t	 snapshots;	/* served */
};

/* An account's app state (a->as). */
struct sim_as {
	struct as_key	 keys[AS_KEYS_MAX];	/* oldest first; the last
						 * is the phone's current */
	size_t		 nkeys;
	struct as_coll	 c[WA_AS_NCOLL];
	struct sim_account **pending;	/* contacts made, not authored yet */
	size_t		 npending, pending_cap;
	bool		 fault_patch_mac, fault_snapshot_mac, fault_conflict;
	uint64_t	 shares, requests, accepted, refused, conflicts;
	uint64_t	 notifications, fetches;
};

/* --- appstate.c --- */
/* a's app state, made on first use (one key); the contacts made since
 * the last call authored first (one patch). */
struct sim_as *as_get(struct sim *s, struct sim_account *a);
/*
 * a's phone authors one patch of the n actions acts[0..n) (ops[i]
 * WA_AS_SET or WA_AS_REMOVE; NULL: all SET), all of collection c, with
 * its current key, on the collection's state; stored as the next
 * version and announced to every companion (server_sync).  Returns 0 or
 * an error (*why, static, for the admin).
 */
int	as_author(struct sim *s, struct sim_account *a, enum wa_as_coll c,
	    const struct wa_as_action *acts, const int *ops, size_t n,
	    const char **why);
/* A new key for a's phone (withheld: not shared until asked); returns
 * it, or NULL when a holds AS_KEYS_MAX. */
struct as_key *as_key_new(struct sim_as *as, bool withheld);
/* Send server_sync for collection c of a to every companion but except
 * (0: none).  Returns how many were queued. */
unsigned as_notify(struct sim *s, struct sim_account *a, enum wa_as_coll c,
	    uint32_t except);
/* --- appstate-admin.c --- */
/* The action as JSON (a new reference). */
struct json_object *as_action_json(const struct wa_as_action *x);
/* The conflict fault: a's phone authors a harmless patch in c (an
 * unpin, an unmute of status@broadcast, its own push name or contact
 * again) so that a companion's base is stale.  Returns 0 or an error
 * (none for "regular", where the phone sends nothing). */
int	as_conflict(struct sim *s, struct sim_account *a, enum wa_as_coll c);

#endif
