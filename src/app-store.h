/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-store.h -- binds store/ into the engine's struct wa_store_ops
 * (proto/eng.h) and the Signal layer's struct wa_signal_store_ops
 * (proto/wa-signal.h): the thin adapter of the composition root, converting
 * between store rows and the engine's plain structs.  Runs on the thread
 * that owns the store (the engine thread).
 */
#ifndef WC_APP_STORE_H
#define WC_APP_STORE_H

#include "proto/eng.h"
#include "proto/wa-signal.h"

struct store;

/*
 * Fill *ops with the adapter's functions over s (borrowed: it must
 * outlive every use of *ops).  Errors the ops return: those of store/
 * (-EIO, -EEXIST, -EINVAL), and WC_ETOOBIG from device_load when the
 * stored ADV identity is longer than WA_ENG_ADV_MAX or a JID does not fit.
 * Cannot fail.
 */
void	app_store_ops(struct store *s, struct wa_store_ops *ops);

/*
 * Fill *ops with the Signal adapter over s (borrowed, as above): sessions,
 * remote identities and sender keys in store/signal.c's tables; the own
 * identity, registration id and signed prekey from the device row; the
 * one-time prekeys of table prekey (removed on use); transactions as
 * store_tx_begin/commit/rollback (nested savepoints).  Errors the ops
 * return: those of store/ (-EIO, -EINVAL).  Cannot fail.
 */
void	app_store_signal_ops(struct store *s, struct wa_signal_store_ops *ops);

#endif
