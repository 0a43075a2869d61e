/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/history.h -- what the parts of the simulated phone's history
 * share: the history itself (chats, messages, the contacts made for it)
 * and the calls between history-gen.c (the generator), history.c
 * (history sync: chunks, notifications, on-demand answers, faults) and
 * history-admin.c (the /admin/history routes).  Loop thread only.
 */
#ifndef SIM_HISTORY_H
#define SIM_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"

struct json_object;

#define HIST_MAX_CHATS		20000
#define HIST_MAX_MSGS		2000000
#define HIST_MAX_CHUNK		100000
#define HIST_CHUNK_DEFAULT	3000
#define HIST_BOOT_MAX		20	/* per chat in INITIAL_BOOTSTRAP */
#define HIST_NOW_DEFAULT	1764547200	/* 2025-12-01 00:00 UTC */
#define HIST_DAY		86400
#define HIST_YEAR		(365 * HIST_DAY)
#define HIST_OD_MAX		1000	/* messages in one on-demand answer */
#define HIST_CONTACT_BASE	UINT64_C(15557000000)	/* contacts' PNs */
#define HIST_LID_BASE		UINT64_C(207000000000000)	/* their LIDs */
#define HIST_PREKEYS		4	/* one-time prekeys per contact phone */
#define HIST_POOL_MIN		6	/* contacts when there are groups */
#define HIST_TEXT_MAX		600
#define HIST_NEST		10000	/* the nesting fault's depth */
#define HIST_BOMB		((64u << 20) + (1u << 20))	/* zeros */
#define HIST_JID_MAX		64

struct hmsg {
	int64_t			 ts;		/* unix s */
	char			 id[24];
	char			*text;
	struct sim_account	*sender;	/* NULL when from_me */
	int32_t			 quoted;	/* index in the chat, or -1 */
	bool			 from_me;
};

struct hchat {
	char			 jid[HIST_JID_MAX];
	char			 name[SIM_SUBJECT_MAX];
	struct sim_account	*peer;		/* 1:1 */
	struct sim_group	*g;		/* group */
	struct hmsg		*m;		/* oldest first */
	size_t			 n;
	uint32_t		 eph;		/* disappearing messages' timer,
						 * s (Conversation 9); 0 off */
	int64_t			 eph_ts;	/* when set, unix s (10); 0 */
};

struct sim_hist {
	unsigned		 chats, msgs, chunk;
	bool			 full_if_asked;
	uint64_t		 seed;
	int64_t			 now;
	struct hchat		*c;
	size_t			 nc;
	struct sim_account	**pool;		/* contacts made */
	size_t			 npool;
	size_t			 total;		/* messages held */
	unsigned		 ngroups;
	double			 gen_ms;
	uint64_t		 runs;		/* full syncs sent */
};

/* A monotonic clock, in ms (for the generator's and the sends' times). */
double	hist_now_ms(void);
/* The summary of a's history (it has one) into the JSON object o. */
void	hist_summary_json(const struct sim_account *a, struct json_object *o);
/*
 * The whole history of a to its companion dev, as the phone sends it
 * after linking (history.c); a row per blob into list when not NULL.
 * Returns 0 or the first error.
 */
int	hist_send(struct sim *s, struct sim_account *a, uint32_t dev,
	    struct json_object *list);
/* A faulty blob (kind: corrupt, bomb, nest, gone) to companion dev of a;
 * a row into list when not NULL.  Returns 0 or an error. */
int	hist_send_fault(struct sim *s, struct sim_account *a, uint32_t dev,
	    const char *kind, struct json_object *list);

#endif
